import {
  evaluateWeighted,
  evaluateWeightedTopLabel,
  METRIC_NAMES,
  requireSampleWeights,
  weightRefusal,
  type WeightedMetricName,
  type WeightedMetrics,
  type WeightedTopLabelMetrics,
  type WeightedTopLabelName,
  type WeightedOptions,
} from '../../metrics/index.js';
import { readVectorFile } from '../../io/read-vector.js';
import { bootstrapJson } from '../../report/metrics-json.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import { formatTable } from '../format-table.js';
import { METRIC_DISPLAY, percentileBootstrap, showMetric, type BootstrapIntervals } from './metrics-report.js';

/**
 * `calib eval --weights FILE`: per-row sample weights (scikit-learn's `sample_weight`) for the metrics defined
 * with weights (metrics layer's `evaluateWeighted`); the others are listed with the reason they refuse weights.
 */

/** Read --weights (one value per row, any vector format) and check it against the predictions' row count. */
export async function readWeights(path: string, rows: number, predictionsArg: string): Promise<Float64Array> {
  const values = await readVectorFile(path, '--weights', { names: ['weights', 'weight', 'sample_weight', 'w'] });
  if (values.length !== rows) invalidArgument('--weights', `${rows} weights, one per row of ${predictionsArg} (${rows} rows)`, `${values.length} weights`);
  return requireSampleWeights(values, rows, '--weights');
}

/** Each metric of `calib eval` that is not computed with weights, with its reason. */
export function refusedMetrics(options: Pick<WeightedOptions, 'adaptive' | 'marginalBinning' | 'marginalDebias'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of METRIC_NAMES) {
    const reason = weightRefusal(name, options);
    if (reason !== null) out[name] = reason;
  }
  return out;
}

/**
 * Percentile-bootstrap intervals of the weighted metrics: rows are drawn with the same index stream as the
 * unweighted bootstrap and keep their weights (a draw whose weights are all zero is skipped: its values are NaN).
 */
export function bootstrapWeighted(
  predictions: Matrix,
  labels: Int32Array,
  weights: Float64Array,
  options: WeightedOptions,
  names: readonly WeightedMetricName[],
  bootstrap: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): BootstrapIntervals<WeightedMetricName> {
  const { rows, cols, data } = predictions;
  const resampled = data instanceof Float32Array ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
  const resampledLabels = new Int32Array(rows);
  const resampledWeights = new Float64Array(rows);
  const missing = Object.fromEntries(names.map((m) => [m, Number.NaN])) as Record<WeightedMetricName, number>;
  return percentileBootstrap(
    rows,
    names,
    (drawn) => {
      let total = 0;
      for (let i = 0; i < rows; i++) {
        const j = drawn[i]!;
        resampled.set(data.subarray(j * cols, (j + 1) * cols), i * cols);
        resampledLabels[i] = labels[j]!;
        total += resampledWeights[i] = weights[j]!;
      }
      if (!(total > 0)) return missing;
      const values = evaluateWeighted({ rows, cols, data: resampled }, resampledLabels, resampledWeights, { ...options, metrics: names }).values;
      return values as Record<WeightedMetricName, number>;
    },
    bootstrap,
  );
}

/**
 * Percentile-bootstrap intervals of the weighted top-label metrics: (confidence, correct, weight) triples drawn
 * with the index stream of the unweighted top-label bootstrap.
 */
export function bootstrapWeightedTopLabel(
  inputs: { confidence: Float64Array; correct: Uint8Array },
  weights: Float64Array,
  options: { bins: number; convention: '(l,u]' | '[l,u)'; adaptive: 'equal-mass' | 'interp' },
  names: readonly WeightedTopLabelName[],
  bootstrap: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): BootstrapIntervals<WeightedTopLabelName> {
  const n = inputs.confidence.length;
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  const w = new Float64Array(n);
  const missing = Object.fromEntries(names.map((m) => [m, Number.NaN])) as Record<WeightedTopLabelName, number>;
  return percentileBootstrap(
    n,
    names,
    (drawn) => {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const j = drawn[i]!;
        confidence[i] = inputs.confidence[j]!;
        correct[i] = inputs.correct[j]!;
        total += w[i] = weights[j]!;
      }
      if (!(total > 0)) return missing;
      return evaluateWeightedTopLabel(confidence, correct, w, { ...options, metrics: names }).values as Record<WeightedTopLabelName, number>;
    },
    bootstrap,
  );
}

/** The `--json` object with weights: the weighted metrics, the settings, `weights` and `not_weighted`. */
export function weightedJson(
  result: WeightedMetrics | WeightedTopLabelMetrics,
  settings: { input: string; adaptive: string; weightsFile: string },
  refused: Record<string, string>,
  intervals?: BootstrapIntervals<WeightedMetricName> | BootstrapIntervals<WeightedTopLabelName>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...result.values };
  out['n'] = result.n;
  if ('classes' in result) out['classes'] = result.classes;
  out['bins'] = result.bins;
  out['convention'] = result.convention;
  out['input'] = settings.input;
  out['adaptive_binning'] = settings.adaptive;
  out['weights'] = { file: settings.weightsFile, sum: result.weightSum, effective_n: result.effectiveN };
  out['not_weighted'] = refused;
  if (intervals) out['bootstrap'] = bootstrapJson(intervals, Object.keys(intervals.intervals) as (keyof typeof intervals.intervals)[]);
  return out;
}

/** The human table of the weighted metrics, with intervals when bootstrapped. */
export function formatWeightedTable(result: WeightedMetrics | WeightedTopLabelMetrics, intervals?: BootstrapIntervals<WeightedMetricName> | BootstrapIntervals<WeightedTopLabelName>): string {
  const bounds = intervals?.intervals as Record<string, readonly [number, number]> | undefined;
  const header = intervals ? ['metric', 'value', `${+(intervals.level * 100).toFixed(2)}% CI`] : ['metric', 'value'];
  const rows = (Object.keys(result.values) as WeightedMetricName[]).map((m) => {
    const row = [METRIC_DISPLAY[m].label, showMetric(m, result.values[m]!)];
    if (bounds) row.push(`[${showMetric(m, bounds[m]![0])}, ${showMetric(m, bounds[m]![1])}]`);
    return row;
  });
  return formatTable(header, rows);
}
