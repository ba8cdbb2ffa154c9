import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageDataset, subset } from '../../src/data/dataset.js';
import { readNpy } from '../../src/io/npy.js';
import { Random } from '../../src/util/random.js';
import { flagOverrides } from '../../src/cli/commands/train.js';
import { compileMcDropoutStep, mcDropoutProbabilities } from '../../src/train/evaluation/mc-dropout.js';
import { compileEvalStep } from '../../src/train/steps/compile-eval-step.js';
import { predictLogits } from '../../src/train/evaluation/predict.js';
import { logProbabilities } from '../../src/train/run/run-predictor.js';
import { mergeConfig, resolveTrainConfig } from '../../src/train/train-config.js';
import { loadRunData } from '../../src/train/run/trainer-data.js';
import { createRunModel } from '../../src/train/run/trainer-model.js';
import { train } from '../../src/train/run/trainer.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('trainer-mc-dropout');
const base = { dataset: 'mnist', subset: 300, testSubset: 100, validation: 60, modelOptions: { hidden: [16], dropout: 0.3 }, epochs: 2, batch: 50, evalBatch: 40, select: 'last', threads: 1 };

function softmaxRows(z: ArrayLike<number>, c: number): Float64Array {
  const out = new Float64Array(z.length);
  for (let off = 0; off < z.length; off += c) {
    let m = -Infinity;
    for (let j = 0; j < c; j++) m = Math.max(m, z[off + j]!);
    let s = 0;
    for (let j = 0; j < c; j++) s += Math.exp(z[off + j]! - m);
    for (let j = 0; j < c; j++) out[off + j] = Math.exp(z[off + j]! - m) / s;
  }
  return out;
}

test('an MC-dropout run writes log p̄: softmax of its test logits is mcDropoutProbabilities of its weights with the same seed; ood.json uses it too', async () => {
  const out = join(dir, 'mc');
  const config = resolveTrainConfig({ ...base, seed: 2, mcDropout: { passes: 3 }, ood: true, oodSubset: 30, out });
  assert.deepEqual(config.mcDropout, { passes: 3 }, 'the seed stays absent (defaults to the run seed)');
  // a tiny second OOD dataset of the same image shape (no file loading in this test)
  const rng = new Random(1);
  const other = imageDataset({ name: 'noise-set', images: Float32Array.from({ length: 20 * 784 }, () => rng.uniform()), labels: new Int32Array(20), shape: [1, 28, 28], classes: 10 });
  const result = await train(config, { oodDataset: other });
  assert.equal(result.status, 'completed');
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { mc_dropout: unknown; test: Record<string, number> };
  assert.deepEqual(summary.mc_dropout, { passes: 3, rate: 0.3, seed: 2 });

  const data = await loadRunData(config);
  const model = createRunModel(config.model, config.modelOptions, data.train);
  const step = compileMcDropoutStep(model, { threads: 1 });
  // select 'last': the final state is the selected epoch's
  const weights = { params: result.state.params, buffers: result.state.buffers };
  const c = data.classes;
  const testImages = data.test.kind === 'image' ? data.test.images : assert.fail('image data');
  const expected = mcDropoutProbabilities(step, weights, testImages, { passes: 3, batch: config.evalBatch, seed: 2 });
  const logits = await readNpy(join(out, 'test-logits.npy'));
  assert.deepEqual(logits.shape, [100, c]);
  const got = softmaxRows(logits.data as Float32Array, c);
  let worst = 0;
  got.forEach((p, i) => (worst = Math.max(worst, Math.abs(p - expected[i]!))));
  assert.ok(worst < 1e-6, `max |softmax(logits) − p̄| = ${worst}`);
  assert.deepEqual(logits.data, logProbabilities(expected), 'the file holds log p̄ (float32) exactly');

  // Not the deterministic prediction: the dropout passes change the probabilities.
  const evalStep = compileEvalStep(model, { threads: 1 });
  const plain = softmaxRows(predictLogits(evalStep, weights, testImages, config.evalBatch), c);
  assert.ok(
    plain.some((p, i) => Math.abs(p - expected[i]!) > 1e-3),
    'MC dropout differs from dropout-off inference',
  );
  evalStep.dispose();

  // ood.json's in-distribution numbers come from the same predictor (the OOD subset of the test split).
  const ood = JSON.parse(readFileSync(join(out, 'ood.json'), 'utf8')) as { in_distribution: { n: number; mean_confidence: number } };
  const pick = new Random(config.seed).permutation(100).slice(0, 30).sort();
  const sub = subset(data.test, pick);
  const pOod = mcDropoutProbabilities(step, weights, sub.kind === 'image' ? sub.images : new Float32Array(), { passes: 3, batch: config.evalBatch, seed: 2 });
  let meanConf = 0;
  for (let i = 0; i < 30; i++) meanConf += Math.max(...pOod.subarray(i * c, i * c + c)) / 30;
  assert.equal(ood.in_distribution.n, 30);
  assert.ok(Math.abs(ood.in_distribution.mean_confidence - meanConf) < 1e-6, `${ood.in_distribution.mean_confidence} vs ${meanConf}`);
  step.dispose();
});

test('log p̄ stays finite where p̄ underflows to 0', () => {
  const z = logProbabilities(Float64Array.from([1, 0, 0.5, 0.5]));
  assert.ok(z.every(Number.isFinite));
  assert.equal(z[0], 0);
  assert.ok(z[1]! < -700);
});

test('MC dropout on a model without dropout is an error naming config.mcDropout, before any epoch trains', async () => {
  assert.throws(
    () => resolveTrainConfig({ ...base, modelOptions: { hidden: [16] }, mcDropout: { passes: 3 }, out: join(dir, 'x') }),
    /config\.mcDropout: expected a model with dropout rate > 0 \(give config\.modelOptions\.dropout/,
  );
  assert.throws(
    () => resolveTrainConfig({ ...base, model: 'lenet', modelOptions: {}, mcDropout: {}, out: join(dir, 'x') }),
    /config\.mcDropout: expected a model with dropout \(lenet has no dropout option/,
  );
  // a rate but no dropout layer (no hidden layer): refused when the run is set up, before training
  const out = join(dir, 'no-layer');
  const config = resolveTrainConfig({ ...base, modelOptions: { hidden: [], dropout: 0.3 }, mcDropout: { passes: 3 }, out });
  await assert.rejects(train(config), /config\.mcDropout: model: expected a model with dropout \(rate > 0\) for MC dropout/);
  assert.ok(!existsSync(join(out, 'checkpoint-last.ckpt')), 'no epoch ran');
});

test('config.mcDropout: passes ≥ 2 (default 10), an integer seed, unknown keys named; absent stays absent; CLI flag and merge', () => {
  const at = { ...base, out: join(dir, 'y') };
  assert.deepEqual(resolveTrainConfig({ ...at, mcDropout: {} }).mcDropout, { passes: 10 });
  assert.deepEqual(resolveTrainConfig({ ...at, mcDropout: { passes: 2, seed: -3 } }).mcDropout, { passes: 2, seed: -3 });
  assert.throws(() => resolveTrainConfig({ ...at, mcDropout: { passes: 1 } }), /config\.mcDropout\.passes: expected an integer ≥ 2, got 1/);
  assert.throws(() => resolveTrainConfig({ ...at, mcDropout: { passes: 2.5 } }), /config\.mcDropout\.passes: expected an integer/);
  assert.throws(() => resolveTrainConfig({ ...at, mcDropout: { pases: 3 } }), /config\.mcDropout\.pases: expected a known key \(did you mean passes\?\)/);
  assert.throws(() => resolveTrainConfig({ ...at, mcDropout: 10 }), /config\.mcDropout: expected an object/);
  assert.ok(!('mcDropout' in JSON.parse(JSON.stringify(resolveTrainConfig(at)))), 'absent, so older run configurations stay identical');
  assert.deepEqual(flagOverrides({ 'mc-dropout': 4 })['mcDropout'], { passes: 4 });
  // --mc-dropout K over a config file's mcDropout keeps the file's seed
  assert.deepEqual(mergeConfig({ mcDropout: { passes: 10, seed: 7 } }, { mcDropout: { passes: 4 } })['mcDropout'], { passes: 4, seed: 7 });
});
