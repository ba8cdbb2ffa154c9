import { test } from 'node:test';
import assert from 'node:assert/strict';
import { auroc, errorDetectionAuroc, oodAuroc } from '../../src/metrics/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';
import { close, naiveAuroc } from './helpers.js';

test('AUROC of a hand-worked case counts ties as one half', () => {
  // Pairs: (0.9,0.8)=1, (0.9,0.1)=1, (0.8,0.8)=½, (0.8,0.1)=1 → 3.5/4.
  close(auroc(Float64Array.from([0.9, 0.8]), Float64Array.from([0.8, 0.1])), 0.875, 1e-15);
  assert.equal(auroc(Float64Array.from([1, 1]), Float64Array.from([1])), 0.5);
  assert.equal(auroc(Float64Array.from([2]), Float64Array.from([1])), 1);
  assert.equal(auroc(Float64Array.from([0]), Float64Array.from([1])), 0);
});

test('AUROC equals pair counting on random scores with ties, including negative scores and float32', () => {
  const rng = new Random(12);
  for (const [np, nn] of [
    [40, 60],
    [1, 300],
    [257, 3],
  ] as const) {
    const pos = new Float64Array(np);
    const neg = new Float64Array(nn);
    for (let i = 0; i < np; i++) pos[i] = Math.round((rng.normal() + 0.7) * 4) / 4;
    for (let i = 0; i < nn; i++) neg[i] = Math.round(rng.normal() * 4) / 4;
    close(auroc(pos, neg), naiveAuroc(pos, neg), 1e-14);
    close(auroc(Float32Array.from(pos), Float32Array.from(neg)), naiveAuroc(pos, neg), 1e-14);
  }
});

test('OOD AUROC ranks in-distribution confidences above OOD ones; error AUROC ranks correct above wrong', () => {
  close(oodAuroc(Float64Array.from([0.9, 0.95, 0.6]), Float64Array.from([0.5, 0.7])), 5 / 6, 1e-15);
  const conf = Float64Array.from([0.9, 0.8, 0.7, 0.6, 0.6]);
  const correct = Uint8Array.from([1, 0, 1, 0, 1]);
  // Positives 0.9, 0.7, 0.6 vs negatives 0.8, 0.6.
  close(errorDetectionAuroc(conf, correct), naiveAuroc([0.9, 0.7, 0.6], [0.8, 0.6]), 1e-15);
  assert.ok(Number.isNaN(errorDetectionAuroc(conf, Uint8Array.from([1, 1, 1, 1, 1]))), 'undefined without errors');
});

test('AUROC rejects empty or non-finite scores, naming the argument', () => {
  assert.throws(() => auroc(new Float64Array(0), Float64Array.from([1])), /positive: expected at least one score/);
  assert.throws(() => auroc(Float64Array.from([1]), Float64Array.from([NaN])), /negative: expected finite scores, got NaN at index 0/);
  assert.throws(() => oodAuroc(Float64Array.from([Infinity]), Float64Array.from([1])), InvalidArgumentError);
});
