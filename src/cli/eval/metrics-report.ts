import { CalibrationAccumulator, METRIC_NAMES, METRICS, quantile, type BinConvention, type CalibrationMetrics, type MetricName } from '../../metrics/index.js';
import type { AdaptiveScheme } from '../../metrics/binned/adaptive-ece.js';
import type { MarginalBinning } from '../../metrics/binned/marginal-ece.js';
import type { RefinementSetting } from '../../metrics/calibration-refinement.js';
import { requireNumber } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import { Random } from '../../util/random.js';
import { fixed, formatTable, percent } from '../format-table.js';
import type { InputChunk } from '../inputs.js';
import type { BootstrapIntervals, MetricIntervals } from '../../report/metrics-json.js';

export { metricsJson, type BootstrapIntervals, type MetricIntervals } from '../../report/metrics-json.js';

/**
 * Computing and presenting the metrics of `calib eval` (and the before/after table of `calib demo`): streaming
 * evaluation into the metrics layer's `CalibrationAccumulator`, percentile-bootstrap intervals for every metric
 * at once and the human table (calibration errors in %); the JSON object (fractions, snake_case keys) is
 * report/metrics-json.ts's `metricsJson`, re-exported here.
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
  /** Recalibrator of the calibration–refinement split (`--refinement-calibrator`; 'none' skips it). */
  readonly refinementCalibrator?: RefinementSetting;
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
export async function evaluateChunks(chunks: AsyncIterable<InputChunk> | Iterable<InputChunk>, settings: EvalSettings): Promise<{ metrics: CalibrationMetrics; accumulator: CalibrationAccumulator }> {
  const accumulator = new CalibrationAccumulator(settings);
  for await (const chunk of chunks) accumulator.update(chunk.matrix, chunk.labels);
  return { metrics: accumulator.compute(), accumulator };
}

export const MAX_BOOTSTRAP_RESAMPLES = 100_000;

/**
 * Percentile bootstrap (Efron & Tibshirani 1993, ch. 13): B times draw N row indices with replacement
 * (`Random(seed)`, one `int(N)` per row, in row order: the index stream of the metrics layer's `bootstrapMetric`,
 * so each interval equals its interval for that metric), evaluate the metrics on the drawn rows, and report the
 * (1 − level)/2 and (1 + level)/2 quantiles (linear interpolation) of each metric's non-NaN values (error AUROC is
 * undefined when all or none are correct). At most MAX_BOOTSTRAP_RESAMPLES resamples.
 */
export function percentileBootstrap<K extends string>(
  rows: number,
  keys: readonly K[],
  evaluateDraw: (drawn: Int32Array) => Readonly<Record<K, number>>,
  options: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): BootstrapIntervals<K> {
  const resamples = requireNumber('--bootstrap', options.resamples, { integer: true, min: 1, max: MAX_BOOTSTRAP_RESAMPLES });
  const seed = requireNumber('--seed', options.seed, { integer: true });
  const level = requireNumber('--level', options.level, { min: 0, exclusiveMin: true, max: 0.999999 });
  const values = Object.fromEntries(keys.map((m) => [m, [] as number[]])) as Record<K, number[]>;
  const rng = new Random(seed);
  const drawn = new Int32Array(rows);
  for (let b = 0; b < resamples; b++) {
    options.onProgress?.(b);
    for (let i = 0; i < rows; i++) drawn[i] = rng.int(rows);
    const metrics = evaluateDraw(drawn);
    for (const m of keys) if (!Number.isNaN(metrics[m])) values[m].push(metrics[m]);
  }
  const alpha = (1 - level) / 2;
  const intervals = Object.fromEntries(
    keys.map((m) => {
      const sorted = values[m].sort((a, b) => a - b);
      return [m, [quantile(sorted, alpha), quantile(sorted, 1 - alpha)] as const];
    }),
  ) as Record<K, readonly [number, number]>;
  return { resamples, seed, level, intervals };
}

/** Bootstrap intervals of every metric of `calib eval` on whole prediction rows. */
export function bootstrapAllMetrics(
  predictions: Matrix,
  labels: Int32Array,
  settings: EvalSettings,
  options: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): MetricIntervals {
  const { rows, cols, data } = predictions;
  const resampled = data instanceof Float32Array ? new Float32Array(rows * cols) : new Float64Array(rows * cols);
  const resampledLabels = new Int32Array(rows);
  return percentileBootstrap(
    rows,
    METRIC_NAMES,
    (drawn) => {
      for (let i = 0; i < rows; i++) {
        const j = drawn[i]!;
        resampled.set(data.subarray(j * cols, (j + 1) * cols), i * cols);
        resampledLabels[i] = labels[j]!;
      }
      return new CalibrationAccumulator(settings).update({ rows, cols, data: resampled }, resampledLabels).compute();
    },
    options,
  );
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
  return formatTable(
    ['metric', ...columns],
    names.map((m) => [METRIC_DISPLAY[m].label, ...results.map((r) => showMetric(m, r[m]))]),
  );
}
