import { invalidArgument } from '../../util/errors.js';
import { hosmerLemeshow, type HosmerLemeshow } from './hosmer-lemeshow.js';
import { loessCalibration, type LoessCalibration } from './loess-calibration.js';
import { logisticRecalibration, type LogisticRecalibration } from './logistic-recalibration.js';
import { skce, type SkceResult } from './skce.js';
import {
  meansOf,
  calibrationInTheLarge,
  calibrationIntercept,
  calibrationSlope,
  calibrationSlopeError,
  e50Metric,
  e90Metric,
  emaxMetric,
  hosmerLemeshowP,
  hosmerLemeshowStatistic,
  iciMetric,
  skceMetric,
  skcePMetric,
} from './clinical-metrics.js';

/**
 * The clinical / tabular calibration statistics of binary risk predictions p [N] ∈ [0, 1] with outcomes
 * y [N] ∈ {0, 1} (top-label use: p = confidence, y = correct): calibration-in-the-large, calibration slope and
 * intercept with Wald intervals, Hosmer–Lemeshow, the LOESS-based ICI / E50 / E90 / Emax and the SKCE test.
 * Each statistic is defined in its own file.
 */
export interface ClinicalStatistics {
  readonly n: number;
  readonly meanPredicted: number;
  readonly meanObserved: number;
  /** mean(y) − mean(p): positive when risks are under-predicted on average (the sign of the intercept). */
  readonly calibrationInTheLarge: number;
  readonly recalibration: LogisticRecalibration;
  readonly hosmerLemeshow: HosmerLemeshow;
  readonly loess: LoessCalibration;
  readonly skce: SkceResult;
}

export interface ClinicalOptions {
  /** Wald interval coverage of slope and intercept (default 0.95). */
  readonly level?: number;
  /** Hosmer–Lemeshow groups g (default 10, df = g − 2). */
  readonly groups?: number;
  /** lowess span f (default 2/3). */
  readonly span?: number;
  /** SKCE test resamples (default 1000) and seed (default 0). */
  readonly resamples?: number;
  readonly seed?: number;
}

/** Validate p ∈ [0, 1] and y ∈ {0, 1} of equal length, with at least `minimum` rows. */
export function requireBinaryOutcomes(p: ArrayLike<number>, y: ArrayLike<number>, names: { p: string; y: string }, minimum: number): void {
  if (p.length !== y.length) invalidArgument(names.y, `${p.length} outcomes, one per prediction`, `${y.length}`);
  if (p.length < minimum) invalidArgument(names.p, `at least ${minimum} rows for the clinical statistics`, `${p.length}`);
  for (let i = 0; i < p.length; i++) {
    const v = p[i]!;
    if (!(v >= 0 && v <= 1)) invalidArgument(names.p, 'probabilities in [0, 1]', `${v} at row ${i}`);
    const o = y[i]!;
    if (o !== 0 && o !== 1) invalidArgument(names.y, 'binary outcomes 0 or 1 for the clinical statistics', `${o} at row ${i}`);
  }
}

export function clinicalStatistics(p: ArrayLike<number>, y: ArrayLike<number>, options: ClinicalOptions = {}): ClinicalStatistics {
  const groups = options.groups ?? 10;
  if (!Number.isInteger(groups) || groups < 3) invalidArgument('groups', 'an integer ≥ 3 (Hosmer–Lemeshow df = g − 2)', `${groups}`);
  const span = options.span ?? 2 / 3;
  if (!(span > 0 && span <= 1)) invalidArgument('span', 'a lowess span in (0, 1]', `${span}`);
  requireBinaryOutcomes(p, y, { p: 'p', y: 'y' }, groups);
  return {
    n: p.length,
    ...meansOf(p, y),
    recalibration: logisticRecalibration(p, y, options.level ?? 0.95),
    hosmerLemeshow: hosmerLemeshow(p, y, groups),
    loess: loessCalibration(p, y, span),
    skce: skce(p, y, { resamples: options.resamples ?? 1000, seed: options.seed ?? 0 }),
  };
}

/**
 * The --json fields (snake_case; the keys issue #26 names, plus their intervals and settings); the values of the
 * record's clinical entries are read with their accessors (clinical-metrics.ts), so each has one definition.
 */
export function clinicalJson(stats: ClinicalStatistics): Record<string, number | boolean | null> {
  const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
  const r = stats.recalibration;
  return {
    calibration_in_the_large: calibrationInTheLarge.of(stats),
    mean_predicted: stats.meanPredicted,
    mean_observed: stats.meanObserved,
    calibration_slope: finite(calibrationSlope.of(stats)),
    calibration_slope_error: finite(calibrationSlopeError.of(stats)),
    calibration_slope_se: finite(r.slope.standardError),
    calibration_slope_lower: finite(r.slope.lower),
    calibration_slope_upper: finite(r.slope.upper),
    calibration_intercept: finite(calibrationIntercept.of(stats)),
    calibration_intercept_se: finite(r.intercept.standardError),
    calibration_intercept_lower: finite(r.intercept.lower),
    calibration_intercept_upper: finite(r.intercept.upper),
    calibration_interval_level: r.level,
    recalibration_converged: r.converged,
    hosmer_lemeshow: finite(hosmerLemeshowStatistic.of(stats)),
    hosmer_lemeshow_df: stats.hosmerLemeshow.degreesOfFreedom,
    hosmer_lemeshow_p: finite(hosmerLemeshowP.of(stats)),
    ici: iciMetric.of(stats),
    e50: e50Metric.of(stats),
    e90: e90Metric.of(stats),
    emax: emaxMetric.of(stats),
    loess_span: stats.loess.span,
    skce: finite(skceMetric.of(stats)),
    skce_p: finite(skcePMetric.of(stats)),
    skce_bandwidth: stats.skce.bandwidth,
    skce_resamples: stats.skce.resamples,
  };
}
