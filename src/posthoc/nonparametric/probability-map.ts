/**
 * The `apply` of every calibrator that maps probabilities rather than logits (histogram, isotonic, scaling-binning,
 * Venn–Abers, spline, top-label, top-versus-all, BBQ, ENIR, near-isotonic): validate the input, take its
 * probabilities as a float64 copy (softmax of logits), transform them in place, return N × C. The three
 * multiclass reductions those methods share are here once:
 * - one-vs-rest: p_ik ← g_k(p_ik), then each row renormalised (a row of zeros becomes uniform, normalizeRowsInPlace);
 * - two classes: q = g(p_i1), the row becomes [1 − q, q];
 * - top label: recalibrateTopLabel (top-versus-all.ts) replaces the confidence and rescales the other classes.
 */
import type { Matrix } from '../../util/matrix.js';
import type { Predictions } from '../calibrator.js';
import { checkLabels, checkPredictions, normalizeRowsInPlace, probabilitiesOf } from '../predictions.js';

/** The validated `input`'s probabilities (a float64 copy) transformed in place by `transform`: N × C. */
export function mapProbabilities(input: Predictions, classes: number, transform: (p: Float64Array, rows: number, classes: number) => void): Matrix<Float64Array> {
  const checked = checkPredictions('input', input, classes);
  const { rows } = checked.matrix;
  const p = probabilitiesOf(checked);
  transform(p, rows, classes);
  return { rows, cols: classes, data: p };
}

/** One-vs-rest in place: p_ik ← map(p_ik, k), then every row renormalised to sum to 1. */
export function oneVsRestInPlace(p: Float64Array, rows: number, classes: number, map: (value: number, k: number) => number): void {
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < classes; k++) p[i * classes + k] = map(p[i * classes + k]!, k);
  }
  normalizeRowsInPlace(p, rows, classes);
}

/** Two classes in place: q = map(p_i1), the row becomes [1 − q, q]. */
export function binaryInPlace(p: Float64Array, rows: number, map: (p1: number) => number): void {
  for (let i = 0; i < rows; i++) {
    const q = map(p[2 * i + 1]!);
    p[2 * i] = 1 - q;
    p[2 * i + 1] = q;
  }
}

/** The fitting data of a probability-space calibrator: validated predictions and labels, probabilities as float64. */
export function fittingProbabilities(input: Predictions, labels: Int32Array): { p: Float64Array; rows: number; cols: number } {
  const checked = checkPredictions('input', input);
  const { rows, cols } = checked.matrix;
  checkLabels('labels', labels, rows, cols);
  return { p: probabilitiesOf(checked), rows, cols };
}
