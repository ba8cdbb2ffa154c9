import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coverageAtRisk, riskAtCoverage, riskCoverageCurve, selectivePredictionMetrics } from '../../src/metrics/selective/risk-coverage.js';
import { errorFprAtTpr, fprAtTpr } from '../../src/metrics/selective/fpr-at-tpr.js';
import { close } from './helpers.js';

// Hand-worked: confidences 0.9 (correct), 0.8 (wrong), 0.7 (correct), 0.6 (wrong).
const c = Float64Array.from([0.7, 0.9, 0.6, 0.8]);
const a = Uint8Array.from([1, 1, 0, 0]);

test('risk-coverage curve follows the decreasing-confidence order: risks 0, 1/2, 1/3, 2/4', () => {
  const curve = riskCoverageCurve(c, a);
  assert.deepEqual(Array.from(curve.coverage), [0.25, 0.5, 0.75, 1]);
  assert.deepEqual(Array.from(curve.risk), [0, 0.5, 1 / 3, 0.5]);
});

test('AURC, E-AURC and AUGRC equal the normalised trapezoids worked by hand', () => {
  const m = selectivePredictionMetrics(c, a);
  // AURC: trapezoids (0+.5)/2, (.5+1/3)/2, (1/3+.5)/2 over 3 intervals.
  close(m.aurc, (0.25 + 5 / 12 + 5 / 12) / 3, 1e-15, 'aurc');
  // Oracle: errors last → risks 0, 0, 1/3, 1/2.
  close(m.eaurc, m.aurc - (0 + 1 / 6 + 5 / 12) / 3, 1e-15, 'eaurc');
  // Generalised risks e_k/N: 0, 1/4, 1/4, 2/4.
  close(m.augrc, (0.125 + 0.25 + 0.375) / 3, 1e-15, 'augrc');
});

test('a perfect ranking has E-AURC 0 and an inverted one the largest E-AURC', () => {
  const good = selectivePredictionMetrics(Float64Array.from([0.9, 0.8, 0.3, 0.2]), Uint8Array.from([1, 1, 0, 0]));
  close(good.eaurc, 0, 1e-15, 'perfect ranking');
  const bad = selectivePredictionMetrics(Float64Array.from([0.2, 0.3, 0.8, 0.9]), Uint8Array.from([1, 1, 0, 0]));
  assert.ok(bad.eaurc > 0.4);
});

test('tied confidences spread their errors evenly, independent of the input order', () => {
  const tied = Float64Array.from([1, 1, 1, 1, 0.5]);
  const m1 = selectivePredictionMetrics(tied, Uint8Array.from([0, 1, 1, 1, 0]));
  const m2 = selectivePredictionMetrics(tied, Uint8Array.from([1, 1, 1, 0, 0]));
  assert.equal(m1.aurc, m2.aurc);
  const curve = riskCoverageCurve(tied, Uint8Array.from([0, 1, 1, 1, 0]));
  assert.deepEqual(Array.from(curve.risk.subarray(0, 4)), [0.25, 0.25, 0.25, 0.25]);
});

test('risk at coverage and coverage at risk invert each other on the hand-worked case', () => {
  assert.equal(riskAtCoverage(c, a, 0.5), 0.5);
  assert.equal(riskAtCoverage(c, a, 0.3), 0.5); // ⌈4 · 0.3⌉ = 2
  assert.equal(riskAtCoverage(c, a, 0.25), 0);
  assert.equal(coverageAtRisk(c, a, 0.4), 0.75);
  assert.equal(coverageAtRisk(c, a, 0.5), 1);
  assert.equal(coverageAtRisk(c, a, 0), 0.25);
  assert.throws(() => riskAtCoverage(c, a, 0), /coverage/);
});

test('FPR at 95 % TPR counts the negatives accepted at the first threshold reaching the TPR', () => {
  // 20 positives at 1..20, negatives at 0.5, 1.5 (below the 95 % threshold 2) and 19.5.
  const pos = Float64Array.from({ length: 20 }, (_, i) => i + 1);
  const neg = Float64Array.from([0.5, 1.5, 19.5]);
  // TPR ≥ 0.95 first at threshold 2 (19 of 20): negatives ≥ 2: only 19.5 → 1/3.
  close(fprAtTpr(pos, neg), 1 / 3, 1e-15, 'fpr95');
  close(fprAtTpr(pos, neg, 1), 2 / 3, 1e-15, 'fpr at tpr 1');
  // Ties between a positive and a negative are accepted together.
  assert.equal(fprAtTpr(Float64Array.from([1]), Float64Array.from([1, 0])), 0.5);
  assert.ok(Number.isNaN(errorFprAtTpr(Float64Array.from([0.5, 0.6]), Uint8Array.from([1, 1]))));
});
