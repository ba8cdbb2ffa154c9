import type { BinConvention, ReliabilityData } from './reliability-types.js';
import { argsortStable } from './argsort.js';
import { type BinSums, binnedCalibrationError, binnedErrorPower, maximumBinGap, overconfidenceFromBins } from './bin-statistics.js';
import { CalibrationAccumulator, type CalibrationOptions } from './calibration-accumulator.js';
import { CompensatedSum } from './compensated-sum.js';
import type { RowBlock } from './metric-definition.js';
import { METRIC_NAMES, type MetricName } from './metric-registry.js';
import { reliabilityFromBinSums } from './reliability-diagram.js';
import { requireSampleWeights } from './sample-weights.js';
import { weightedClasswiseBinSums, weightedEqualMassBinSums, weightedEqualWidthBinSums } from './weighted-bin-sums.js';
import type { TopLabelOptions } from './top-label-accumulator.js';
import { type Labels, requireTopLabel } from './validation.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { FloatArray, Matrix } from '../util/matrix.js';

/** The weighted metrics of the top label alone (confidence and correctness; `evaluateWeightedTopLabel`). */
export const WEIGHTED_TOP_LABEL_NAMES = ['accuracy', 'ece', 'ece_l2', 'adaece', 'adaece_l2', 'mce', 'oe', 'ks', 'mean_confidence'] as const satisfies readonly MetricName[];

/** The weighted metrics that need the whole rows (probabilities and labels). */
const WEIGHTED_ROW_NAMES = ['nll', 'brier', 'classwise_ece', 'marginal_ece', 'mean_entropy'] as const satisfies readonly MetricName[];

export type WeightedMetricName = (typeof WEIGHTED_TOP_LABEL_NAMES)[number] | (typeof WEIGHTED_ROW_NAMES)[number];

/** The metrics defined with sample weights (weighted-evaluate.ts), in table order. */
export const WEIGHTED_METRIC_NAMES: readonly WeightedMetricName[] = Object.freeze(
  METRIC_NAMES.filter((name): name is WeightedMetricName => (WEIGHTED_TOP_LABEL_NAMES as readonly string[]).includes(name) || (WEIGHTED_ROW_NAMES as readonly string[]).includes(name)),
);

export type WeightedTopLabelName = (typeof WEIGHTED_TOP_LABEL_NAMES)[number];

const RANK_BASED = 'it ranks the samples by confidence (selective prediction / error detection); weights are not defined for it';
const TEST = 'a test statistic or p-value assumes N independent unweighted samples; weights do not define a sample size';
const NOT_IMPLEMENTED = 'not implemented with sample weights yet';

/**
 * Why a metric refuses sample weights by definition; every other metric of `METRICS` outside
 * `WEIGHTED_METRIC_NAMES` is "not implemented with sample weights yet" (so a new metric needs no entry here).
 */
const REFUSED: Readonly<Partial<Record<Exclude<MetricName, WeightedMetricName>, string>>> = {
  debiased_ece: 'a debiased estimator: its bias correction assumes N independent unweighted samples',
  ks_p: TEST,
  kuiper: TEST,
  kuiper_p: TEST,
  spiegelhalter_z: TEST,
  spiegelhalter_p: TEST,
  error_auroc: RANK_BASED,
  aurc: RANK_BASED,
  eaurc: RANK_BASED,
  augrc: RANK_BASED,
  risk_at_80cov: RANK_BASED,
  cov_at_5risk: RANK_BASED,
  fpr95: RANK_BASED,
};

/**
 * Why metric `name` cannot be computed with sample weights under `options` (null when it can): rank-based
 * metrics, debiased estimators and tests refuse by definition; some well-defined ones are not implemented yet;
 * `marginal_ece` is weighted only as the plug-in estimator over equal-width bins (`marginalDebias: false`), and
 * `adaece`/`adaece_l2` only with the 'equal-mass' scheme.
 */
export function weightRefusal(name: MetricName, options: Pick<CalibrationOptions, 'adaptive' | 'marginalBinning' | 'marginalDebias'> = {}): string | null {
  if (name === 'marginal_ece') {
    if ((options.marginalDebias ?? true) !== false)
      return 'the debiased estimator assumes N independent unweighted samples (marginalDebias: false gives the weighted plug-in estimator)';
    if ((options.marginalBinning ?? 'equal-width') !== 'equal-width') return 'equal-mass marginal bins are not implemented with sample weights';
    return null;
  }
  if ((name === 'adaece' || name === 'adaece_l2') && (options.adaptive ?? 'equal-mass') !== 'equal-mass')
    return "the 'interp' scheme is not implemented with sample weights (use 'equal-mass')";
  if ((WEIGHTED_METRIC_NAMES as readonly string[]).includes(name)) return null;
  if (!(METRIC_NAMES as readonly string[]).includes(name)) invalidArgument('metric', `one of ${METRIC_NAMES.join(', ')}`, describe(name));
  return (REFUSED as Record<string, string | undefined>)[name] ?? NOT_IMPLEMENTED;
}

export interface WeightedOptions extends CalibrationOptions {
  /**
   * The metrics to compute (default: every metric that `weightRefusal` accepts under these options). A metric
   * that refuses weights throws InvalidArgumentError naming it and why.
   */
  readonly metrics?: readonly MetricName[];
}

/** The weighted metrics (only those requested), with the settings and the weight total. */
export interface WeightedMetrics extends WeightedTopLabelMetrics {
  readonly values: Partial<Record<WeightedMetricName, number>>;
  readonly classes: number;
}

/** The weighted top-label metrics (only those requested), with the settings and the weight total. */
export interface WeightedTopLabelMetrics {
  readonly values: Partial<Record<WeightedMetricName, number>>;
  /** Rows N (weight-0 rows included). */
  readonly n: number;
  /** W = Σ w_i. */
  readonly weightSum: number;
  /** Kish's effective sample size (Σ w)² / Σ w². */
  readonly effectiveN: number;
  readonly bins: number;
  readonly convention: BinConvention;
  /** Weighted reliability data of the top-label equal-width bins (`count` = bin weight, `total` = W). */
  readonly reliability: ReliabilityData;
}

/**
 * Sample-weighted calibration metrics (scikit-learn's `sample_weight`) for predictions N × C (logits or
 * probabilities, as `evaluate`) with labels [N] and weights [N] (finite, ≥ 0, not all zero; `requireSampleWeights`).
 * Means become Σ w_i x_i / W (accuracy, NLL, Brier, mean confidence and entropy); bins hold weight sums, so
 * ECE_p = (Σ_m (W_m/W) |Σ_{B_m} w (a − c)/W_m|^p)^{1/p}, ECE = Σ_m |Σ_{i∈B_m} w_i (c_i − a_i)| / W; MCE over bins of
 * positive weight; classwise ECE = Σ_k Σ_m |Σ w (p_k − 1[y = k])| / (C·W); marginal ECE the plug-in ℓ2 one;
 * KS = max_i |Σ_{j≤i} w_j (c_j − a_j)| / W in sorted order; AdaECE over the weighted equal-mass bins of
 * weighted-bin-sums.ts. Integer weights give the metrics of the dataset with row i repeated w_i times and unit
 * weights the unweighted ones (tested to 1e-12). Row results (confidence, NLL, ...) come from the same kernels
 * as `evaluate`; memory O(N·C) (the probabilities are kept for the classwise bins).
 */
export function evaluateWeighted(predictions: Matrix, labels: Labels, weights: ArrayLike<number>, options: WeightedOptions): WeightedMetrics {
  const names = requestedMetrics(options);
  const rowsOf = collectRows(predictions, labels, options);
  const { confidence, correct, classes } = rowsOf;
  const n = confidence.length;
  const w = requireSampleWeights(weights, n, 'weights');
  const bins = options.bins ?? 15;
  const convention = options.convention ?? '(l,u]';
  const top = topLabelComputers(confidence, correct, w, bins, convention);
  const W = top.weightSum;
  const mean = (x: ArrayLike<number>): number => weightedMean(x, w, W);
  let perClass: BinSums[] | undefined;
  const classwise = (): BinSums[] => (perClass ??= weightedClasswiseBinSums(rowsOf.probabilities, rowsOf.labels, w, classes, bins, convention));
  const compute: Record<WeightedMetricName, () => number> = {
    ...top.compute,
    nll: () => mean(rowsOf.nll),
    brier: () => mean(rowsOf.brier),
    classwise_ece: () => {
      let acc = 0;
      for (const sums of classwise()) for (let m = 0; m < bins; m++) acc += Math.abs(sums.sumCorrect[m]! - sums.sumConfidence[m]!);
      return acc / (classes * W);
    },
    marginal_ece: () => {
      let acc = 0;
      for (const sums of classwise()) acc += binnedErrorPower(sums, W, 2);
      return Math.sqrt(acc / classes);
    },
    mean_entropy: () => mean(rowsOf.entropy),
  };
  const values: Partial<Record<WeightedMetricName, number>> = {};
  for (const name of names) values[name] = compute[name]();
  return { ...top.summary(values), classes };
}

/**
 * Sample-weighted metrics of top-label results only — confidences c [N] in [0, 1] and correctness a [N] (0/1),
 * e.g. from LLM evaluations — with weights [N]: those of `WEIGHTED_TOP_LABEL_NAMES`, by the formulas of
 * `evaluateWeighted`. Requesting one that needs the probability vector (NLL, Brier, classwise ...) or that
 * refuses weights throws InvalidArgumentError naming it.
 */
export function evaluateWeightedTopLabel(
  confidence: FloatArray,
  correct: Uint8Array,
  weights: ArrayLike<number>,
  options: TopLabelOptions & { readonly metrics?: readonly MetricName[] } = {},
): WeightedTopLabelMetrics {
  if (options === null || typeof options !== 'object') invalidArgument('options', 'an options object', describe(options));
  requireTopLabel(confidence, correct);
  for (let i = 0; i < confidence.length; i++)
    if (!(confidence[i]! >= 0 && confidence[i]! <= 1)) invalidArgument('confidence', 'values in [0, 1]', `${describe(confidence[i])} at index ${i}`);
  if (confidence.length === 0) invalidArgument('confidence', 'at least one sample', '0 samples');
  const requested = requestedMetrics(options);
  const names =
    options.metrics === undefined ? requested.filter((m): m is WeightedTopLabelName => (WEIGHTED_TOP_LABEL_NAMES as readonly string[]).includes(m)) : requested;
  for (const name of names)
    if (!(WEIGHTED_TOP_LABEL_NAMES as readonly string[]).includes(name))
      invalidArgument('metrics', 'metrics of the top label', `'${name}', which needs the whole probability vector`);
  const w = requireSampleWeights(weights, confidence.length, 'weights');
  const top = topLabelComputers(Float64Array.from(confidence), correct, w, options.bins ?? 15, options.convention ?? '(l,u]');
  const values: Partial<Record<WeightedMetricName, number>> = {};
  for (const name of names as WeightedTopLabelName[]) values[name] = top.compute[name]();
  return top.summary(values);
}

/** Σ w x / W in compensated summation, skipping weight-0 rows. */
function weightedMean(x: ArrayLike<number>, w: Float64Array, total: number): number {
  const s = new CompensatedSum();
  for (let i = 0; i < w.length; i++) if (w[i]! !== 0) s.add(w[i]! * x[i]!);
  return s.value / total;
}

/** The weighted top-label metrics as lazy computations, and the summary (weight sum, effective N, reliability). */
function topLabelComputers(confidence: Float64Array, correct: Uint8Array, w: Float64Array, bins: number, convention: BinConvention) {
  const total = new CompensatedSum();
  const squares = new CompensatedSum();
  for (let i = 0; i < w.length; i++) total.add(w[i]!), squares.add(w[i]! * w[i]!);
  const W = total.value;
  const widths = weightedEqualWidthBinSums(confidence, correct, w, bins, convention);
  let masses: BinSums | undefined;
  const equalMass = (): BinSums => (masses ??= weightedEqualMassBinSums(confidence, correct, w, argsortStable(confidence), W, bins));
  const compute: Record<WeightedTopLabelName, () => number> = {
    accuracy: () => weightedMean(correct, w, W),
    ece: () => binnedCalibrationError(widths, W, 1),
    ece_l2: () => binnedCalibrationError(widths, W, 2),
    adaece: () => binnedCalibrationError(equalMass(), W, 1),
    adaece_l2: () => binnedCalibrationError(equalMass(), W, 2),
    mce: () => maximumBinGap(widths),
    oe: () => overconfidenceFromBins(widths, W),
    ks: () => weightedKs(confidence, correct, w, W),
    mean_confidence: () => weightedMean(confidence, w, W),
  };
  const summary = (values: Partial<Record<WeightedMetricName, number>>): WeightedTopLabelMetrics => ({
    values,
    n: confidence.length,
    weightSum: W,
    effectiveN: (W * W) / squares.value,
    bins,
    convention,
    reliability: reliabilityFromBinSums(widths, W, convention),
  });
  return { weightSum: W, compute, summary };
}

/** The requested metric names, each checked against `weightRefusal`. */
function requestedMetrics(options: Pick<WeightedOptions, 'metrics' | 'adaptive' | 'marginalBinning' | 'marginalDebias'>): WeightedMetricName[] {
  if (options === null || typeof options !== 'object') invalidArgument('options', 'an options object', describe(options));
  if (options.metrics === undefined) return WEIGHTED_METRIC_NAMES.filter((name) => weightRefusal(name, options) === null);
  if (!Array.isArray(options.metrics)) invalidArgument('metrics', 'an array of metric names', describe(options.metrics));
  for (const name of options.metrics) {
    const reason = weightRefusal(name, options);
    if (reason !== null) invalidArgument('metrics', `metrics defined with sample weights`, `'${name}', which refuses weights: ${reason}`);
  }
  return [...new Set(options.metrics)] as WeightedMetricName[];
}

/** KS = max over sorted prefixes of |Σ w (c − a)| / W (visited at row ends, where the maximum of a run lies). */
function weightedKs(confidence: Float64Array, correct: Uint8Array, weights: Float64Array, total: number): number {
  const order = argsortStable(confidence);
  let sc = 0;
  let sa = 0;
  let worst = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const w = weights[i]!;
    if (w === 0) continue;
    sc += w * confidence[i]!;
    sa += w * correct[i]!;
    const d = Math.abs(sc / total - sa / total);
    if (d > worst) worst = d;
  }
  return worst;
}

interface CollectedRows {
  readonly classes: number;
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  readonly nll: Float64Array;
  readonly brier: Float64Array;
  readonly entropy: Float64Array;
  readonly probabilities: Float64Array;
  readonly labels: Int32Array;
}

/** Per-row results of the accumulator's kernels (validated there), copied out block by block. */
function collectRows(predictions: Matrix, labels: Labels, options: CalibrationOptions): CollectedRows {
  const accumulator = new CalibrationAccumulator(options);
  const n = predictions.rows;
  const classes = predictions.cols;
  const out: CollectedRows = {
    classes,
    confidence: new Float64Array(n),
    correct: new Uint8Array(n),
    nll: new Float64Array(n),
    brier: new Float64Array(n),
    entropy: new Float64Array(n),
    probabilities: new Float64Array(n * classes),
    labels: new Int32Array(n),
  };
  let at = 0;
  accumulator.observeRows((block: RowBlock) => {
    const r = block.rows;
    out.confidence.set(block.confidence.subarray(0, r), at);
    out.correct.set(block.correct.subarray(0, r), at);
    out.nll.set(block.nll.subarray(0, r), at);
    out.brier.set(block.brier.subarray(0, r), at);
    out.entropy.set(block.entropy.subarray(0, r), at);
    out.probabilities.set(block.probabilities.subarray(0, r * classes), at * classes);
    for (let j = 0; j < r; j++) out.labels[at + j] = block.labels[block.labelOffset + j]!;
    at += r;
  });
  accumulator.update(predictions, labels);
  if (at === 0) invalidArgument('predictions', 'at least one sample', '0 samples');
  return out;
}
