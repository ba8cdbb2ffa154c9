import type { BinConvention, ReliabilityData } from '../binned/reliability-types.js';
import { CalibrationAccumulator, type CalibrationOptions } from '../accumulators/calibration-accumulator.js';
import type { MetricDefinition, RowBlock, WeightedDefinition } from '../record/metric-definition.js';
import { METRIC_NAMES, METRICS, metricDefinition, type MetricName } from '../record/metric-registry.js';
import { reliabilityFromBinSums } from '../binned/reliability-diagram.js';
import { requireSampleWeights } from './sample-weights.js';
import type { TopLabelOptions } from '../accumulators/top-label-accumulator.js';
import { type Labels, requireTopLabel } from '../validation.js';
import { weightedContext, type WeightedContext, type WeightSettings } from './weighted-context.js';
import { describe, invalidArgument } from '../../util/errors.js';
import type { FloatArray, Matrix } from '../../util/matrix.js';

type Declared = (typeof METRICS)[number];

/** The metrics defined with sample weights (those whose record declares a weighted compute). */
export type WeightedMetricName = Extract<Declared, { readonly weighted: { readonly compute: unknown } }>['key'];

/** The weighted metrics of the top label alone (confidence and correctness; `evaluateWeightedTopLabel`). */
export type WeightedTopLabelName = Extract<Declared, { readonly weighted: { readonly scope: 'top-label' } }>['key'];

type Computed = Extract<WeightedDefinition, { readonly compute: unknown }>;

/** The weighted compute of each metric that has one, by name. */
const WEIGHTED: ReadonlyMap<string, Computed> = new Map(
  (METRICS as readonly MetricDefinition[]).flatMap((m) => (m.weighted !== undefined && 'compute' in m.weighted ? [[m.key, m.weighted] as const] : [])),
);

/** The metrics defined with sample weights (weighted-evaluate.ts), in table order. */
export const WEIGHTED_METRIC_NAMES: readonly WeightedMetricName[] = Object.freeze(METRIC_NAMES.filter((name): name is WeightedMetricName => WEIGHTED.has(name)));

/** The weighted metrics of the top label alone, in table order. */
export const WEIGHTED_TOP_LABEL_NAMES: readonly WeightedTopLabelName[] = Object.freeze(WEIGHTED_METRIC_NAMES.filter((name): name is WeightedTopLabelName => WEIGHTED.get(name)!.scope === 'top-label'));

const NOT_IMPLEMENTED = 'not implemented with sample weights yet';

/**
 * Why metric `name` cannot be computed with sample weights under `options` (null when it can), from its record
 * (`MetricDefinition.weighted`): rank-based metrics, debiased estimators and tests refuse by definition; a
 * weighted metric may refuse some settings (`marginal_ece` is weighted only as the plug-in estimator over
 * equal-width bins, `adaece`/`adaece_l2` only with the 'equal-mass' scheme); a metric without a weighted compute is
 * "not implemented with sample weights yet".
 */
export function weightRefusal(name: MetricName, options: WeightSettings = {}): string | null {
  if (!(METRIC_NAMES as readonly string[]).includes(name)) invalidArgument('metric', `one of ${METRIC_NAMES.join(', ')}`, describe(name));
  const weighted = metricDefinition(name).weighted;
  if (weighted === undefined) return NOT_IMPLEMENTED;
  if ('refused' in weighted) return weighted.refused;
  return weighted.refusal?.(options) ?? null;
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
  const rows = collectRows(predictions, labels, options);
  const w = requireSampleWeights(weights, rows.confidence.length, 'weights');
  const context = weightedContext(rows.confidence, rows.correct, w, options.bins ?? 15, options.convention ?? '(l,u]', rows);
  const values: Partial<Record<WeightedMetricName, number>> = {};
  for (const name of names) values[name] = WEIGHTED.get(name)!.compute(context);
  return { ...summary(context, values), classes: rows.classes };
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
  for (let i = 0; i < confidence.length; i++) if (!(confidence[i]! >= 0 && confidence[i]! <= 1)) invalidArgument('confidence', 'values in [0, 1]', `${describe(confidence[i])} at index ${i}`);
  if (confidence.length === 0) invalidArgument('confidence', 'at least one sample', '0 samples');
  const requested = requestedMetrics(options);
  const names = options.metrics === undefined ? requested.filter((m): m is WeightedTopLabelName => (WEIGHTED_TOP_LABEL_NAMES as readonly string[]).includes(m)) : requested;
  for (const name of names)
    if (!(WEIGHTED_TOP_LABEL_NAMES as readonly string[]).includes(name)) invalidArgument('metrics', 'metrics of the top label', `'${name}', which needs the whole probability vector`);
  const w = requireSampleWeights(weights, confidence.length, 'weights');
  const context = weightedContext(Float64Array.from(confidence), correct, w, options.bins ?? 15, options.convention ?? '(l,u]');
  const values: Partial<Record<WeightedMetricName, number>> = {};
  for (const name of names) values[name] = WEIGHTED.get(name)!.compute(context);
  return summary(context, values);
}

/** The result's summary: the weight sum, Kish's effective N and the weighted reliability data. */
function summary(context: WeightedContext & { readonly squareSum: number }, values: Partial<Record<WeightedMetricName, number>>): WeightedTopLabelMetrics {
  const W = context.weightSum;
  return {
    values,
    n: context.confidence.length,
    weightSum: W,
    effectiveN: (W * W) / context.squareSum,
    bins: context.bins,
    convention: context.convention,
    reliability: reliabilityFromBinSums(context.equalWidth(), W, context.convention),
  };
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
