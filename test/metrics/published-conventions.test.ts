import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classwiseCalibrationError, clippedLogLoss, separateOneClasswiseEce } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';

test("clipped log-loss: scikit-learn's clip to [eps, 1 - eps] and row renormalisation (hand-worked)", () => {
  // Row 0: p_y = 0.5 → ln 2. Row 1: p = (1, 0), y = 1 → clipped (1 − 1e-3, 1e-3), sum 1 → −ln 1e-3.
  const p = matrix(2, 2, Float64Array.of(0.5, 0.5, 1, 0));
  const y = Int32Array.of(0, 1);
  assert.ok(Math.abs(clippedLogLoss(p, y, { eps: 1e-3 }) - (Math.LN2 - Math.log(1e-3)) / 2) < 1e-15);
  // Logits of magnitude 1e3: the true class underflows in float64, the clipped loss is −ln(1e-15 / (1 + 1e-15)).
  const z = matrix(1, 2, Float64Array.of(1000, -1000));
  assert.ok(Math.abs(clippedLogLoss(z, Int32Array.of(1), { input: 'logits' }) - -Math.log(1e-15 / (1 - 1e-15 + 1e-15))) < 1e-12);
  assert.throws(() => clippedLogLoss(p, y, { eps: 0 }), /eps/);
});

test('separate-one classwise ECE: probabilities of exactly 1 get their own bin; the lower edge is closed (hand-worked)', () => {
  // Class-1 probabilities 1, 1, 0.5 (labels 1, 0, 1) with M = 2: bins [0, 0.5), [0.5, 1), {1}.
  // class 1: bin {1}: |2 − 1| / 3; bin [0.5, 1): |0.5 − 1| / 3 → 1.5 / 3 = 0.5.
  // class 0: probabilities 0, 0, 0.5 (labels 0, 1, 0): bin [0, 0.5): |0 − 1| / 3; bin [0.5, 1): |0.5 − 0| / 3 → 0.5.
  const p = matrix(3, 2, Float64Array.of(0, 1, 0, 1, 0.5, 0.5));
  const y = Int32Array.of(1, 0, 1);
  assert.ok(Math.abs(separateOneClasswiseEce(p, y, { bins: 2, reduction: 'sum' }) - 1) < 1e-15);
  assert.ok(Math.abs(separateOneClasswiseEce(p, y, { bins: 2 }) - 0.5) < 1e-15);
  // With 1.0 in the last bin instead (the default '[l,u)' classwise ECE), class 1's bin (0.5, 1, 1) pools:
  // |2.5 − 2| / 3 → class 1 = 1/6, class 0 = 1/3 + 1/6 → mean 1/3: the separate bin changes the value.
  assert.ok(Math.abs(classwiseCalibrationError(p, y, { bins: 2, convention: '[l,u)' }) - 1 / 3) < 1e-15);
  assert.throws(() => separateOneClasswiseEce(p, y, { reduction: 'max' as never }), /reduction/);
});
