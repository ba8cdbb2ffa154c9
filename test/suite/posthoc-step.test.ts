import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { runPosthoc } from '../../src/suite/posthoc-step.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('posthoc-step');

/** A run directory whose logits are 0.001 × (one-hot of the prediction), right on 80 % of the rows. */
async function tinyScaleRun(name: string): Promise<string> {
  const run = join(dir, name);
  mkdirSync(run, { recursive: true });
  const rng = new Random(5);
  for (const split of ['val', 'test']) {
    const n = 400;
    const labels = Int32Array.from({ length: n }, () => rng.int(3));
    const logits = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) logits[i * 3 + (rng.uniform() < 0.8 ? labels[i]! : (labels[i]! + 1) % 3)] = 0.001;
    await writeNpy(join(run, `${split}-logits.npy`), logits, [n, 3]);
    await writeNpy(join(run, `${split}-labels.npy`), labels, [n]);
  }
  return run;
}

test('a calibrator whose fit finds no result is recorded as a failure; the other calibrators and the run stay', async () => {
  const run = await tinyScaleRun('collapsed');
  // Confidence ≈ 1/3 at 80 % accuracy: the hard-binned ECE keeps falling below T = 0.05 (its range's lower end).
  const result = await runPosthoc(run, ['temperature', 'ts-hb-ece'], 15);
  assert.deepEqual(Object.keys(result.calibrators), ['temperature']);
  assert.match(result.failures!['ts-hb-ece']!, /^ts-hb-ece: .*lower end of the search range/);
  const written = JSON.parse(readFileSync(join(run, 'posthoc.json'), 'utf8')) as { failures: Record<string, string>; calibrators: Record<string, { test: { ece: number } }> };
  assert.equal(written.failures['ts-hb-ece'], result.failures!['ts-hb-ece']);
  // Temperature scaling (NLL, scaled parametrisation) sharpens the 1e-3 logits to about the 80 % accuracy.
  assert.ok(written.calibrators['temperature']!.test.ece < 0.1, String(written.calibrators['temperature']!.test.ece));
  const ok = await runPosthoc(run, ['temperature'], 15);
  assert.equal(ok.failures, undefined, 'no failures key when every fit succeeded');
});
