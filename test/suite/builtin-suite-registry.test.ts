import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { BUILTIN_SUITE_NAMES, BUILTIN_SUITES, SUITES } from '../../src/suite/builtin-suites.js';
import { loadSuite } from '../../src/suite/load-suite.js';
import { parseSuite } from '../../src/suite/suite-schema.js';

test('every suite file of src/suite/papers is registered under the name its JSON states, and every built-in suite parses', async () => {
  const dir = new URL('../../src/suite/papers/', import.meta.url);
  const exported: string[] = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const module = (await import(new URL(f, dir).href)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(module)) {
      if (!key.endsWith('_SUITE')) continue;
      exported.push(String((value as { suite: { name: string } }).suite.name));
    }
  }
  for (const name of exported) assert.ok(SUITES.has(name), `${name} is registered`);
  assert.deepEqual(Object.keys(BUILTIN_SUITES), [...BUILTIN_SUITE_NAMES]);
  for (const d of SUITES.definitions) {
    assert.equal(d.suite['name'], d.name);
    assert.equal(parseSuite(structuredClone(d.suite), d.name).name, d.name);
  }
});

test('a misspelt suite name is refused with the closest built-in name', async () => {
  await assert.rejects(loadSuite('karandiker', 'SUITE'), /^InvalidArgumentError: SUITE: expected a built-in suite .*\(did you mean karandikar\?\), got "karandiker"$/);
});
