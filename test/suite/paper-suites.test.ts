import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, SUITE_SCALES } from '../../src/suite/suite-schema.js';

/** Runs per suite: (unswept methods + swept values) × seeds, counted by hand from the suite files. */
const RUNS: Record<string, number> = { maronas: 10 * 3, thulasidasan: (5 + 4) * 3, mbls: (6 + 5) * 3, acls: (12 + 4) * 3, karandikar: (3 + 15 * 3) * 3 };
const PAPERS = Object.keys(RUNS);

test('the five paper suites are built in, parse, and expand at every scale', () => {
  for (const paper of PAPERS) {
    const entry = BUILTIN_SUITES[paper];
    assert.ok(entry, `${paper} is a built-in suite`);
    const suite = parseSuite(entry.suite, paper);
    for (const scale of SUITE_SCALES) {
      const runs = expandSuite(suite, scale, paper);
      assert.equal(runs.length, RUNS[paper], `${paper}/${scale} run count`);
      const datasets = new Set(runs.map((r) => r.config.dataset));
      assert.deepEqual([...datasets], [scale === 'quick' ? 'mnist' : scale === 'machine' ? 'fashion-mnist' : 'cifar10'], `${paper}/${scale} dataset`);
    }
  }
});

test('karandikar evaluates corruptions on its NLL runs only, on a test subset at quick and machine scale, with the TS variants post hoc', () => {
  const suite = parseSuite(structuredClone(BUILTIN_SUITES['karandikar']!.suite), 'karandikar');
  assert.deepEqual(suite.posthoc, ['temperature', 'ts-sb-ece', 'ts-hb-ece']);
  for (const [scale, subset] of [['quick', 500], ['machine', 2000]] as const) {
    const runs = expandSuite(suite, scale, 'karandikar');
    assert.deepEqual(runs.filter((r) => r.config.ood).map((r) => r.id), ['nll-seed0', 'nll-seed1', 'nll-seed2'], scale);
    assert.ok(runs.filter((r) => r.config.ood).every((r) => r.config.oodSubset === subset), scale);
  }
});
