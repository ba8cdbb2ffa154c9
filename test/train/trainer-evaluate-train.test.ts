import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { matrix } from '../../src/util/matrix.js';
import { loadRunData } from '../../src/train/run/trainer-data.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('trainer-evaluate-train');
const base = { dataset: 'mnist', subset: 300, testSubset: 100, validation: 60, modelOptions: { hidden: [16] }, epochs: 2, batch: 50, select: 'last' };

test("evaluateTrain writes the training split's logits and labels and its metrics into summary.json", async () => {
  const config = resolveTrainConfig({ ...base, evaluateTrain: true, out: join(dir, 'with') });
  const result = await train(config);
  const logits = await readNpy(join(dir, 'with', 'train-logits.npy'));
  const labels = await readNpy(join(dir, 'with', 'train-labels.npy'));
  assert.deepEqual(logits.shape, [240, 10]);
  assert.deepEqual(labels.shape, [240]);
  // The labels are the training split's, in its order (not validation's or test's).
  const data = await loadRunData(config);
  assert.deepEqual(Array.from(labels.data), Array.from(data.train.labels));
  const expected = evaluate(matrix(240, 10, logits.data as Float32Array), data.train.labels, { input: 'logits', bins: 15 });
  const summary = JSON.parse(readFileSync(join(dir, 'with', 'summary.json'), 'utf8')) as { train: Record<string, number>; data: { train: number } };
  assert.equal(summary.data.train, 240);
  for (const k of ['accuracy', 'ece', 'nll', 'brier', 'adaece'] as const) assert.equal(summary.train[k], expected[k], k);
  assert.equal(result.summary!.train!['accuracy'], expected.accuracy);
  // After two epochs the model fits its own training rows at least as well as the test rows.
  assert.ok(expected.accuracy >= (result.summary!.test['accuracy'] as number) - 0.1);
});

test('without evaluateTrain nothing about the training split is written and the configuration keeps no key for it', async () => {
  const config = resolveTrainConfig({ ...base, out: join(dir, 'without') });
  assert.ok(!('evaluateTrain' in JSON.parse(JSON.stringify(config))), 'absent, so older run configurations stay identical');
  const result = await train(config);
  assert.equal(result.summary!.train, undefined);
  assert.ok(!existsSync(join(dir, 'without', 'train-logits.npy')));
  assert.ok(!existsSync(join(dir, 'without', 'train-labels.npy')));
  assert.throws(() => resolveTrainConfig({ ...base, evaluateTrain: 'yes', out: join(dir, 'x') }), /config\.evaluateTrain: expected true or false/);
});
