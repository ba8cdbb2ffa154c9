import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitIsotonicCalibrator, isotonicFromJSON } from '../../src/posthoc/nonparametric/isotonic.js';
import { fitIsotonic, predictIsotonic } from '../../src/posthoc/nonparametric/isotonic-regression.js';
import { pav } from '../../src/util/pav.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { assertClose, assertProbabilityRows, lcg, loadReference, mat } from './helpers.js';

/** Isotonic regression by the max–min formula f_i = max_{j ≤ i} min_{k ≥ i} mean(y_j … y_k) (weighted). */
function maxMin(y: number[], w: number[]): number[] {
  const n = y.length;
  return y.map((_, i) => {
    let best = -Infinity;
    for (let j = 0; j <= i; j++) {
      let worst = Infinity;
      for (let k = i; k < n; k++) {
        let sw = 0;
        let sy = 0;
        for (let t = j; t <= k; t++) {
          sw += w[t]!;
          sy += w[t]! * y[t]!;
        }
        worst = Math.min(worst, sy / sw);
      }
      best = Math.max(best, worst);
    }
    return best;
  });
}

test('PAV equals the max–min formula of isotonic regression on random weighted data', () => {
  const r = lcg(21);
  for (let trial = 0; trial < 20; trial++) {
    const n = 1 + Math.floor(r() * 25);
    const y = Array.from({ length: n }, () => Math.round(r() * 4) / 4);
    const w = Array.from({ length: n }, () => 0.5 + Math.floor(r() * 3));
    assertClose(pav(Float64Array.from(y), Float64Array.from(w)), maxMin(y, w), 1e-12, 0, `trial ${trial}`);
  }
});

test('1-D isotonic regression reproduces scikit-learn IsotonicRegression(out_of_bounds="clip"), ties included', () => {
  for (const [c, ref] of (loadReference().isotonic as any[]).entries()) {
    const fit = fitIsotonic(Float64Array.from(ref.x), Float64Array.from(ref.y));
    assert.deepEqual(Array.from(fit.x), ref.thresholdsX, `case ${c}: thresholds x`);
    assertClose(fit.y, ref.thresholdsY, 1e-15, 0, `case ${c}: thresholds y`);
    assertClose(
      ref.queries.map((q: number) => predictIsotonic(fit, q)),
      ref.predictions,
      1e-15,
      0,
      `case ${c}: predictions`,
    );
  }
});

test('isotonic regression handles a single point and all-equal inputs as a constant', () => {
  const one = fitIsotonic(Float64Array.of(0.3), Float64Array.of(1));
  assert.equal(predictIsotonic(one, 0), 1);
  assert.equal(predictIsotonic(one, 0.9), 1);
  const same = fitIsotonic(Float64Array.of(0.5, 0.5, 0.5, 0.5), Float64Array.of(1, 0, 0, 1));
  assert.deepEqual(Array.from(same.x), [0.5]);
  assert.equal(predictIsotonic(same, 0.1), 0.5);
});

test('one-vs-rest isotonic calibration matches per-class scikit-learn fits renormalised', () => {
  const ref = loadReference().isotonicCalibrator;
  const C = ref.classes;
  const cal = fitIsotonicCalibrator({ probabilities: mat(ref.labels.length, C, ref.probabilities) }, Int32Array.from(ref.labels));
  const out = cal.apply({ probabilities: mat(ref.testProbabilities.length / C, C, ref.testProbabilities) });
  assertClose(out.data, ref.expected, 1e-15, 1e-15, 'isotonic calibrator');
  assertProbabilityRows(out);
  const back = isotonicFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
  assert.deepEqual(back.apply({ probabilities: mat(ref.testProbabilities.length / C, C, ref.testProbabilities) }), out);
});

test('isotonic JSON is validated: decreasing values are rejected with the field named', () => {
  const cal = fitIsotonicCalibrator({ probabilities: mat(4, 2, [0.9, 0.1, 0.6, 0.4, 0.3, 0.7, 0.2, 0.8]) }, Int32Array.of(0, 1, 1, 1));
  const json = JSON.parse(JSON.stringify(cal.toJSON()));
  json.thresholds[1].y = json.thresholds[1].y.map((_: number, i: number) => 1 - i * 0.1);
  assert.throws(
    () => isotonicFromJSON(json),
    (e: unknown) => e instanceof InvalidArgumentError && /json\.thresholds\[1\]\.y\[1\]/.test(e.message),
  );
});
