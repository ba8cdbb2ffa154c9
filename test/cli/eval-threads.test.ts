import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { evaluate, PARALLEL_MIN_ROWS } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-threads');
const p = (name: string): string => join(dir, name);

test('eval --threads 2 on a large .npy gives the one-thread metrics and whole-file error positions', async () => {
  const rows = PARALLEL_MIN_ROWS + 10_000;
  const big = syntheticOverconfident({ n: rows, classes: 3, seed: 5 });
  const z = Float32Array.from(big.logits);
  await writeNpy(p('z.npy'), z, [rows, 3]);
  await writeNpy(p('y.npy'), big.labels, [rows]);
  const one = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json']);
  const two = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json', '--threads', '2']);
  assert.equal(one.code, 0, one.stderr);
  assert.equal(two.code, 0, two.stderr);
  assert.deepEqual(JSON.parse(two.stdout), JSON.parse(one.stdout));
  const reference = evaluate(matrix(rows, 3, z), big.labels, { input: 'logits' });
  const out = JSON.parse(two.stdout) as Record<string, number>;
  for (const m of ['accuracy', 'ece', 'nll', 'classwise_ece', 'ks', 'sweep_ece'] as const) assert.ok(Math.abs(out[m]! - reference[m]) <= 1e-12 * Math.max(1, Math.abs(reference[m])), m);
  z[(rows - 1) * 3 + 1] = Number.NaN;
  await writeNpy(p('z-nan.npy'), z, [rows, 3]);
  const bad = await run(['eval', '--logits', p('z-nan.npy'), '--labels', p('y.npy'), '--threads', '2']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, `calib: error: --logits: expected finite values, got NaN at row ${rows - 1}, column 1\n`);
});

test('eval --threads must be a positive integer; small inputs with --threads use one thread', async () => {
  const set = syntheticOverconfident({ n: 300, classes: 4, seed: 6 });
  await writeNpy(p('small-z.npy'), Float32Array.from(set.logits), [300, 4]);
  await writeNpy(p('small-y.npy'), set.labels, [300]);
  const zero = await run(['eval', '--logits', p('small-z.npy'), '--labels', p('small-y.npy'), '--threads', '0']);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--threads: expected an integer ≥ 1, got 0/);
  const one = await run(['eval', '--logits', p('small-z.npy'), '--labels', p('small-y.npy'), '--json']);
  const four = await run(['eval', '--logits', p('small-z.npy'), '--labels', p('small-y.npy'), '--json', '--threads', '4']);
  assert.equal(four.stdout, one.stdout);
});
