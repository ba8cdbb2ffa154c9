import { requireTopLabel } from '../validation.js';
import { normalUpperTail } from './normal-tail.js';
import { invalidArgument } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';
import { WEIGHTS_REFUSED_TEST } from '../weighted/weighted-context.js';
import type { MetricContext } from '../record/metric-context.js';

/**
 * Spiegelhalter's Z test of calibration (Spiegelhalter 1986, "Probabilistic prediction in patient management
 * and clinical trials", Stat. Med. 5): for forecasts p_i of binary outcomes y_i,
 *   Z = Σ (y_i − p_i)(1 − 2 p_i) / √(Σ (1 − 2 p_i)² p_i (1 − p_i)),
 * asymptotically N(0, 1) under perfect calibration; p-value two-sided, 2 Q(|Z|). Top-label use: p = c_i,
 * y = a_i. Streaming and mergeable: three running sums. Z is NaN (p-value NaN) when every p_i ∈ {0, ½, 1}
 * (zero variance).
 */
export interface SpiegelhalterSums {
  /** Σ (y − p)(1 − 2p). */
  numerator: number;
  /** Σ (1 − 2p)² p (1 − p). */
  variance: number;
}

/** Add samples p [N], y [N] into running sums (mergeable by adding the fields). */
export function addSpiegelhalter(sums: SpiegelhalterSums, p: FloatArray, y: ArrayLike<number>): SpiegelhalterSums {
  for (let i = 0; i < p.length; i++) {
    const pi = p[i]!;
    const w = 1 - 2 * pi;
    sums.numerator += (y[i]! - pi) * w;
    sums.variance += w * w * pi * (1 - pi);
  }
  return sums;
}

export interface TestResult {
  readonly statistic: number;
  readonly pValue: number;
}

/** Z and its two-sided p-value from the sums. */
export function spiegelhalterFromSums(sums: SpiegelhalterSums): TestResult {
  if (!(sums.variance > 0)) return { statistic: Number.NaN, pValue: Number.NaN };
  const z = sums.numerator / Math.sqrt(sums.variance);
  return { statistic: z, pValue: Math.min(1, 2 * normalUpperTail(Math.abs(z))) };
}

/** Spiegelhalter's Z of forecasts p [N] in [0, 1] and outcomes y [N] ∈ {0, 1}. */
export function spiegelhalterTest(p: FloatArray, y: Uint8Array): TestResult {
  requireTopLabel(p, y, 'p');
  if (p.length === 0) invalidArgument('p', 'at least one sample', '0 samples');
  return spiegelhalterFromSums(addSpiegelhalter({ numerator: 0, variance: 0 }, p, y));
}

function topLabelSpiegelhalter(context: MetricContext): TestResult {
  return context.shared('spiegelhalter', () => {
    const { confidence, correct } = context.top.views();
    return spiegelhalterFromSums(addSpiegelhalter({ numerator: 0, variance: 0 }, confidence, correct));
  });
}

export const spiegelhalterZ = defineMetric({
  key: 'spiegelhalter_z',
  label: "Spiegelhalter's Z",
  percent: false,
  better: 'none',
  weighted: { refused: WEIGHTS_REFUSED_TEST },
  scope: 'top-label',
  nullable: true,
  description: "Spiegelhalter's Z statistic of the confidences (≈ N(0, 1) if calibrated; Spiegelhalter 1986)",
  compute: (context) => topLabelSpiegelhalter(context).statistic,
});

export const spiegelhalterP = defineMetric({
  key: 'spiegelhalter_p',
  label: "Spiegelhalter's p-value",
  percent: false,
  better: 'none',
  weighted: { refused: WEIGHTS_REFUSED_TEST },
  scope: 'top-label',
  nullable: true,
  description: "two-sided p-value of Spiegelhalter's Z",
  compute: (context) => topLabelSpiegelhalter(context).pValue,
});
