/**
 * Automatic choice of a calibrator (`calib fit --method auto`, `calib compare`; after probcal's CalibratorSelector
 * and scikit-learn's cross-validated calibration): every candidate method is fitted out of fold on the same
 * stratified folds (cross-validation.ts), ranked by a held-out metric (NLL by default, or ECE / Brier) of its
 * out-of-fold predictions, and compared with the best by the project's paired percentile bootstrap
 * (metrics/bootstrap.ts `bootstrapInterval` of the difference metric(candidate) − metric(best) on the same
 * resampled rows). Candidates whose interval contains 0 are tied with the best; the choice is the simplest of the
 * tied by SIMPLICITY_ORDER (fewest fitted parameters first), so a richer method must beat the simpler ones beyond
 * the bootstrap's noise to be chosen. The chosen method is then refitted on all rows.
 */
import { bootstrapInterval } from '../../metrics/bootstrap.js';
import { evaluateWeighted } from '../../metrics/weighted/weighted-evaluate.js';
import { InvalidArgumentError, describe, invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, Predictions } from '../calibrator.js';
import { CALIBRATOR_KINDS, CALIBRATORS, isCalibratorKind, type CalibratorKind } from '../calibrators.js';
import { crossValidate, stratifiedFolds, type OutOfFoldMetrics } from './cross-validation.js';
import { CvEnsembleCalibrator } from './cv-ensemble.js';
import { CalibrationFitError } from '../fit-error.js';
import { progressPart, type FitProgress } from '../fit-progress.js';
import { withFitRecord, type WeightsKind } from '../fit-record.js';

/** The metrics a choice can rank by. */
export const SELECTION_METRICS = ['nll', 'ece', 'brier'] as const;
export type SelectionMetric = (typeof SELECTION_METRICS)[number];

/**
 * Tie-break order, simplest first: by the number of fitted parameters (1: the temperature family; 2–4: binary
 * scalings and the temperature ensemble; O(C): class-wise temperatures, vector scaling, SVS; O(C·bins) or
 * data-sized: binning and isotonic maps; C² + C: matrix scaling, Dirichlet, SMS). Methods of one group keep the
 * CALIBRATORS record's order.
 */
export const SIMPLICITY_ORDER: readonly CalibratorKind[] = [
  'temperature',
  'ts-mix',
  'ts-grid-ece',
  'ts-hb-ece',
  'ts-sb-ece',
  'platt',
  'beta',
  'quadratic-scaling',
  'ensemble-temperature',
  'class-temperature',
  'vector',
  'svs',
  'top-versus-all',
  'top-label',
  'histogram',
  'scaling-binning',
  'spline',
  'isotonic',
  'near-isotonic',
  'bbq',
  'enir',
  'venn-abers',
  'matrix',
  'dirichlet',
  'sms',
];

/** Methods left out by default above a size (their fits are slow there); naming them in `candidates` includes them. */
export const SLOW_ABOVE: Readonly<Partial<Record<CalibratorKind, { readonly what: string; readonly limit: number; readonly size: (rows: number, classes: number) => number }>>> = {
  matrix: { what: 'C > 100 classes (C² + C parameters)', limit: 100, size: (_n, c) => c },
  dirichlet: { what: 'C > 100 classes (C² + C parameters)', limit: 100, size: (_n, c) => c },
  sms: { what: 'C > 100 classes (C² + C parameters)', limit: 100, size: (_n, c) => c },
  bbq: { what: 'N × C > 200,000 (one-vs-rest model averaging over many binnings)', limit: 200_000, size: (n, c) => n * c },
  enir: { what: 'N × C > 200,000 (one-vs-rest near-isotonic paths)', limit: 200_000, size: (n, c) => n * c },
  'near-isotonic': { what: 'N × C > 200,000 (one-vs-rest near-isotonic paths)', limit: 200_000, size: (n, c) => n * c },
  'venn-abers': { what: 'N × C > 200,000 (two isotonic fits per test row)', limit: 200_000, size: (n, c) => n * c },
};

/** One row of the ranking table. */
export interface CandidateResult {
  readonly method: CalibratorKind;
  /** 'ranked' (fitted out of fold), 'failed' (a fold's fit threw; `note` says why) or 'skipped' (`note`). */
  readonly status: 'ranked' | 'failed' | 'skipped';
  readonly metrics?: OutOfFoldMetrics;
  /** metric(candidate) − metric(best) and its paired-bootstrap interval (0, [0, 0] for the best). */
  readonly difference?: number;
  readonly lower?: number;
  readonly upper?: number;
  /** Whether the interval contains 0 (not distinguishable from the best). */
  readonly tied?: boolean;
  readonly note?: string;
}

/** Settings of a choice. */
export interface SelectionOptions {
  readonly metric?: SelectionMetric;
  /** Methods to consider (default: every applicable one, see `defaultCandidates`). */
  readonly candidates?: readonly string[];
  readonly folds?: number;
  readonly seed?: number;
  readonly bins?: number;
  /** Bootstrap resamples (default 200) and level (default 0.95). */
  readonly resamples?: number;
  readonly level?: number;
  readonly sampleWeights?: Float64Array;
  readonly weightsKind?: WeightsKind;
  readonly onProgress?: FitProgress;
  /** Argument names for messages (the CLI passes '--candidates', '--cv'). */
  readonly candidatesArgument?: string;
  readonly foldsArgument?: string;
}

/** The ranking and the choice. */
export interface Selection {
  readonly metric: SelectionMetric;
  readonly folds: number;
  readonly seed: number;
  readonly bins: number;
  readonly resamples: number;
  readonly level: number;
  /** Ranked rows by the metric (best first), then failed and skipped ones. */
  readonly table: readonly CandidateResult[];
  readonly chosen: CalibratorKind;
  readonly reason: string;
}

/** Whether `method` fits C classes (and takes weights when they are given). */
function applicability(method: CalibratorKind, classes: number, weighted: boolean): string | null {
  const d = CALIBRATORS[method];
  if (d.classes === 'two' && classes !== 2) return `binary only (${classes} classes)`;
  if (weighted && d.weights !== 'accepted') return `takes no sample weights: ${d.weights.refused}`;
  return null;
}

/** The default candidates for N rows and C classes: every applicable method, with the slow ones above SLOW_ABOVE skipped. */
export function defaultCandidates(rows: number, classes: number, weighted: boolean): { candidates: CalibratorKind[]; skipped: CandidateResult[] } {
  const candidates: CalibratorKind[] = [];
  const skipped: CandidateResult[] = [];
  for (const method of CALIBRATOR_KINDS) {
    const why = applicability(method, classes, weighted);
    const slow = SLOW_ABOVE[method];
    if (why) skipped.push({ method, status: 'skipped', note: why });
    else if (slow && slow.size(rows, classes) > slow.limit) skipped.push({ method, status: 'skipped', note: `slow above ${slow.what}; name it in the candidates to include it` });
    else candidates.push(method);
  }
  return { candidates, skipped };
}

/** Parse a candidate list (method names, each applicable), naming `argument`. */
export function requireCandidates(values: readonly string[], classes: number, weighted: boolean, argument: string): CalibratorKind[] {
  if (values.length === 0) invalidArgument(argument, 'at least one method', 'none');
  const out: CalibratorKind[] = [];
  for (const v of values) {
    if (!isCalibratorKind(v)) invalidArgument(argument, `method names among ${CALIBRATOR_KINDS.join(', ')}`, describe(v));
    const why = applicability(v, classes, weighted);
    if (why) invalidArgument(argument, 'methods applicable to these predictions', `${v}: ${why}`);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

/** Rank the candidates out of fold and choose (see the file comment). */
export function selectCalibrator(input: Predictions, labels: Int32Array, options: SelectionOptions = {}): Selection {
  const matrix = 'logits' in input ? input.logits : input.probabilities;
  const { rows, cols } = matrix;
  const metric = options.metric ?? 'nll';
  if (!SELECTION_METRICS.includes(metric)) invalidArgument('metric', `one of ${SELECTION_METRICS.join(', ')}`, describe(metric));
  const folds = options.folds ?? 5;
  const seed = options.seed ?? 0;
  const bins = options.bins ?? 15;
  const resamples = options.resamples ?? 200;
  const level = options.level ?? 0.95;
  const weighted = options.sampleWeights !== undefined;
  stratifiedFolds(labels, folds, seed, options.foldsArgument ?? 'folds');
  let candidates: CalibratorKind[];
  let skipped: CandidateResult[] = [];
  if (options.candidates) candidates = requireCandidates(options.candidates, cols, weighted, options.candidatesArgument ?? 'candidates');
  else ({ candidates, skipped } = defaultCandidates(rows, cols, weighted));
  const fitted: { method: CalibratorKind; metrics: OutOfFoldMetrics; outOfFold: Matrix<Float64Array> }[] = [];
  const failed: CandidateResult[] = [];
  candidates.forEach((method, c) => {
    try {
      const r = crossValidate(method, input, labels, undefined, {
        folds,
        seed,
        bins,
        final: 'ensemble',
        onProgress: progressPart(options.onProgress, c / candidates.length, (c + 1) / candidates.length),
        ...(options.sampleWeights && { sampleWeights: options.sampleWeights, weightsKind: options.weightsKind }),
      });
      fitted.push({ method, metrics: r.metrics, outOfFold: r.outOfFold });
    } catch (error) {
      if (!(error instanceof CalibrationFitError || error instanceof InvalidArgumentError)) throw error;
      failed.push({ method, status: 'failed', note: error.message });
    }
  });
  if (fitted.length === 0) invalidArgument(options.candidatesArgument ?? 'candidates', 'at least one method whose out-of-fold fits succeed', failed.map((f) => `${f.method}: ${f.note}`).join('; '));
  const value = (m: OutOfFoldMetrics) => (Number.isFinite(m[metric]) ? m[metric] : Infinity);
  fitted.sort((a, b) => value(a.metrics) - value(b.metrics) || SIMPLICITY_ORDER.indexOf(a.method) - SIMPLICITY_ORDER.indexOf(b.method));
  const best = fitted[0]!;
  // A resample's metric is the metric with integer weights = how often each row was drawn (weighted-evaluate.ts;
  // one pass computing only `metric`). The best's value on each resample is recorded once: every
  // bootstrapInterval call with one seed draws the same rows in the same order.
  const counts = new Float64Array(rows);
  const onResample = (m: Matrix<Float64Array>, idx: Int32Array): number => {
    counts.fill(0);
    for (let i = 0; i < idx.length; i++) counts[idx[i]!] = counts[idx[i]!]! + 1;
    return evaluateWeighted(m, labels, counts, { input: 'probabilities', bins, metrics: [metric] }).values[metric]!;
  };
  const bestValues: number[] = [];
  bootstrapInterval(
    rows,
    (idx) => {
      const v = onResample(best.outOfFold, idx);
      bestValues.push(v);
      return v;
    },
    { resamples, seed, level },
  );
  const ranked: CandidateResult[] = fitted.map((f, rank) => {
    if (rank === 0) return { method: f.method, status: 'ranked', metrics: f.metrics, difference: 0, lower: 0, upper: 0, tied: true };
    if (!Number.isFinite(f.metrics[metric])) return { method: f.method, status: 'ranked', metrics: f.metrics, tied: false, note: `non-finite held-out ${metric} (a zero probability on a true class)` };
    let call = 0;
    const ci = bootstrapInterval(rows, (idx) => onResample(f.outOfFold, idx) - bestValues[call++]!, { resamples, seed, level });
    return { method: f.method, status: 'ranked', metrics: f.metrics, difference: ci.estimate, lower: ci.lower, upper: ci.upper, tied: ci.lower <= 0 };
  });
  const tied = ranked.filter((r) => r.tied).map((r) => r.method);
  const chosen = [...tied].sort((a, b) => SIMPLICITY_ORDER.indexOf(a) - SIMPLICITY_ORDER.indexOf(b))[0]!;
  const pct = `${+(level * 100).toFixed(2)}%`;
  const show = (v: number) => (metric === 'ece' ? `${(v * 100).toFixed(2)}%` : v.toFixed(4));
  const chosenRow = ranked.find((r) => r.method === chosen)!;
  const reason =
    chosen === best.method
      ? tied.length === 1
        ? `${chosen} has the lowest out-of-fold ${metric} (${show(best.metrics[metric])}), and every other candidate's ${pct} paired-bootstrap interval of the difference lies above 0`
        : `${chosen} has the lowest out-of-fold ${metric} (${show(best.metrics[metric])}) and is the simplest of the ${tied.length} candidates tied with it (${tied.join(', ')})`
      : `${chosen}'s out-of-fold ${metric} (${show(chosenRow.metrics![metric])}) is within the ${pct} paired-bootstrap interval of the lowest (${best.method}, ${show(best.metrics[metric])}; ` +
        `difference ${show(chosenRow.difference!)} [${show(chosenRow.lower!)}, ${show(chosenRow.upper!)}]), and it is the simplest of the tied (${tied.join(', ')}) by fewest fitted parameters`;
  return { metric, folds, seed, bins, resamples, level, table: [...ranked, ...failed, ...skipped], chosen, reason };
}

/** The selection as plain JSON (for the calibrator's `fit.selection` and `calib compare --json`). */
export function selectionJson(s: Selection): Record<string, unknown> {
  const num = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? null : v);
  return {
    metric: s.metric,
    folds: s.folds,
    seed: s.seed,
    bins: s.bins,
    bootstrap: { resamples: s.resamples, level: s.level, seed: s.seed },
    chosen: s.chosen,
    reason: s.reason,
    ranking: s.table.map((r) => ({
      method: r.method,
      status: r.status,
      ...(r.metrics && { nll: num(r.metrics.nll), ece: num(r.metrics.ece), brier: num(r.metrics.brier) }),
      ...(r.difference !== undefined && { difference: num(r.difference), interval: [num(r.lower), num(r.upper)], tied: r.tied }),
      ...(r.difference === undefined && r.tied !== undefined && { tied: r.tied }),
      ...(r.note !== undefined && { note: r.note }),
    })),
  };
}

/**
 * `--method auto`: choose (selectCalibrator), then refit the chosen method on all rows (or average its fold
 * calibrators with `final: 'ensemble'`); the calibrator's JSON records the selection and the chosen method's cv.
 */
export function fitAuto(input: Predictions, labels: Int32Array, options: SelectionOptions & { readonly final?: 'refit' | 'ensemble' } = {}): { calibrator: Calibrator; selection: Selection } {
  const selection = selectCalibrator(input, labels, { ...options, onProgress: progressPart(options.onProgress, 0, 0.9) });
  const r = crossValidate(selection.chosen, input, labels, undefined, {
    folds: selection.folds,
    seed: selection.seed,
    bins: selection.bins,
    final: options.final ?? 'refit',
    onProgress: progressPart(options.onProgress, 0.9, 1),
    ...(options.sampleWeights && { sampleWeights: options.sampleWeights, weightsKind: options.weightsKind }),
  });
  return { calibrator: withSelection(r.calibrator, selectionJson(selection)), selection };
}

/** Add the selection record to a calibrator (a cv-ensemble keeps it in its own record). */
function withSelection(calibrator: Calibrator, selection: Record<string, unknown>): Calibrator {
  if (calibrator instanceof CvEnsembleCalibrator) return new CvEnsembleCalibrator(calibrator.members, { ...calibrator.record, selection });
  return withFitRecord(calibrator, { selection });
}
