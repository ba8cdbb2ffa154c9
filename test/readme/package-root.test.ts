/**
 * The package root (src/index.ts): it re-exports every layer of package.json "exports" under the subpath's name,
 * and the example in its doc comment runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../../../', import.meta.url);
const PACKAGE = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { name: string; exports: Record<string, string> };

test('the package root exports every subpath of package.json "exports" as a namespace: the same module object as the subpath', async () => {
  const root = (await import(PACKAGE.name)) as Record<string, unknown>;
  assert.equal(root, await import(new URL(PACKAGE.exports['.']!, ROOT).href), `"${PACKAGE.name}" resolves to the "." target`);
  const layers = Object.keys(PACKAGE.exports).filter((key) => key !== '.');
  assert.ok(layers.length >= 11, layers.join(', '));
  for (const key of layers) {
    const name = key.slice(2);
    assert.match(key, /^\.\/[a-z]+$/, key);
    const layer = await import(`${PACKAGE.name}/${name}`);
    assert.equal(layer, await import(new URL(PACKAGE.exports[key]!, ROOT).href), `${PACKAGE.name}/${name} resolves to its target`);
    assert.equal(root[name], layer, `the root's ${name} is the module of ${PACKAGE.name}/${name}`);
  }
  // and nothing else but the shared error and random classes
  const namespaces = Object.keys(root).filter((k) => !['InvalidArgumentError', 'Random'].includes(k));
  assert.deepEqual(namespaces.sort(), layers.map((k) => k.slice(2)).sort());
});

test('the example in the doc comment of src/index.ts runs: it evaluates, fits temperature scaling and lowers the ECE', async () => {
  const source = readFileSync(new URL('src/index.ts', ROOT), 'utf8');
  const block = /```ts\n([\s\S]*?)\n \* ```/.exec(source);
  assert.ok(block, 'a ```ts block in the doc comment');
  const lines = block[1]!.split('\n').map((l) => l.replace(/^ \* ?/, ''));
  assert.match(lines[0]!, /^import \{ metrics, posthoc \} from 'calibkit';$/);
  const root = (await import(PACKAGE.name)) as typeof import('../../src/index.js');
  const val = root.data.syntheticOverconfident({ n: 3000, classes: 10, seed: 1, overconfidence: 3 });
  const testSet = root.data.syntheticOverconfident({ n: 3000, classes: 10, seed: 2, overconfidence: 3 });
  const params = ['metrics', 'posthoc', 'n', 'classes', 'testLogits', 'labels', 'valLogits', 'valLabels'];
  const run = new Function(...params, `${lines.slice(1).join('\n')}\nreturn { before, after };`) as (...args: unknown[]) => { before: { ece: number }; after: { ece: number } };
  const { before, after } = run(root.metrics, root.posthoc, testSet.n, testSet.classes, testSet.logits, testSet.labels, { rows: val.n, cols: val.classes, data: val.logits }, val.labels);
  assert.ok(before.ece > 0.1 && after.ece < 0.03, `ECE ${before.ece} → ${after.ece}`);
});
