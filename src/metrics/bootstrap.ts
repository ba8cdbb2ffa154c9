import { CalibrationAccumulator, type CalibrationOptions } from './accumulators/calibration-accumulator.js';
import { METRIC_NAMES, type MetricName } from './accumulators/evaluate.js';
import { type Labels, requireLabels, requireMatrix } from './validation.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { Random } from '../util/random.js';

export interface BootstrapOptions {
  /** Number of resamples B (default 1000). */
  readonly resamples?: number;
  /** Coverage of the interval, in (0, 1) (default 0.95). */
  readonly level?: number;
  /** Seed of the `Random` drawing the resamples (default 0). */
  readonly seed?: number;
}

export interface ConfidenceInterval {
  /** The statistic on the original sample. */
  readonly estimate: number;
  /** Percentile-bootstrap bounds: the (1 − level)/2 and (1 + level)/2 quantiles of the resampled statistics. */
  readonly lower: number;
  readonly upper: number;
  readonly level: number;
  /** Resamples whose statistic was defined (not NaN) and entered the quantiles. */
  readonly resamples: number;
}

/**
 * Percentile bootstrap (Efron & Tibshirani 1993, §13.3) for any statistic of N samples: draw B resamples of
 * N indices with replacement (seeded `Random`, so reproducible), evaluate `statistic(indices)` on each, and
 * return the (1 ± level)/2 quantiles (linear interpolation between order statistics, NumPy's default).
 * `statistic` receives an Int32Array of N indices (the identity for the estimate). Resamples giving NaN (e.g.
 * an AUROC with one class) are left out and counted; if all are NaN the bounds are NaN.
 * The percentile interval is centred on the resamples, not on the estimate: for an upward-biased statistic (a
 * binned ECE whose bins hold few samples) the resamples carry the bias again and the interval can exclude the
 * estimate from above.
 */
export function bootstrapInterval(n: number, statistic: (indices: Int32Array) => number, options: BootstrapOptions = {}): ConfidenceInterval {
  requireNumber('n', n, { integer: true, min: 1 });
  if (typeof statistic !== 'function') invalidArgument('statistic', 'a function of an index array', describe(statistic));
  const resamples = requireNumber('resamples', options.resamples ?? 1000, { integer: true, min: 1 });
  const level = requireNumber('level', options.level ?? 0.95, { min: 0, exclusiveMin: true });
  if (level >= 1) invalidArgument('level', 'a number in (0, 1)', describe(level));
  const seed = requireNumber('seed', options.seed ?? 0, { integer: true });
  const identity = new Int32Array(n);
  for (let i = 0; i < n; i++) identity[i] = i;
  const estimate = statistic(identity);
  const rng = new Random(seed);
  const values: number[] = [];
  const indices = new Int32Array(n);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) indices[i] = rng.int(n);
    const v = statistic(indices);
    if (!Number.isNaN(v)) values.push(v);
  }
  values.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return { estimate, lower: quantile(values, alpha), upper: quantile(values, 1 - alpha), level, resamples: values.length };
}

/** Quantile q of ascending `sorted` by linear interpolation (NumPy `percentile`, method 'linear'). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Percentile-bootstrap interval of one metric of `evaluate` (rows resampled with replacement; each resample is
 * evaluated from scratch with the same options). Cost: B × one evaluation. Shapes: predictions N × C, labels [N].
 */
export function bootstrapMetric(predictions: Matrix, labels: Labels, metric: MetricName, options: CalibrationOptions & BootstrapOptions): ConfidenceInterval {
  if (!(METRIC_NAMES as readonly string[]).includes(metric)) invalidArgument('metric', `one of ${METRIC_NAMES.join(', ')}`, describe(metric));
  requireMatrix(predictions);
  if (predictions.rows < 1) invalidArgument('predictions', 'at least one sample', '0 samples');
  requireLabels(labels, predictions.rows, predictions.cols);
  const { rows, cols, data } = predictions;
  const Ctor = data instanceof Float32Array ? Float32Array : Float64Array;
  const chunk = new Ctor(rows * cols);
  const chunkLabels = new Int32Array(rows);
  return bootstrapInterval(
    rows,
    (indices) => {
      for (let i = 0; i < rows; i++) {
        const j = indices[i]!;
        chunk.set(data.subarray(j * cols, (j + 1) * cols), i * cols);
        chunkLabels[i] = labels[j]!;
      }
      const state = new CalibrationAccumulator(options).update({ rows, cols, data: chunk }, chunkLabels);
      return state.compute()[metric];
    },
    options,
  );
}
