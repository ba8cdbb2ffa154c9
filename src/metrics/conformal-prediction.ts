import { classScores, requireConformalMethod, type ConformalMethod, type ConformalScoreOptions } from './conformal-scores.js';
import { requireLabels, requirePredictionValues } from './validation.js';
import { invalidArgument, requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';

/**
 * Split-conformal prediction sets (Vovk et al. 2005; Angelopoulos & Bates 2021, "A gentle introduction to
 * conformal prediction", §1): on a calibration split of n samples, the scores s_i = s(x_i, y_i)
 * (conformal-scores.ts); q̂ = the ⌈(n + 1)(1 − α)⌉-th smallest s_i (+∞ when that exceeds n); the set of a new x
 * is {k : s(x, k) ≤ q̂}, which contains the true class with probability ≥ 1 − α (marginally, exchangeable data).
 * Metrics on a test split: empirical coverage, mean set size, and the fraction of empty sets. Fitting needs
 * all calibration scores (one quantile); applying is row by row (streaming). Inputs are probabilities N × C.
 */
export interface ConformalPredictor {
  readonly method: ConformalMethod;
  /** Miscoverage level α. */
  readonly alpha: number;
  readonly lambda: number;
  readonly kReg: number;
  /** The calibrated threshold q̂ (Infinity when n is too small for 1 − α). */
  readonly threshold: number;
  /** Calibration samples n. */
  readonly n: number;
}

export interface ConformalFitOptions {
  readonly method: ConformalMethod;
  readonly alpha?: number;
  readonly lambda?: number;
  readonly kReg?: number;
}

function scoreOptions(options: ConformalFitOptions | ConformalPredictor): ConformalScoreOptions {
  return { method: options.method, lambda: options.lambda ?? 0.01, kReg: options.kReg ?? 5 };
}

/** Fit q̂ on calibration probabilities N × C and labels [N]. */
export function fitConformal(probabilities: Matrix, labels: ArrayLike<number>, options: ConformalFitOptions): ConformalPredictor {
  const method = requireConformalMethod(options.method);
  const alpha = requireNumber('alpha', options.alpha ?? 0.1, { min: 0, exclusiveMin: true, max: 1, exclusiveMax: true });
  const lambda = requireNumber('lambda', options.lambda ?? 0.01, { min: 0 });
  const kReg = requireNumber('kReg', options.kReg ?? 5, { integer: true, min: 0 });
  requirePredictionValues(probabilities, 'probabilities', 'probabilities');
  const { rows: n, cols } = probabilities;
  requireLabels(labels, n, cols, 'labels');
  if (n === 0) invalidArgument('probabilities', 'at least one calibration sample', '0 rows');
  const opts = scoreOptions({ method, lambda, kReg });
  const row = new Float64Array(cols);
  const order = new Uint32Array(cols);
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    classScores(probabilities.data, i * cols, cols, opts, row, order);
    scores[i] = row[labels[i]!]!;
  }
  return { method, alpha, lambda, kReg, threshold: conformalQuantile(scores, alpha), n };
}

/**
 * q̂ of n calibration scores: the ⌈(n + 1)(1 − α)⌉-th smallest, +∞ when that rank exceeds n (fewer than
 * ⌈1/α⌉ − 1 scores, or none). Sorts `scores` in place.
 */
export function conformalQuantile(scores: Float64Array, alpha: number): number {
  const n = scores.length;
  scores.sort();
  const rank = Math.ceil((n + 1) * (1 - alpha));
  return rank > n ? Infinity : scores[rank - 1]!;
}

/** Prediction sets of probabilities N × C as a 0/1 mask N × C. */
export function predictionSets(probabilities: Matrix, predictor: ConformalPredictor): Uint8Array {
  requirePredictionValues(probabilities, 'probabilities', 'probabilities');
  const { rows, cols } = probabilities;
  const mask = new Uint8Array(rows * cols);
  const opts = scoreOptions(predictor);
  const row = new Float64Array(cols);
  const order = new Uint32Array(cols);
  for (let i = 0; i < rows; i++) {
    classScores(probabilities.data, i * cols, cols, opts, row, order);
    for (let k = 0; k < cols; k++) if (row[k]! <= predictor.threshold) mask[i * cols + k] = 1;
  }
  return mask;
}

export interface ConformalMetrics {
  /** Fraction of samples whose set contains the label. */
  readonly coverage: number;
  /** Mean number of classes per set. */
  readonly meanSetSize: number;
  /** Fraction of empty sets. */
  readonly emptySets: number;
}

/** Coverage and set size of the predictor on test probabilities N × C with labels [N]. */
export function conformalMetrics(probabilities: Matrix, labels: ArrayLike<number>, predictor: ConformalPredictor): ConformalMetrics {
  const mask = predictionSets(probabilities, predictor);
  const { rows, cols } = probabilities;
  requireLabels(labels, rows, cols, 'labels');
  let covered = 0;
  let size = 0;
  let empty = 0;
  for (let i = 0; i < rows; i++) {
    covered += mask[i * cols + labels[i]!]!;
    let s = 0;
    for (let k = 0; k < cols; k++) s += mask[i * cols + k]!;
    size += s;
    if (s === 0) empty++;
  }
  return { coverage: covered / rows, meanSetSize: size / rows, emptySets: empty / rows };
}
