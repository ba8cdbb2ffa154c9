import { METRIC_NAMES, type CalibrationMetrics, type MetricName, type PredictionKind } from '../metrics/index.js';

/**
 * The JSON form of calibration metrics (`calib eval --json`, the suite's per-run metrics files): fractions under
 * snake_case names, the settings and sizes, and the bootstrap intervals when computed. In report/ (below cli and
 * suite), so that both can write it.
 */

/** Percentile-bootstrap intervals of named metrics. */
export interface BootstrapIntervals<K extends string> {
  readonly resamples: number;
  readonly seed: number;
  readonly level: number;
  readonly intervals: Readonly<Record<K, readonly [number, number]>>;
}

export type MetricIntervals = BootstrapIntervals<MetricName>;

/** JSON numbers: NaN and ±Infinity become null (JSON has no such values). */
export function jsonNumber(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

/** The `bootstrap` block of a `--json` object: resamples, seed, level and each of `keys`' interval (non-finite ends as null). */
export function bootstrapJson<K extends string>(intervals: BootstrapIntervals<K>, keys: readonly K[]): Record<string, unknown> {
  return {
    resamples: intervals.resamples,
    seed: intervals.seed,
    level: intervals.level,
    intervals: Object.fromEntries(keys.map((k) => [k, intervals.intervals[k].map(jsonNumber)])),
  };
}

/**
 * The `--json` object: every metric as a fraction under its snake_case name, then the settings and sizes
 * (n, classes, bins, convention, input, ...), then `bootstrap` when intervals were computed.
 */
export function metricsJson(metrics: CalibrationMetrics, settings: { readonly input: PredictionKind }, intervals?: MetricIntervals): Record<string, unknown> {
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
  out['refinement_calibrator'] = metrics.refinement_calibrator;
  if (intervals) out['bootstrap'] = bootstrapJson(intervals, METRIC_NAMES);
  return out;
}
