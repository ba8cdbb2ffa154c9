import type { AdaptiveScheme } from '../binned/adaptive-ece.js';
import { argsortStable } from '../numeric/argsort.js';
import type { BinSums } from '../binned/bin-statistics.js';
import { CompensatedSum } from '../numeric/compensated-sum.js';
import type { MarginalBinning } from '../binned/marginal-ece.js';
import type { BinConvention } from '../binned/reliability-types.js';
import { weightedClasswiseBinSums, weightedEqualMassBinSums, weightedEqualWidthBinSums } from './weighted-bin-sums.js';

/**
 * What a metric's weighted compute (`MetricDefinition.weighted`) reads: the rows' top-label confidence c_i and
 * correctness a_i with weights w_i ≥ 0 (W = Σ w_i), the weighted means Σ w x / W, the weighted equal-width and
 * equal-mass top-label bins (bins hold weight sums, weighted-bin-sums.ts) and, for whole rows, the per-row NLL,
 * Brier and entropy and the weighted classwise bins. Bins are built on first use and shared by every metric.
 */
export interface WeightedContext {
  /** W = Σ w_i. */
  readonly weightSum: number;
  readonly bins: number;
  readonly convention: BinConvention;
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  readonly weights: Float64Array;
  /** Σ w_i x_i / W over a per-row column (compensated summation, weight-0 rows skipped). */
  mean(x: ArrayLike<number>): number;
  /** Weighted equal-width top-label bins (`bins`, `convention`). */
  equalWidth(): BinSums;
  /** Weighted equal-mass top-label bins (`bins`). */
  equalMass(): BinSums;
  /** The whole rows; throws for top-label results (a metric of scope 'rows' is never asked there). */
  rows(): WeightedRows;
  /** Weighted equal-width bins of every class probability p_k against 1[y = k], one per class. */
  classwise(): readonly BinSums[];
}

/** Per-row results of whole prediction rows (the accumulator's kernels), for weighted metrics of scope 'rows'. */
export interface WeightedRows {
  readonly classes: number;
  readonly nll: Float64Array;
  readonly brier: Float64Array;
  readonly entropy: Float64Array;
  /** N × C, row-major. */
  readonly probabilities: Float64Array;
  readonly labels: Int32Array;
}

/** The settings a weighted metric may refuse (a `CalibrationOptions` subset). */
export interface WeightSettings {
  readonly adaptive?: AdaptiveScheme;
  readonly marginalBinning?: MarginalBinning;
  readonly marginalDebias?: boolean;
}

/** Σ w x / W in compensated summation, skipping weight-0 rows. */
export function weightedMean(x: ArrayLike<number>, w: Float64Array, total: number): number {
  const s = new CompensatedSum();
  for (let i = 0; i < w.length; i++) if (w[i]! !== 0) s.add(w[i]! * x[i]!);
  return s.value / total;
}

/** The weighted context of top-label samples (and of whole rows when `rows` is given), with Σ w² for Kish's N. */
export function weightedContext(
  confidence: Float64Array,
  correct: Uint8Array,
  weights: Float64Array,
  bins: number,
  convention: BinConvention,
  rows?: WeightedRows,
): WeightedContext & { readonly squareSum: number } {
  const total = new CompensatedSum();
  const squares = new CompensatedSum();
  for (let i = 0; i < weights.length; i++) (total.add(weights[i]!), squares.add(weights[i]! * weights[i]!));
  const W = total.value;
  const widths = weightedEqualWidthBinSums(confidence, correct, weights, bins, convention);
  let masses: BinSums | undefined;
  let perClass: BinSums[] | undefined;
  const wholeRows = (): WeightedRows => {
    if (rows === undefined) throw new Error('weightedContext: this metric needs whole prediction rows, not top-label results');
    return rows;
  };
  return {
    weightSum: W,
    squareSum: squares.value,
    bins,
    convention,
    confidence,
    correct,
    weights,
    mean: (x) => weightedMean(x, weights, W),
    equalWidth: () => widths,
    equalMass: () => (masses ??= weightedEqualMassBinSums(confidence, correct, weights, argsortStable(confidence), W, bins)),
    rows: wholeRows,
    classwise: () => {
      const r = wholeRows();
      return (perClass ??= weightedClasswiseBinSums(r.probabilities, r.labels, weights, r.classes, bins, convention));
    },
  };
}

/** Why rank-based metrics refuse sample weights (`MetricDefinition.weighted.refused`). */
export const WEIGHTS_REFUSED_RANK = 'it ranks the samples by confidence (selective prediction / error detection); weights are not defined for it';

/** Why test statistics and p-values refuse sample weights. */
export const WEIGHTS_REFUSED_TEST = 'a test statistic or p-value assumes N independent unweighted samples; weights do not define a sample size';

/** The refusal of the equal-mass (AdaECE) metrics: weighted only with the 'equal-mass' scheme. */
export function equalMassOnly(settings: WeightSettings): string | null {
  return (settings.adaptive ?? 'equal-mass') !== 'equal-mass' ? "the 'interp' scheme is not implemented with sample weights (use 'equal-mass')" : null;
}
