import { classScores, requireConformalMethod, type ConformalMethod, type ConformalScoreOptions } from './conformal-scores.js';
import { conformalQuantile } from './conformal-prediction.js';
import { requireLabels, requirePredictionValues } from './validation.js';
import { invalidArgument, requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';

/**
 * Mondrian (category-conditional) split-conformal prediction sets (Vovk et al. 2005, "Algorithmic learning in a
 * random world", Mondrian conformal predictors; Vovk 2012, "Conditional validity of inductive conformal
 * predictors" — neither read offline here, so no section is cited). The calibration rows are split into
 * categories and each category c gets its own threshold q̂_c = the ⌈(n_c + 1)(1 − α)⌉-th smallest score of its
 * n_c rows (+∞ when that rank exceeds n_c), so that coverage holds within every category:
 *   - 'class' (label-conditional): the category of (x, k) is the candidate class k; the set of x is
 *     {k : s(x, k) ≤ q̂_k} with q̂_k from the calibration rows of true class k, and P(y ∈ C(x) | y = k) ≥ 1 − α for
 *     every class k (exchangeable rows of that class).
 *   - 'group': the category of x is its group g (known for every row); the set is {k : s(x, k) ≤ q̂_g} with q̂_g
 *     from the calibration rows of group g, and coverage ≥ 1 − α within every group.
 *   - 'group-class': the category of (x, k) is the pair (group g of x, candidate class k); q̂_{g,k} from the
 *     calibration rows of group g with true class k, the set {k : s(x, k) ≤ q̂_{g(x),k}}, and
 *     P(y ∈ C(x) | g(x) = g, y = k) ≥ 1 − α for every cell with its own threshold (the Mondrian taxonomy
 *     κ(x, y) = (g(x), y): exchangeable rows within the cell). A cell with fewer than `minCellSize` calibration
 *     rows (at least `minimumCalibrationRows(α)`) falls back to the class-conditional q̂_k of all calibration rows
 *     of class k (`fallback` marks it): its rows then have no within-cell guarantee — q̂_k's guarantee is for
 *     class k over all groups — and are reported as such.
 * A category with fewer than `minimumCalibrationRows(α)` rows (or none, e.g. a group absent from the calibration
 * split) has q̂ = +∞: its class is in every set, or every set of its group holds every class.
 * Scores as in conformal-scores.ts (LAC, APS, RAPS); inputs are probabilities N × C.
 */

export type MondrianTaxonomy = 'class' | 'group' | 'group-class';

export interface MondrianConformalPredictor {
  readonly taxonomy: MondrianTaxonomy;
  readonly method: ConformalMethod;
  readonly alpha: number;
  readonly lambda: number;
  readonly kReg: number;
  /** q̂ per category (class k or group g; +∞ when the category has too few calibration rows). */
  readonly thresholds: Float64Array;
  /** Calibration rows per category. */
  readonly counts: Int32Array;
  /** 'group-class': 1 where the cell (g·C + k) uses the class-conditional q̂_k (fewer than `minCellSize` rows). */
  readonly fallback?: Uint8Array;
  readonly minCellSize?: number;
}

export interface MondrianFitOptions {
  readonly method: ConformalMethod;
  readonly alpha?: number;
  readonly lambda?: number;
  readonly kReg?: number;
}

/** The smallest number of calibration rows whose q̂ is finite at level α: the least n with ⌈(n + 1)(1 − α)⌉ ≤ n. */
export function minimumCalibrationRows(alpha: number): number {
  let n = Math.max(0, Math.ceil(1 / alpha) - 3);
  while (Math.ceil((n + 1) * (1 - alpha)) > n) n++;
  return n;
}

function requireOptions(options: MondrianFitOptions): { alpha: number; score: ConformalScoreOptions } {
  const method = requireConformalMethod(options.method);
  const alpha = requireNumber('alpha', options.alpha ?? 0.1, { min: 0, exclusiveMin: true, max: 1, exclusiveMax: true });
  const lambda = requireNumber('lambda', options.lambda ?? 0.01, { min: 0 });
  const kReg = requireNumber('kReg', options.kReg ?? 5, { integer: true, min: 0 });
  return { alpha, score: { method, lambda, kReg } };
}

/** Group index per row: integers in [0, groupCount), one per row. */
function requireGroupIndex(groups: Int32Array, rows: number, groupCount: number, argument: string): void {
  if (groups.length !== rows) invalidArgument(argument, `${rows} group indices, one per row`, `${groups.length}`);
  for (let i = 0; i < rows; i++) {
    const g = groups[i]!;
    if (!(g >= 0 && g < groupCount)) invalidArgument(argument, `group indices in [0, ${groupCount})`, `${g} at row ${i}`);
  }
}

/**
 * Fit one q̂ per category on calibration probabilities N × C and labels [N]: per true class (`taxonomy: 'class'`),
 * or per group (`taxonomy: 'group'` with `groups` = a group index in [0, groupCount) per row).
 */
export function fitMondrianConformal(
  probabilities: Matrix,
  labels: ArrayLike<number>,
  options: MondrianFitOptions &
    (
      | { readonly taxonomy: 'class' }
      | { readonly taxonomy: 'group'; readonly groups: Int32Array; readonly groupCount: number }
      | { readonly taxonomy: 'group-class'; readonly groups: Int32Array; readonly groupCount: number; readonly minCellSize?: number }
    ),
): MondrianConformalPredictor {
  const { alpha, score } = requireOptions(options);
  requirePredictionValues(probabilities, 'probabilities', 'probabilities');
  const { rows: n, cols } = probabilities;
  requireLabels(labels, n, cols, 'labels');
  const groupCount = options.taxonomy === 'class' ? 1 : requireNumber('groupCount', options.groupCount, { integer: true, min: 1 });
  if (options.taxonomy !== 'class') requireGroupIndex(options.groups, n, groupCount, 'groups');
  const categories = options.taxonomy === 'class' ? cols : options.taxonomy === 'group' ? groupCount : groupCount * cols;
  const categoryOf = (i: number): number => (options.taxonomy === 'class' ? labels[i]! : options.taxonomy === 'group' ? options.groups[i]! : options.groups[i]! * cols + labels[i]!);
  const counts = new Int32Array(categories);
  for (let i = 0; i < n; i++) counts[categoryOf(i)]!++;
  const scores = Array.from(counts, (c) => new Float64Array(c));
  const filled = new Int32Array(categories);
  const row = new Float64Array(cols);
  const order = new Uint32Array(cols);
  for (let i = 0; i < n; i++) {
    classScores(probabilities.data, i * cols, cols, score, row, order);
    const c = categoryOf(i);
    scores[c]![filled[c]!++] = row[labels[i]!]!;
  }
  const thresholds = Float64Array.from(scores, (s) => conformalQuantile(s, alpha));
  const base = { taxonomy: options.taxonomy, method: score.method, alpha, lambda: score.lambda!, kReg: score.kReg!, thresholds, counts };
  if (options.taxonomy !== 'group-class') return base;
  const needed = minimumCalibrationRows(alpha);
  const minCellSize = Math.max(needed, requireNumber('minCellSize', options.minCellSize ?? needed, { integer: true, min: 1 }));
  // Class-conditional q̂_k over every group's rows of class k, for the cells below minCellSize.
  const byClass = Array.from({ length: cols }, (_, k) => {
    const all: number[] = [];
    for (let g = 0; g < groupCount; g++) all.push(...scores[g * cols + k]!);
    return conformalQuantile(Float64Array.from(all), alpha);
  });
  const fallback = new Uint8Array(categories);
  for (let c = 0; c < categories; c++) {
    if (counts[c]! < minCellSize) {
      fallback[c] = 1;
      thresholds[c] = byClass[c % cols]!;
    }
  }
  return { ...base, fallback, minCellSize };
}

/** Prediction sets as a 0/1 mask N × C; `groups` (a group index per row) for a group-conditional predictor. */
export function mondrianPredictionSets(probabilities: Matrix, predictor: MondrianConformalPredictor, groups?: Int32Array): Uint8Array {
  requirePredictionValues(probabilities, 'probabilities', 'probabilities');
  const { rows, cols } = probabilities;
  if (predictor.taxonomy === 'class' && predictor.thresholds.length !== cols) invalidArgument('probabilities', `${predictor.thresholds.length} columns (classes)`, `${cols}`);
  if (predictor.taxonomy !== 'class') {
    if (!groups) invalidArgument('groups', 'a group index per row (the predictor is group-conditional)', 'none');
    const groupCount = predictor.taxonomy === 'group' ? predictor.thresholds.length : predictor.thresholds.length / cols;
    if (!Number.isInteger(groupCount)) invalidArgument('probabilities', `columns dividing the ${predictor.thresholds.length} group × class cells`, `${cols}`);
    requireGroupIndex(groups, rows, groupCount, 'groups');
  }
  const mask = new Uint8Array(rows * cols);
  const opts: ConformalScoreOptions = { method: predictor.method, lambda: predictor.lambda, kReg: predictor.kReg };
  const row = new Float64Array(cols);
  const order = new Uint32Array(cols);
  for (let i = 0; i < rows; i++) {
    classScores(probabilities.data, i * cols, cols, opts, row, order);
    for (let k = 0; k < cols; k++) {
      const q = predictor.taxonomy === 'class' ? predictor.thresholds[k]! : predictor.taxonomy === 'group' ? predictor.thresholds[groups![i]!]! : predictor.thresholds[groups![i]! * cols + k]!;
      if (row[k]! <= q) mask[i * cols + k] = 1;
    }
  }
  return mask;
}

export interface CategoryMetrics {
  /** Test rows of the category (true class k, group g, or group g with true class k). */
  readonly n: number;
  /** Fraction of those rows whose set holds the label (NaN when n = 0). */
  readonly coverage: number;
  /** Mean set size over those rows (NaN when n = 0). */
  readonly meanSetSize: number;
}

export interface MondrianConformalMetrics {
  readonly coverage: number;
  readonly meanSetSize: number;
  readonly emptySets: number;
  /** Per category (true class, or group) of the test rows. */
  readonly perCategory: readonly CategoryMetrics[];
}

/** Coverage and set size on test probabilities N × C with labels [N], overall and per category. */
export function mondrianConformalMetrics(probabilities: Matrix, labels: ArrayLike<number>, predictor: MondrianConformalPredictor, groups?: Int32Array): MondrianConformalMetrics {
  const mask = mondrianPredictionSets(probabilities, predictor, groups);
  const { rows, cols } = probabilities;
  requireLabels(labels, rows, cols, 'labels');
  const categories = predictor.thresholds.length;
  const n = new Float64Array(categories);
  const covered = new Float64Array(categories);
  const sizes = new Float64Array(categories);
  let empty = 0;
  for (let i = 0; i < rows; i++) {
    const c = predictor.taxonomy === 'class' ? labels[i]! : predictor.taxonomy === 'group' ? groups![i]! : groups![i]! * cols + labels[i]!;
    let s = 0;
    for (let k = 0; k < cols; k++) s += mask[i * cols + k]!;
    n[c]!++;
    covered[c]! += mask[i * cols + labels[i]!]!;
    sizes[c]! += s;
    if (s === 0) empty++;
  }
  const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
  return {
    coverage: sum(covered) / rows,
    meanSetSize: sum(sizes) / rows,
    emptySets: empty / rows,
    perCategory: Array.from(n, (m, c) => ({ n: m, coverage: covered[c]! / m, meanSetSize: sizes[c]! / m })),
  };
}
