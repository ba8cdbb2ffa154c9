import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { smoothEce, SmoothEceEvaluator } from '../../src/metrics/smooth/smooth-ece.js';
import { smoothedReliability } from '../../src/metrics/smooth/smoothed-reliability.js';
import { mmce } from '../../src/metrics/smooth/mmce.js';
import { spiegelhalterTest } from '../../src/metrics/statistical-tests/spiegelhalter-test.js';
import { corpDecomposition } from '../../src/metrics/corp-decomposition.js';
import { selectivePredictionMetrics } from '../../src/metrics/selective/risk-coverage.js';
import { errorFprAtTpr } from '../../src/metrics/selective/fpr-at-tpr.js';
import { brownianMaxAbsCdf, brownianRangeCdf } from '../../src/metrics/statistical-tests/cumulative-calibration-tests.js';
import { calibrationCurve } from '../../src/metrics/binned/calibration-curve.js';
import { close } from './helpers.js';

// Reference values produced by relplot (apple/ml-calibration), ecevecce's dists.py, scikit-learn and numpy:
// test/fixtures/scripts/make-metrics12-fixtures.py → test/fixtures/metrics/metrics12-reference.json.
interface Case {
  name: string;
  f: number[];
  y: number[];
  smooth_ece: number;
  smooth_ece_bandwidth: number;
  'smooth_ece_at_0.05': number;
  'smooth_ece_at_0.003': number;
  smoothed_mu: number[];
  mmce: number;
  spiegelhalter: [number, number];
  corp: { score: number; mcb: number; dsc: number; unc: number };
  fpr95: number;
  aurc?: number;
  eaurc?: number;
  augrc?: number;
  calibration_curve_uniform: { prob_true: number[]; prob_pred: number[] };
  calibration_curve_quantile: { prob_true: number[]; prob_pred: number[] };
}
const path = fileURLToPath(new URL('../../../test/fixtures/metrics/metrics12-reference.json', import.meta.url));
const fixture = JSON.parse(readFileSync(path, 'utf8')) as { cases: Case[]; brownian_pvalues: { x: number; ks: number; kuiper: number }[] };

for (const c of fixture.cases) {
  const f = Float64Array.from(c.f);
  const y = Uint8Array.from(c.y);
  const rel = (x: number, tol: number): number => tol * Math.max(1e-3, Math.abs(x));

  test(`${c.name}: smooth ECE and its bandwidth equal relplot's smECE`, () => {
    const r = smoothEce(f, y);
    close(r.bandwidth, c.smooth_ece_bandwidth, 1e-15, 'bandwidth');
    close(r.value, c.smooth_ece, rel(c.smooth_ece, 1e-9), 'smECE');
    const e = new SmoothEceEvaluator(f, y);
    close(e.at(0.05), c['smooth_ece_at_0.05'], rel(c['smooth_ece_at_0.05'], 1e-9), 'smECE at 0.05');
    close(e.at(0.003), c['smooth_ece_at_0.003'], rel(c['smooth_ece_at_0.003'], 1e-9), 'smECE at 0.003');
  });

  test(`${c.name}: the smoothed reliability curve equals relplot's kernel smoother`, () => {
    const d = smoothedReliability(f, y, { resamples: 20, seed: 1 });
    assert.equal(d.mu.length, c.smoothed_mu.length);
    for (let j = 0; j < d.mu.length; j++) close(d.mu[j]!, c.smoothed_mu[j]!, 1e-9, `mu[${j}]`);
    for (let j = 0; j < d.mu.length; j++) assert.ok(d.lower[j]! <= d.upper[j]!);
  });

  test(`${c.name}: MMCE, Spiegelhalter, CORP and FPR95 equal the numpy / scikit-learn references`, () => {
    close(mmce(f, y), c.mmce, 1e-12, 'mmce');
    const z = spiegelhalterTest(f, y);
    close(z.statistic, c.spiegelhalter[0], 1e-10, 'Z');
    close(z.pValue, c.spiegelhalter[1], 3e-7 * c.spiegelhalter[1] + 1e-15, 'p');
    const d = corpDecomposition(f, y);
    for (const k of ['score', 'mcb', 'dsc', 'unc'] as const) close(d[k], c.corp[k], 1e-12, `corp ${k}`);
    close(errorFprAtTpr(f, y), c.fpr95, 1e-15, 'fpr95');
  });

  if (c.aurc !== undefined) {
    test(`${c.name}: AURC, E-AURC, AUGRC equal TorchUncertainty's formulas on distinct confidences`, () => {
      const m = selectivePredictionMetrics(f, y);
      close(m.aurc, c.aurc!, 1e-12, 'aurc');
      close(m.eaurc, c.eaurc!, 1e-12, 'eaurc');
      close(m.augrc, c.augrc!, 1e-12, 'augrc');
    });
  }

  test(`${c.name}: reliability bins equal scikit-learn's calibration_curve (uniform and quantile)`, () => {
    for (const strategy of ['uniform', 'quantile'] as const) {
      const curve = calibrationCurve(f, y, { bins: 10, strategy });
      const ref = c[`calibration_curve_${strategy}`];
      assert.equal(curve.fractionPositive.length, ref.prob_true.length, strategy);
      for (let b = 0; b < ref.prob_true.length; b++) {
        close(curve.fractionPositive[b]!, ref.prob_true[b]!, 1e-12, `${strategy} prob_true[${b}]`);
        close(curve.meanPredicted[b]!, ref.prob_pred[b]!, 1e-12, `${strategy} prob_pred[${b}]`);
      }
    }
  });
}

test("Brownian-motion p-values equal ecevecce's kolmogorov_smirnov and kuiper", () => {
  for (const { x, ks, kuiper } of fixture.brownian_pvalues) {
    close(1 - brownianMaxAbsCdf(x), ks, 1e-13, `KS tail at ${x}`);
    close(1 - brownianRangeCdf(x), kuiper, 1e-13, `Kuiper tail at ${x}`);
  }
});
