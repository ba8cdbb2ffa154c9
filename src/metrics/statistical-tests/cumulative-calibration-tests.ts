import { ksFromSorted } from './ks-error.js';
import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import type { TestResult } from './spiegelhalter-test.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';
import { WEIGHTS_REFUSED_TEST } from '../weighted/weighted-context.js';
import type { MetricContext } from '../record/metric-context.js';

/**
 * Calibration tests on the cumulative differences of Arrieta-Ibarra, Gujral, Tannen, Tygert & Xu 2022
 * ("Metrics of calibration for probabilistic predictions", JMLR 23; code facebookresearch/ecevecce): with the
 * samples sorted by forecast s_i (outcomes r_i), C_k = (1/n) Σ_{j≤k} (r_j − s_j), C_0 = 0;
 *   ECCE-MAD (Kolmogorov–Smirnov) = max_k |C_k|   (the `ks` metric, ksFromSorted),
 *   ECCE-R (Kuiper)                = max_k C_k − min_k C_k,
 * each divided by σ = √(Σ s_j (1 − s_j)) / n. Under perfect calibration the scaled statistics tend to the
 * maximum of |B| and the range of a standard Brownian motion B on [0, 1]; p-values are the upper tails of
 * those laws (series of ecevecce's `codes/dists.py`, summed to machine precision). C is evaluated at every
 * sorted position (ties in input order, as in `ks`). Needs the sorted samples (kept by the top-label state).
 */

/** P(max_{t∈[0,1]} |B_t| ≤ x) = (4/π) Σ_k (−1)^k/(2k+1) exp(−(2k+1)²π²/(8x²)). */
export function brownianMaxAbsCdf(x: number): number {
  if (!(x > 0)) return 0;
  let c = 0;
  for (let k = 0; k < 100000; k++) {
    const h = k + 0.5;
    const term = Math.exp((-h * h * Math.PI * Math.PI) / (2 * x * x)) / h;
    c += k % 2 === 0 ? term : -term;
    if (term < 1e-17 * Math.abs(c)) break;
  }
  return Math.min(1, Math.max(0, (2 / Math.PI) * c));
}

/** P(range of B on [0,1] ≤ x) = Σ_k (8/x² + 2/(π²(k+½)²)) exp(−2(k+½)²π²/x²). */
export function brownianRangeCdf(x: number): number {
  if (!(x > 0)) return 0;
  let c = 0;
  for (let k = 0; k < 100000; k++) {
    const h = k + 0.5;
    const term = (8 / (x * x) + 2 / (h * h * Math.PI * Math.PI)) * Math.exp((-2 * h * h * Math.PI * Math.PI) / (x * x));
    c += term;
    if (term < 1e-17 * c) break;
  }
  return Math.min(1, Math.max(0, c));
}

export interface CumulativeTests {
  /** ECCE-MAD scaled by σ, and its p-value. */
  readonly ks: TestResult;
  /** ECCE-R (unscaled), the Kuiper statistic scaled by σ, and its p-value. */
  readonly kuiper: TestResult & { readonly range: number };
}

/** Upper tail 1 − F(x), for x > 0; 1 when σ = 0 makes the statistic undefined. */
function tail(cdf: (x: number) => number, x: number): number {
  return Number.isFinite(x) ? 1 - cdf(x) : Number.NaN;
}

export function cumulativeTestsFromSorted(sorted: SortedTopLabel): CumulativeTests {
  const { confidence, correct } = sorted;
  const n = confidence.length;
  let sum = 0;
  let variance = 0;
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < n; i++) {
    const s = confidence[i]!;
    sum += correct[i]! - s;
    variance += s * (1 - s);
    const c = sum / n;
    if (c > hi) hi = c;
    if (c < lo) lo = c;
  }
  const sigma = Math.sqrt(variance) / n;
  const ksScaled = sigma > 0 ? ksFromSorted(sorted) / sigma : Number.NaN;
  const range = hi - lo;
  const kuiperScaled = sigma > 0 ? range / sigma : Number.NaN;
  return {
    ks: { statistic: ksScaled, pValue: tail(brownianMaxAbsCdf, ksScaled) },
    kuiper: { range, statistic: kuiperScaled, pValue: tail(brownianRangeCdf, kuiperScaled) },
  };
}

/** KS and Kuiper calibration tests of forecasts s [N] in [0, 1] and outcomes r [N] ∈ {0, 1}. */
export function cumulativeCalibrationTests(s: FloatArray, r: Uint8Array): CumulativeTests {
  requireTopLabel(s, r, 's');
  if (s.length === 0) invalidArgument('s', 'at least one sample', '0 samples');
  return cumulativeTestsFromSorted(sortTopLabel(s, r));
}

function topLabelCumulative(context: MetricContext): CumulativeTests {
  return context.shared('cumulative-tests', () => cumulativeTestsFromSorted(context.sorted()));
}

export const ksPValue = defineMetric({
  key: 'ks_p',
  label: 'KS test p-value',
  percent: false,
  better: 'none',
  weighted: { refused: WEIGHTS_REFUSED_TEST },
  scope: 'top-label',
  nullable: true,
  description: 'p-value of the KS error scaled by σ (max |Brownian motion|; Arrieta-Ibarra et al. 2022)',
  compute: (context) => topLabelCumulative(context).ks.pValue,
});

export const kuiperMetric = defineMetric({
  key: 'kuiper',
  label: 'Kuiper ECCE-R (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_TEST },
  scope: 'top-label',
  description: 'range of the cumulative calibration differences, ECCE-R (Arrieta-Ibarra et al. 2022)',
  compute: (context) => topLabelCumulative(context).kuiper.range,
});

export const kuiperPValue = defineMetric({
  key: 'kuiper_p',
  label: 'Kuiper test p-value',
  percent: false,
  better: 'none',
  weighted: { refused: WEIGHTS_REFUSED_TEST },
  scope: 'top-label',
  nullable: true,
  description: 'p-value of ECCE-R scaled by σ (range of a Brownian motion; Arrieta-Ibarra et al. 2022)',
  compute: (context) => topLabelCumulative(context).kuiper.pValue,
});
