import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';
import { ScratchPool } from '../numeric/scratch-pool.js';
import { WEIGHTS_REFUSED_RANK } from '../weighted/weighted-context.js';
import type { MetricContext } from '../record/metric-context.js';

/**
 * Selective prediction (Geifman & El-Yaniv 2017): accept the k most confident of N predictions; coverage
 * k/N, selective risk R_k = (errors among the accepted)/k. Ties in confidence cannot be ordered, so the errors
 * of a tie group are spread evenly over its positions (the expectation over random orders of the tie; with
 * distinct confidences this is the plain sorted order, as in TorchUncertainty's `AURC`).
 * - AURC = ∫ R dcov by the trapezoid rule over the points k/N, k = 1..N, divided by (1 − 1/N) as in
 *   TorchUncertainty (metrics/classification/risk_coverage.py) — i.e. the mean of the N − 1 trapezoids.
 * - E-AURC (Geifman et al. 2019) = AURC − AURC*, AURC* that of an oracle ranking every error last (same
 *   discretisation, so E-AURC ≥ 0).
 * - AUGRC (Traub et al. 2024, "Overcoming common flaws in the evaluation of selective classification"):
 *   the same integral of the generalised risk (errors among the accepted)/N = R_k · k/N.
 * - risk at coverage x: R_k with k = ⌈N x⌉ (TorchUncertainty `RiskAtxCov`); coverage at risk r: the largest
 *   k/N with R_k ≤ r, 0 when none.
 * Not streaming in O(1) memory: it needs the samples sorted; it reuses the O(N) samples the top-label state
 * keeps (and merges). O(N) after the sort.
 */

/** Cumulative errors E_k among the k most confident, k = 0..N (shape [N + 1]), ties spread evenly. */
export function cumulativeErrors(sorted: SortedTopLabel, pool: ScratchPool = ScratchPool.none): Float64Array {
  const { confidence, correct } = sorted;
  const n = confidence.length;
  const out = pool.float64(n + 1);
  out[0] = 0;
  // Walk from the most confident (end of the ascending order) down, one tie group at a time.
  let k = 0;
  let j = n;
  while (j > 0) {
    let i = j - 1;
    while (i > 0 && confidence[i - 1] === confidence[j - 1]) i--;
    let errors = 0;
    for (let t = i; t < j; t++) errors += 1 - correct[t]!;
    const size = j - i;
    const before = out[k]!;
    for (let t = 1; t <= size; t++) out[k + t] = before + (errors * t) / size;
    k += size;
    j = i;
  }
  return out;
}

/** Risk–coverage curve: coverage k/N and selective risk R_k for k = 1..N (shapes [N]). */
export interface RiskCoverageCurve {
  readonly coverage: Float64Array;
  readonly risk: Float64Array;
}

export function riskCoverageFromSorted(sorted: SortedTopLabel): RiskCoverageCurve {
  const e = cumulativeErrors(sorted);
  const n = e.length - 1;
  const coverage = new Float64Array(n);
  const risk = new Float64Array(n);
  for (let k = 1; k <= n; k++) {
    coverage[k - 1] = k / n;
    risk[k - 1] = e[k]! / k;
  }
  return { coverage, risk };
}

export interface SelectiveMetrics {
  readonly aurc: number;
  readonly eaurc: number;
  readonly augrc: number;
}

/** AURC, E-AURC and AUGRC from sorted top-label samples (NaN for N < 2). */
export function selectiveFromSorted(sorted: SortedTopLabel): SelectiveMetrics {
  return selectiveFromErrors(cumulativeErrors(sorted));
}

/**
 * AURC, E-AURC and AUGRC from the cumulative errors E_k (k = 0..N, `cumulativeErrors`): each the mean of the N − 1
 * trapezoids of its curve over k = 1..N — R_k = E_k/k, the oracle's max(0, k − (N − E_N))/k, and E_k/N — summed
 * in one pass (NaN for N < 2).
 */
export function selectiveFromErrors(e: Float64Array): SelectiveMetrics {
  const n = e.length - 1;
  if (n < 2) return { aurc: Number.NaN, eaurc: Number.NaN, augrc: Number.NaN };
  const firstCorrect = n - e[n]!; // the oracle accepts every correct prediction first
  let risk = e[1]!;
  let oracle = Math.max(0, 1 - firstCorrect);
  let general = e[1]! / n;
  let aurc = 0;
  let optimal = 0;
  let augrc = 0;
  for (let k = 2; k <= n; k++) {
    const ek = e[k]!;
    const r = ek / k;
    const o = Math.max(0, k - firstCorrect) / k;
    const g = ek / n;
    aurc += (risk + r) / 2;
    optimal += (oracle + o) / 2;
    augrc += (general + g) / 2;
    risk = r;
    oracle = o;
    general = g;
  }
  aurc /= n - 1;
  return { aurc, eaurc: aurc - optimal / (n - 1), augrc: augrc / (n - 1) };
}

/** Selective risk at coverage x ∈ (0, 1]: R_k, k = ⌈N x⌉. */
export function riskAtCoverageFromSorted(sorted: SortedTopLabel, coverage: number): number {
  requireNumber('coverage', coverage, { min: 0, exclusiveMin: true, max: 1 });
  return riskAtCoverageFromErrors(cumulativeErrors(sorted), coverage);
}

/** Selective risk at coverage x from the cumulative errors E_k (k = 0..N). */
export function riskAtCoverageFromErrors(e: Float64Array, coverage: number): number {
  const n = e.length - 1;
  const k = Math.max(1, Math.ceil(n * coverage - 1e-9));
  return e[k]! / k;
}

/** Largest coverage k/N whose selective risk R_k ≤ risk (0 when no k qualifies). */
export function coverageAtRiskFromSorted(sorted: SortedTopLabel, risk: number): number {
  requireNumber('risk', risk, { min: 0, max: 1 });
  return coverageAtRiskFromErrors(cumulativeErrors(sorted), risk);
}

/** Largest coverage k/N with R_k ≤ risk from the cumulative errors E_k (k = 0..N). */
export function coverageAtRiskFromErrors(e: Float64Array, risk: number): number {
  const n = e.length - 1;
  for (let k = n; k >= 1; k--) if (e[k]! / k <= risk + 1e-12) return k / n;
  return 0;
}

function sortedInput(confidence: FloatArray, correct: Uint8Array): SortedTopLabel {
  requireTopLabel(confidence, correct);
  if (confidence.length < 1) invalidArgument('confidence', 'at least one sample', '0 samples');
  return sortTopLabel(confidence, correct);
}

/** Risk–coverage curve of confidences c [N] and correctness a [N]. */
export function riskCoverageCurve(confidence: FloatArray, correct: Uint8Array): RiskCoverageCurve {
  return riskCoverageFromSorted(sortedInput(confidence, correct));
}

/** AURC, E-AURC and AUGRC of confidences c [N] and correctness a [N]. */
export function selectivePredictionMetrics(confidence: FloatArray, correct: Uint8Array): SelectiveMetrics {
  return selectiveFromSorted(sortedInput(confidence, correct));
}

/** Selective risk at coverage x of confidences c [N] and correctness a [N]. */
export function riskAtCoverage(confidence: FloatArray, correct: Uint8Array, coverage: number): number {
  return riskAtCoverageFromSorted(sortedInput(confidence, correct), coverage);
}

/** Largest coverage at which the selective risk is at most `risk`. */
export function coverageAtRisk(confidence: FloatArray, correct: Uint8Array, risk: number): number {
  return coverageAtRiskFromSorted(sortedInput(confidence, correct), risk);
}

/** E_k of the top-label samples, once per compute (AURC, E-AURC, AUGRC, risk at 80 %, coverage at 5 % read it). */
function topLabelErrors(context: MetricContext): Float64Array {
  return context.shared('risk-coverage-errors', () => cumulativeErrors(context.sorted(), context.scratch)); // kept, not given back
}

function topLabelSelective(context: MetricContext): SelectiveMetrics {
  return context.shared('risk-coverage', () => selectiveFromErrors(topLabelErrors(context)));
}

export const aurcMetric = defineMetric({
  key: 'aurc',
  label: 'AURC (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  nullable: true,
  description: 'area under the risk–coverage curve (Geifman & El-Yaniv 2017; TorchUncertainty normalisation)',
  compute: (context) => topLabelSelective(context).aurc,
});

export const eaurcMetric = defineMetric({
  key: 'eaurc',
  label: 'E-AURC (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  nullable: true,
  description: 'excess AURC over an oracle ranking errors last (Geifman et al. 2019)',
  compute: (context) => topLabelSelective(context).eaurc,
});

export const augrcMetric = defineMetric({
  key: 'augrc',
  label: 'AUGRC (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  nullable: true,
  description: 'area under the generalised risk–coverage curve (Traub et al. 2024)',
  compute: (context) => topLabelSelective(context).augrc,
});

export const riskAt80Coverage = defineMetric({
  key: 'risk_at_80cov',
  label: 'risk at 80% coverage (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  description: 'error rate among the 80 % most confident predictions (TorchUncertainty RiskAt80Cov)',
  compute: (context) => riskAtCoverageFromErrors(topLabelErrors(context), 0.8),
});

export const coverageAt5Risk = defineMetric({
  key: 'cov_at_5risk',
  label: 'coverage at 5% risk (%)',
  percent: true,
  better: 'higher',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  description: 'largest coverage whose selective risk is at most 5 % (TorchUncertainty CovAt5Risk; 0 if none)',
  compute: (context) => coverageAtRiskFromErrors(topLabelErrors(context), 0.05),
});
