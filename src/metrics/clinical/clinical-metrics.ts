import { defineMetric } from '../record/metric-definition.js';
import type { MetricContext } from '../record/metric-context.js';
import { WEIGHTS_REFUSED_TEST } from '../weighted/weighted-context.js';
import { hosmerLemeshow, type HosmerLemeshow } from './hosmer-lemeshow.js';
import { loessCalibration, type LoessCalibration } from './loess-calibration.js';
import { logisticRecalibration, type LogisticRecalibration } from './logistic-recalibration.js';
import { skce, type SkceResult } from './skce.js';

/**
 * The clinical / tabular calibration statistics (clinical-statistics.ts) as entries of the metric record
 * (metric-definition.ts), opt-in (metrics/record/opt-in-metrics.ts: `calib eval --metrics`, suite `metrics:`), of the top
 * label: p = the top-label confidence, y = its correctness. Each entry reads its value from a
 * `ClinicalStatistics`-shaped object with `of`; `clinicalJson` (the `calib eval --clinical` keys) reads the same
 * accessors, so each value has one definition. In the record the settings are the defaults of `clinicalStatistics`:
 * Wald level 0.95, 10 Hosmer–Lemeshow groups (df 8), lowess span 2/3, 1000 SKCE draws with seed 0.
 *
 * A target value instead of a direction: the calibration slope is best at 1 and the intercept and
 * calibration-in-the-large at 0 in either sign, so those entries say `better: 'none'` (no best mark, no selection
 * rule, no worst group), and the ranked quantity is its own entry, `calibration_slope_error` = |b − 1| (lower is
 * better). The tests (Hosmer–Lemeshow Ĉ and its p-value, skce_p) say 'none' like the record's other tests; the SKCE
 * estimate itself is a squared calibration error (lower is better).
 *
 * Weights: all refuse. The two tests and the SKCE U-statistic assume N independent unweighted samples (the χ²
 * reference, the Monte Carlo null and the n(n − 1) normaliser); the logistic recalibration and the lowess curve
 * admit weights mathematically (weighted likelihood, weighted local fits) but are not implemented with them — their
 * records leave `weighted` out, which the docs list as "not yet". calibration_in_the_large is a weighted mean
 * difference and is weighted.
 */

/**
 * Mean prediction p̄, observed rate ȳ and calibration-in-the-large ȳ − p̄ — one summation, shared by the record's
 * entry and `clinicalStatistics`, so both give the same bits.
 */
export function meansOf(p: ArrayLike<number>, y: ArrayLike<number>): { meanPredicted: number; meanObserved: number; calibrationInTheLarge: number } {
  const n = p.length;
  let sumP = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumP += p[i]!;
    sumY += y[i]!;
  }
  return { meanPredicted: sumP / n, meanObserved: sumY / n, calibrationInTheLarge: sumY / n - sumP / n };
}

/** The parts of the statistics an entry reads (computed lazily in the record, eagerly by `clinicalStatistics`). */
export interface ClinicalParts {
  readonly n: number;
  readonly calibrationInTheLarge: number;
  readonly recalibration: LogisticRecalibration;
  readonly hosmerLemeshow: HosmerLemeshow;
  readonly loess: LoessCalibration;
  readonly skce: SkceResult;
}

/** The record's settings (the defaults of `clinicalStatistics`). */
export const RECORD_CLINICAL_SETTINGS = { level: 0.95, groups: 10, span: 2 / 3, resamples: 1000, seed: 0 } as const;

/** The parts of the top label's statistics, each computed at most once per `compute()` and only when read. */
function topLabelParts(context: MetricContext): ClinicalParts {
  return context.shared('clinical-metrics', () => {
    const { confidence: p, correct: y } = context.top.views();
    const s = RECORD_CLINICAL_SETTINGS;
    const once = <T>(f: () => T): (() => T) => {
      let value: T | undefined;
      return () => (value ??= f());
    };
    const recalibration = once(() => logisticRecalibration(p, y, s.level));
    const hl = once(() => hosmerLemeshow(p, y, s.groups));
    const loess = once(() => loessCalibration(p, y, s.span));
    const kernel = once(() => skce(p, y, { resamples: s.resamples, seed: s.seed }));
    return {
      n: p.length,
      calibrationInTheLarge: meansOf(p, y).calibrationInTheLarge,
      get recalibration() {
        return recalibration();
      },
      get hosmerLemeshow() {
        return hl();
      },
      get loess() {
        return loess();
      },
      get skce() {
        return kernel();
      },
    };
  });
}

/** An entry's value: NaN below `minimum` rows (the statistic needs them), else `of` the top label's parts. */
function valueOf(context: MetricContext, minimum: number, of: (parts: ClinicalParts) => number): number {
  return context.n < minimum ? Number.NaN : of(topLabelParts(context));
}

const NOT_A_TEST_WEIGHT = 'the SKCE is a U-statistic over pairs (normaliser n(n − 1)); weights do not define it';

const inTheLarge = (s: ClinicalParts): number => s.calibrationInTheLarge;
export const calibrationInTheLarge = defineMetric({
  key: 'calibration_in_the_large',
  label: 'Calibration-in-the-large (%)',
  short: 'CITL',
  percent: true,
  better: 'none',
  scope: 'top-label',
  description: 'mean correctness − mean confidence (ideal 0; > 0: under-confident on average; Van Calster et al. 2016)',
  of: inTheLarge,
  compute: (context) => valueOf(context, 1, inTheLarge),
  weighted: {
    scope: 'top-label',
    compute: (w) => w.mean(w.correct) - w.mean(w.confidence),
  },
});

const slope = (s: ClinicalParts): number => s.recalibration.slope.estimate;
export const calibrationSlope = defineMetric({
  key: 'calibration_slope',
  label: 'Calibration slope',
  percent: false,
  better: 'none',
  scope: 'top-label',
  nullable: true,
  description: 'b of logit P(correct) = a + b·logit(confidence), maximum likelihood (ideal 1; < 1: too extreme; Cox 1958)',
  of: slope,
  compute: (context) => valueOf(context, 2, slope),
});

const slopeError = (s: ClinicalParts): number => Math.abs(s.recalibration.slope.estimate - 1);
export const calibrationSlopeError = defineMetric({
  key: 'calibration_slope_error',
  label: '|Calibration slope − 1|',
  short: '|slope − 1|',
  percent: false,
  better: 'lower',
  scope: 'top-label',
  nullable: true,
  description: 'distance of the calibration slope from its ideal 1, the ranked form of calibration_slope',
  of: slopeError,
  compute: (context) => valueOf(context, 2, slopeError),
});

const intercept = (s: ClinicalParts): number => s.recalibration.intercept.estimate;
export const calibrationIntercept = defineMetric({
  key: 'calibration_intercept',
  label: 'Calibration intercept',
  percent: false,
  better: 'none',
  scope: 'top-label',
  nullable: true,
  description: 'a₀ of logit P(correct) = a₀ + logit(confidence), slope fixed at 1 (ideal 0; Van Calster et al. 2016)',
  of: intercept,
  compute: (context) => valueOf(context, 2, intercept),
});

const hlStatistic = (s: ClinicalParts): number => s.hosmerLemeshow.statistic;
export const hosmerLemeshowStatistic = defineMetric({
  key: 'hosmer_lemeshow',
  label: 'Hosmer–Lemeshow Ĉ',
  percent: false,
  digits: 3,
  better: 'none',
  scope: 'top-label',
  nullable: true,
  description: 'Hosmer–Lemeshow Ĉ over 10 equal-size groups of sorted confidence (Hosmer & Lemeshow 1980)',
  of: hlStatistic,
  compute: (context) => valueOf(context, RECORD_CLINICAL_SETTINGS.groups, hlStatistic),
  weighted: { refused: WEIGHTS_REFUSED_TEST },
});

const hlP = (s: ClinicalParts): number => s.hosmerLemeshow.pValue;
export const hosmerLemeshowP = defineMetric({
  key: 'hosmer_lemeshow_p',
  label: 'Hosmer–Lemeshow p-value',
  short: 'HL p',
  percent: false,
  better: 'none',
  scope: 'top-label',
  nullable: true,
  description: 'P(χ²₈ > Ĉ): df = groups − 2, the development-sample convention (Hosmer & Lemeshow, 3rd ed. §5.2.2)',
  of: hlP,
  compute: (context) => valueOf(context, RECORD_CLINICAL_SETTINGS.groups, hlP),
  weighted: { refused: WEIGHTS_REFUSED_TEST },
});

const ici = (s: ClinicalParts): number => s.loess.ici;
export const iciMetric = defineMetric({
  key: 'ici',
  label: 'ICI (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'integrated calibration index: mean |lowess(correct ~ confidence) − confidence|, span 2/3 (Austin & Steyerberg 2019)',
  of: ici,
  compute: (context) => valueOf(context, 1, ici),
});

const e50 = (s: ClinicalParts): number => s.loess.e50;
export const e50Metric = defineMetric({
  key: 'e50',
  label: 'E50 (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'median |lowess curve − confidence| (Austin & Steyerberg 2019)',
  of: e50,
  compute: (context) => valueOf(context, 1, e50),
});

const e90 = (s: ClinicalParts): number => s.loess.e90;
export const e90Metric = defineMetric({
  key: 'e90',
  label: 'E90 (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: '90th percentile of |lowess curve − confidence| (Austin & Steyerberg 2019)',
  of: e90,
  compute: (context) => valueOf(context, 1, e90),
});

const emax = (s: ClinicalParts): number => s.loess.emax;
export const emaxMetric = defineMetric({
  key: 'emax',
  label: 'Emax (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'largest |lowess curve − confidence| (Austin & Steyerberg 2019)',
  of: emax,
  compute: (context) => valueOf(context, 1, emax),
});

const skceValue = (s: ClinicalParts): number => s.skce.skce;
export const skceMetric = defineMetric({
  key: 'skce',
  label: 'SKCE',
  percent: false,
  digits: 6,
  better: 'lower',
  scope: 'top-label',
  nullable: true,
  description: 'unbiased squared kernel calibration error, Laplacian kernel with the median bandwidth (Widmann et al. 2019)',
  of: skceValue,
  compute: (context) => valueOf(context, 2, skceValue),
  weighted: { refused: NOT_A_TEST_WEIGHT },
});

const skceP = (s: ClinicalParts): number => s.skce.pValue;
export const skcePMetric = defineMetric({
  key: 'skce_p',
  label: 'SKCE p-value',
  short: 'SKCE p',
  percent: false,
  better: 'none',
  scope: 'top-label',
  nullable: true,
  description: 'Monte Carlo p-value of the SKCE test, 1000 draws correct* ~ Bernoulli(confidence), seed 0 (Widmann et al. 2019)',
  of: skceP,
  compute: (context) => valueOf(context, 2, skceP),
  weighted: { refused: WEIGHTS_REFUSED_TEST },
});

/** The clinical entries of the record, in display order. */
export const CLINICAL_METRICS = [
  calibrationInTheLarge,
  calibrationSlope,
  calibrationSlopeError,
  calibrationIntercept,
  hosmerLemeshowStatistic,
  hosmerLemeshowP,
  iciMetric,
  e50Metric,
  e90Metric,
  emaxMetric,
  skceMetric,
  skcePMetric,
] as const;
