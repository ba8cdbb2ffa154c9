import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accuracyRejectionCurve, auarc, predictionRejectionRatio } from '../../src/metrics/selective/rejection-curve.js';

const close = (a: number, b: number, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);

test('AUARC and PRR by hand: four questions', () => {
  // Most confident first: correct 1, 0, 1, 0 → acc(k) = 1, 1/2, 2/3, 1/2.
  const conf = [0.6, 0.9, 0.7, 0.8];
  const correct = [0, 1, 1, 0];
  assert.deepEqual(Array.from(accuracyRejectionCurve(conf, correct)), [1, 0.5, 2 / 3, 0.5]);
  close(auarc(conf, correct), (1 + 0.5 + 2 / 3 + 0.5) / 4);
  // Oracle: 1, 1, 2/3, 1/2 → 19/24; random: the accuracy 1/2. PRR = (2/3 − 1/2) / (19/24 − 1/2) = 4/7.
  close(predictionRejectionRatio(conf, correct), 4 / 7);
});

test('tied confidences: the expectation over their order (independent of the input order)', () => {
  // Orders (1, 0, 1) and (0, 1, 1) give areas 13/18 and 7/18: the mean is 5/9.
  close(auarc([0.9, 0.9, 0.5], [1, 0, 1]), 5 / 9);
  close(auarc([0.9, 0.9, 0.5], [0, 1, 1]), 5 / 9);
});

test('PRR is 1 for a perfect ranking, −1-ish for the reverse, undefined when all answers agree', () => {
  close(predictionRejectionRatio([0.9, 0.8, 0.3, 0.2], [1, 1, 0, 0]), 1);
  assert.ok(predictionRejectionRatio([0.2, 0.3, 0.8, 0.9], [1, 1, 0, 0]) < 0);
  assert.ok(Number.isNaN(predictionRejectionRatio([0.9, 0.8], [1, 1])));
  assert.ok(Number.isNaN(predictionRejectionRatio([0.9, 0.8], [0, 0])));
  // Every confidence equal: the curve is flat at the accuracy, PRR = 0.
  close(predictionRejectionRatio([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 1]), 0);
});

test('bad inputs are refused with the argument named', () => {
  assert.throws(() => auarc([0.5], [1, 0]), /correct/);
  assert.throws(() => auarc([], []), /confidence/);
});
