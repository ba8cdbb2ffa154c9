import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FILTER_CORRUPTIONS, corruptDataset } from '../../src/data/corruptions/corruptions.js';
import { imageDataset, type ImageDataset } from '../../src/data/dataset.js';
import { gaussianNoiseDataset } from '../../src/data/shift.js';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { matrix } from '../../src/util/matrix.js';
import { Random } from '../../src/util/random.js';
import { evaluateShift } from '../../src/train/evaluation/ood-evaluation.js';
import { confidences } from '../../src/train/evaluation/predict.js';
import { readShiftLogits } from '../../src/train/evaluation/shift-logits.js';
import { shiftReport } from '../../src/train/evaluation/shift-metrics.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { tempDir } from '../io/temp-dir.js';

/** P(c_in > c_out) + ½ P(tie) by counting all pairs. */
function naiveAuroc(pos: ArrayLike<number>, neg: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < pos.length; i++) for (let j = 0; j < neg.length; j++) s += pos[i]! > neg[j]! ? 1 : pos[i] === neg[j] ? 0.5 : 0;
  return s / (pos.length * neg.length);
}

// 3 classes of 4×4 one-channel images: class k is bright in rows of band k, plus noise.
function bands(n: number, seed: number, name: string): ImageDataset {
  const rng = new Random(seed);
  const labels = Int32Array.from({ length: n }, () => rng.int(3));
  const images = new Float32Array(n * 16);
  for (let i = 0; i < n; i++) for (let p = 0; p < 16; p++) images[i * 16 + p] = Math.min(1, Math.max(0, (Math.floor(p / 4) === labels[i]! ? 0.8 : 0.1) + 0.1 * rng.normal()));
  return imageDataset({ name, images, labels, shape: [1, 4, 4], classes: 3 });
}

/** A fixed "model": logit_k = 10 · (mean of band k − mean of the image). */
function predict(images: Float32Array): Float32Array {
  const n = images.length / 16;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    let all = 0;
    for (let p = 0; p < 16; p++) all += images[i * 16 + p]!;
    for (let k = 0; k < 3; k++) {
      let band = 0;
      for (let p = 4 * k; p < 4 * k + 4; p++) band += images[i * 16 + p]!;
      out[i * 3 + k] = 10 * (band / 4 - all / 16);
    }
  }
  return out;
}

test('evaluateShift: noise and second-dataset AUROC by confidence, metrics per corruption and severity', () => {
  const train = bands(200, 1, 'bands/train');
  const test = bands(60, 2, 'bands/test');
  const other = imageDataset({ name: 'flat', images: new Float32Array(40 * 16).fill(0.5), labels: new Int32Array(40), shape: [1, 4, 4], classes: 3 });
  const report = evaluateShift(predict, train, test, { oodDataset: other, corruptions: ['contrast', 'gaussian-noise'], severities: [1, 5], seed: 4, bins: 10 });

  const inConf = confidences(predict(test.images), 3);
  const noise = gaussianNoiseDataset(train, { count: 60, seed: 4 });
  assert.ok(Math.abs(report.noise!.auroc - naiveAuroc(inConf, confidences(predict(noise.images), 3))) < 1e-12);
  assert.equal(report.noise!.n, 60);
  // The flat images give equal logits: confidence 1/3 everywhere, below every in-distribution sample.
  assert.equal(report.ood_dataset!.auroc, naiveAuroc(inConf, new Float64Array(40).fill(1 / 3)));
  assert.equal(report.ood_dataset!.n, 40);
  assert.ok(Math.abs(report.ood_dataset!.mean_confidence - 1 / 3) < 1e-7);

  // Confidence histograms, 20 equal-width (l, u] bins: bin of c = ⌈20 c⌉ − 1 (c = 0 in bin 0), counted by hand.
  const byHand = (c: Float64Array) => {
    const counts = new Array<number>(20).fill(0);
    for (const v of c) counts[Math.max(0, Math.ceil(20 * v) - 1)]!++;
    return counts;
  };
  const h = report.confidence_histogram;
  assert.equal(h.bins, 20);
  assert.deepEqual(h.in_distribution, byHand(inConf));
  assert.deepEqual(h.noise, byHand(confidences(predict(noise.images), 3)));
  // Confidence 1/3 (up to float32 rounding of the softmax) lies in (0.30, 0.35]: bin 6 holds all 40 flat images.
  assert.deepEqual(
    h.ood_dataset,
    Array.from({ length: 20 }, (_, i) => (i === 6 ? 40 : 0)),
  );

  assert.deepEqual(
    report.corruptions.map((c) => `${c.corruption}-${c.severity}`),
    ['contrast-1', 'contrast-5', 'gaussian-noise-1', 'gaussian-noise-5'],
  );
  for (const c of report.corruptions) {
    const set = corruptDataset(test, c.corruption, c.severity, { seed: 4 });
    const m = evaluate(matrix(60, 3, predict(set.images)), set.labels, { input: 'logits', bins: 10 });
    assert.equal(c.accuracy, m.accuracy);
    assert.equal(c.ece, m.ece);
    assert.equal(c.adaece, m.adaece);
    assert.equal(c.adaece_l2, m.adaece_l2, 'equal-mass ℓ2 ECE from the same evaluate() call');
    assert.equal(c.nll, m.nll);
  }
  const contrast5 = report.corruptions[1]!;
  assert.ok(contrast5.mean_confidence < report.in_distribution.mean_confidence, "low contrast lowers this model's confidence");
  assert.equal(report.in_distribution.accuracy, evaluate(matrix(60, 3, predict(test.images)), test.labels, { input: 'logits', bins: 10 }).accuracy);
});

test('evaluateShift validates its inputs', () => {
  const train = bands(20, 1, 'a');
  const wrong = imageDataset({ name: 'w', images: new Float32Array(2 * 9), labels: new Int32Array(2), shape: [1, 3, 3], classes: 3 });
  assert.throws(() => evaluateShift(predict, train, wrong), /test: expected images of shape \[1, 4, 4\] like train/);
  assert.throws(() => evaluateShift(predict, train, train, { severities: [6] }), /options\.severities\[0\]: expected an integer ≤ 5, got 6/);
  assert.throws(() => evaluateShift(predict, train, train, { corruptions: ['frost' as never] }), /options\.corruptions\[0\]: expected one of gaussian-noise/);
});

test('training with ood writes ood.json with noise, a second dataset and the nine single-filter corruptions at five severities', async () => {
  const dir = tempDir('trainer-ood');
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 300,
    testSubset: 100,
    modelOptions: { hidden: [16] },
    epochs: 1,
    batch: 64,
    ood: true,
    oodSubset: 30,
    out: join(dir, 'run'),
  });
  // A second "dataset" of inverted digits stands in for Fashion-MNIST (which may not be installed).
  const inverted = imageDataset({ name: 'inverted', images: new Float32Array(50 * 784).fill(1), labels: new Int32Array(50), shape: [1, 28, 28], classes: 10 });
  const result = await train(config, { oodDataset: inverted });
  // summary.json marks a finished run, so it is written after every other output (a run stopped during the OOD
  // evaluation then has none, and resumes).
  const written = (f: string): bigint => statSync(join(dir, 'run', f), { bigint: true }).mtimeNs;
  for (const f of ['ood.json', 'shift/in-labels.npy', 'test-logits.npy', 'model.onnx']) assert.ok(written('summary.json') >= written(f), `summary.json after ${f}`);
  const report = JSON.parse(readFileSync(join(dir, 'run', 'ood.json'), 'utf8')) as {
    in_distribution: { n: number };
    noise: { auroc: number };
    ood_dataset: { dataset: string; n: number; auroc: number };
    corruptions: { corruption: string; severity: number; accuracy: number }[];
  };
  assert.equal(report.in_distribution.n, 30);
  assert.ok(report.noise.auroc >= 0 && report.noise.auroc <= 1);
  assert.equal(report.ood_dataset.dataset, 'inverted');
  assert.equal(report.ood_dataset.n, 30);
  assert.equal(report.corruptions.length, FILTER_CORRUPTIONS.length * 5);
  assert.deepEqual(
    report.corruptions.slice(0, 5).map((c) => c.severity),
    [1, 2, 3, 4, 5],
  );
  assert.equal(result.ood!.corruptions.length, 45);
  // shift/ keeps the logits behind ood.json: read back, the same evaluation gives ood.json's numbers exactly.
  const kept = await readShiftLogits(join(dir, 'run'));
  assert.ok(kept);
  assert.equal(kept.sets.test.predictions.rows, 30);
  assert.equal(kept.sets.corruptions.length, 45);
  assert.equal(kept.sets.oodDataset!.dataset, 'inverted');
  assert.deepEqual(JSON.parse(JSON.stringify(shiftReport(kept.sets, kept))), report);
  assert.equal(statSync(join(dir, 'run', 'shift', 'gaussian-noise-s5-logits.npy')).size, 128 + 30 * 10 * 4);
  assert.equal(await readShiftLogits(join(dir, 'nothing')), null, 'a run without shift/ has none');
});
