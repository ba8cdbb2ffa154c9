import {
  CalibrationAccumulator,
  METRIC_NAMES,
  METRICS,
  quantile,
  type BinConvention,
  type CalibrationMetrics,
  type MetricName,
} from '../metrics/index.js';
import type { AdaptiveScheme } from '../metrics/adaptive-ece.js';
import type { MarginalBinning } from '../metrics/marginal-ece.js';
import { requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { Random } from '../util/random.js';
import { fixed, formatTable, percent } from './format-table.js';
import type { InputChunk } from './inputs.js';

/**
 * Computing and presenting the metrics of `calib eval` (and the before/after table of `calib demo`): streaming
 * evaluation into the metrics layer's `CalibrationAccumulator`, percentile-bootstrap intervals for every metric
 * at once, the human table (calibration errors in %) and the JSON object (fractions, snake_case keys).
 */

export interface EvalSettings {
  readonly input: 'logits' | 'probabilities';
  readonly bins: number;
  readonly convention: BinConvention;
  readonly classes: number;
  /** AdaECE scheme, marginal-ECE bins and the label-binned norm (CalibrationAccumulator options; defaults as there). */
  readonly adaptive?: AdaptiveScheme;
  readonly marginalBinning?: MarginalBinning;
  readonly labelBinnedP?: number;
}

/** How each metric is shown in tables: a label and whether it is a percentage (else a plain number). */
export const METRIC_DISPLAY: Readonly<Record<MetricName, { label: string; percent: boolean }>> = Object.freeze(
  Object.fromEntries(METRICS.map((m) => [m.key, { label: m.label, percent: m.percent }])) as Record<MetricName, { label: string; percent: boolean }>,
);

/** One metric value as shown in a table. */
export function showMetric(name: MetricName, value: number): string {
  return METRIC_DISPLAY[name].percent ? percent(value) : fixed(value);
}

/** Evaluate validated chunks (streamed) into every metric plus the reliability data. */
export async function evaluateChunks(
  chunks: AsyncIterable<InputChunk> | Iterable<InputChunk>,
  settings: EvalSettings,
): Promise<{ metrics: CalibrationMetrics; accumulator: CalibrationAccumulator }> {
  const accumulator = new CalibrationAccumulator(settings);
  for await (const chunk of chunks) accumulator.update(chunk.matrix, chunk.labels);
  return { metrics: accumulator.compute(), accumulator };
}

/** Percentile-bootstrap interval of each metric. */
export interface MetricIntervals {
  readonly resamples: number;
  readonly seed: number;
  readonly level: number;
  readonly intervals: Readonly<Record<MetricName, readonly [number, number]>>;
}

/**
 * Percentile bootstrap of every metric at once: B resamples of the N rows with replacement drawn from
 * `Random(seed)` (the same index stream as the metrics layer's `bootstrapMetric`, so each interval equals
 * `bootstrapMetric`'s for that metric), each evaluated once; bounds are the (1 ± level)/2 quantiles (linear
 * interpolation) over the resamples where the metric is defined (error AUROC is undefined when all or none are
 * correct). Cost: B evaluations of N × C.
 */
/**
 * Most bootstrap resamples `calib eval` draws: the Monte-Carlo error of a 95 % percentile bound is already
 * ~1 % of the interval's width at 10,000 resamples; 1e9 would run for days.
 */
export const MAX_BOOTSTRAP_RESAMPLES = 100_000;

export function bootstrapAllMetrics(
  predictions: Matrix,
  labels: Int32Array,
  settings: EvalSettings,
  options: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): MetricIntervals {
  const resamples = requireNumber('--bootstrap', options.resamples, { integer: true, min: 1, max: MAX_BOOTSTRAP_RESAMPLES });
  const seed = requireNumber('--seed', options.seed, { integer: true });
  const level = requireNumber('--level', options.level, { min: 0, exclusiveMin: true, max: 0.999999 });
  const { rows, cols, data } = predictions;
  const resampled = data instanceof Float32Array ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
  const resampledLabels = new Int32Array(rows);
  const values = Object.fromEntries(METRIC_NAMES.map((m) => [m, [] as number[]])) as Record<MetricName, number[]>;
  const rng = new Random(seed);
  for (let b = 0; b < resamples; b++) {
    options.onProgress?.(b);
    for (let i = 0; i < rows; i++) {
      const j = rng.int(rows);
      resampled.set(data.subarray(j * cols, (j + 1) * cols), i * cols);
      resampledLabels[i] = labels[j]!;
    }
    const metrics = new CalibrationAccumulator(settings).update({ rows, cols, data: resampled }, resampledLabels).compute();
    for (const m of METRIC_NAMES) if (!Number.isNaN(metrics[m])) values[m].push(metrics[m]);
  }
  const alpha = (1 - level) / 2;
  const intervals = Object.fromEntries(
    METRIC_NAMES.map((m) => {
      const sorted = values[m].sort((a, b) => a - b);
      return [m, [quantile(sorted, alpha), quantile(sorted, 1 - alpha)] as const];
    }),
  ) as Record<MetricName, readonly [number, number]>;
  return { resamples, seed, level, intervals };
}

/** The human table of `calib eval`: one row per metric, with the interval when bootstrapped. */
export function formatMetricsTable(metrics: CalibrationMetrics, intervals?: MetricIntervals): string {
  const header = intervals ? ['metric', 'value', `${+(intervals.level * 100).toFixed(2)}% CI`] : ['metric', 'value'];
  const rows = METRIC_NAMES.map((m) => {
    const row = [METRIC_DISPLAY[m].label, showMetric(m, metrics[m])];
    if (intervals) {
      const [lo, hi] = intervals.intervals[m];
      row.push(`[${showMetric(m, lo)}, ${showMetric(m, hi)}]`);
    }
    return row;
  });
  return formatTable(header, rows);
}

/** A before/after comparison table (e.g. before and after recalibration). */
export function formatComparisonTable(columns: readonly string[], results: readonly CalibrationMetrics[], names: readonly MetricName[] = METRIC_NAMES): string {
  return formatTable(['metric', ...columns], names.map((m) => [METRIC_DISPLAY[m].label, ...results.map((r) => showMetric(m, r[m]))]));
}

/** JSON numbers: NaN and ±Infinity become null (JSON has no such values). */
function jsonNumber(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/**
 * The `--json` object: every metric as a fraction under its snake_case name, then the settings and sizes
 * (n, classes, bins, convention, input, ...), then `bootstrap` when intervals were computed.
 */
export function metricsJson(metrics: CalibrationMetrics, settings: EvalSettings, intervals?: MetricIntervals): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of METRIC_NAMES) out[m] = jsonNumber(metrics[m]);
  out['sweep_bins'] = metrics.sweep_bins;
  out['n'] = metrics.n;
  out['classes'] = metrics.classes;
  out['bins'] = metrics.bins;
  out['convention'] = metrics.convention;
  out['input'] = settings.input;
  out['adaptive_binning'] = metrics.adaptive_binning;
  out['ece_lb_p'] = metrics.ece_lb_p;
  out['marginal_binning'] = metrics.marginal_binning;
  out['marginal_debiased'] = metrics.marginal_debiased;
  if (intervals) {
    out['bootstrap'] = {
      resamples: intervals.resamples,
      seed: intervals.seed,
      level: intervals.level,
      intervals: Object.fromEntries(METRIC_NAMES.map((m) => [m, intervals.intervals[m].map(jsonNumber)])),
    };
  }
  return out;
}
