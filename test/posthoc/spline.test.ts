import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitSpline, fitSplineTable, interpolateTable } from '../../src/posthoc/nonparametric/spline.js';
import { calibratorFromJSON } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, loadCalibrators12Reference, mat, splits } from './helpers.js';

test('spline calibration: the recalibration table equals kartikgupta-at-anu/spline-calibration (natural and parabolic run-out)', () => {
  const ref = loadCalibrators12Reference().spline;
  for (const runout of ['natural', 'parabolic'] as const) {
    const t = fitSplineTable(Float64Array.from(ref.scores), Float64Array.from(ref.outcomes), ref.knots, runout);
    assertClose(t.scores, ref[runout].scores, 0, 0, `${runout} scores`);
    assertClose(t.values, ref[runout].values, 1e-10, 0, `${runout} values`);
  }
});

test('spline calibration by hand: perfectly calibrated cumulative curves give back the scores; interpolation is linear', () => {
  // If a_(i) − c_(i) sums to a curve a cubic spline fits exactly (here 0), g_i = c_(i).
  const s = Float64Array.from({ length: 50 }, (_, i) => 0.5 + i / 100);
  const t = fitSplineTable(s, s, 6, 'natural'); // outcomes equal to the scores: y ≡ 0
  assertClose(t.values, s, 1e-12, 0, 'identity');
  assert.equal(interpolateTable(Float64Array.of(0.2, 0.6), Float64Array.of(0.1, 0.5), 0.5), 0.4);
  assert.equal(interpolateTable(Float64Array.of(0.2, 0.6), Float64Array.of(0.1, 0.5), 0.9), 0.5);
});

test('spline calibration lowers an overconfident model, keeps rows summing to 1 and round-trips through JSON', () => {
  const { val, test: t } = splits(4, 2000);
  const cal = fitSpline(val.input, val.labels);
  const out = cal.apply(t.input);
  assertProbabilityRows(out);
  assert.deepEqual(calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).apply(t.input).data, out.data);
  assert.throws(() => fitSpline({ probabilities: mat(1, 2, [0.5, 0.5]) }, Int32Array.of(0)), /at least 2/);
});
