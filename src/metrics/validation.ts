import { describe, invalidArgument } from '../util/errors.js';
import type { FloatArray, Matrix } from '../util/matrix.js';

/**
 * Input checks of the metrics layer. Every message names the argument, the expectation and the first offending
 * value with its position (0-based row/column), e.g. `predictions: expected finite values, got NaN at row 3,
 * column 1`.
 */

/** Probability rows must sum to 1 within this absolute tolerance (= relative, the target being 1). */
export const PROBABILITY_SUM_TOLERANCE = 1e-3;

/** What a prediction matrix holds: raw scores (softmax applied here) or probabilities (used as given). */
export type PredictionKind = 'logits' | 'probabilities';

/** Class labels, one per row: integers in [0, C). */
export type Labels = Int32Array | ArrayLike<number>;

export function requirePredictionKind(kind: unknown, argument = 'input'): PredictionKind {
  if (kind !== 'logits' && kind !== 'probabilities') invalidArgument(argument, "'logits' or 'probabilities'", describe(kind));
  return kind;
}

/** A Matrix with integer rows ≥ 0, cols ≥ 2 and a Float32Array/Float64Array of length rows × cols. */
export function requireMatrix(m: Matrix, argument = 'predictions'): void {
  if (m === null || typeof m !== 'object') invalidArgument(argument, 'a Matrix {rows, cols, data}', describe(m));
  const { rows, cols, data } = m;
  if (!(data instanceof Float32Array || data instanceof Float64Array)) invalidArgument(`${argument}.data`, 'a Float32Array or Float64Array', describe(data));
  if (!Number.isInteger(rows) || rows < 0) invalidArgument(`${argument}.rows`, 'a non-negative integer', describe(rows));
  if (!Number.isInteger(cols) || cols < 2) invalidArgument(`${argument}.cols`, 'at least 2 classes (columns)', describe(cols));
  if (data.length !== rows * cols) invalidArgument(`${argument}.data`, `${rows} × ${cols} = ${rows * cols} values`, describe(data));
}

/** Labels: same count as rows, integers in [0, classes). */
export function requireLabels(labels: Labels, rows: number, classes: number, argument = 'labels', offset = 0): void {
  if (labels === null || typeof labels !== 'object' || typeof (labels as ArrayLike<number>).length !== 'number') invalidArgument(argument, 'an Int32Array or array of class indices', describe(labels));
  if (labels.length !== rows) invalidArgument(argument, `${rows} labels, one per row of predictions`, `${labels.length}`);
  const typed = labels instanceof Int32Array;
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i]!;
    if ((!typed && !Number.isInteger(y)) || y < 0 || y >= classes) invalidArgument(argument, `integer class labels in [0, ${classes})`, `${describe(y)} at index ${offset + i}`);
  }
}

/**
 * A predictions matrix with its labels, checked in this order (the first failure throws): `requireMatrix`, at least
 * one row when `nonEmpty`, exactly `classes` columns when given, `requirePredictionValues` of `kind`, `requireLabels`.
 */
export function requirePredictionsAndLabels(predictions: Matrix, labels: Labels, kind: PredictionKind, options: { readonly nonEmpty?: boolean; readonly classes?: number } = {}): void {
  requireMatrix(predictions);
  if (options.nonEmpty && predictions.rows < 1) invalidArgument('predictions', 'at least one sample', '0 samples');
  if (options.classes !== undefined && predictions.cols !== options.classes) invalidArgument('predictions.cols', `${options.classes} classes`, describe(predictions.cols));
  requirePredictionValues(predictions, kind);
  requireLabels(labels, predictions.rows, predictions.cols);
}

/**
 * Prediction values: every entry finite; for probabilities also ≥ 0 with each row summing to 1 within
 * `PROBABILITY_SUM_TOLERANCE`. Entries of exactly 0 and 1 are valid. `rowOffset` shifts reported rows.
 */
export function requirePredictionValues(m: Matrix, kind: PredictionKind, argument = 'predictions', rowOffset = 0): void {
  const { rows, cols, data } = m;
  for (let i = 0; i < rows; i++) {
    const off = i * cols;
    let sum = 0;
    let negative = false;
    for (let k = 0; k < cols; k++) {
      const v = data[off + k]!;
      sum += v - v; // NaN for NaN and ±Infinity, 0 otherwise
      if (v < 0) negative = true;
    }
    if (sum !== 0) {
      for (let k = 0; k < cols; k++) {
        const v = data[off + k]!;
        if (!Number.isFinite(v)) invalidArgument(argument, 'finite values', `${describe(v)} at row ${rowOffset + i}, column ${k}`);
      }
    }
    if (kind === 'logits') continue;
    if (negative) {
      for (let k = 0; k < cols; k++) {
        const v = data[off + k]!;
        if (v < 0) invalidArgument(argument, `non-negative probabilities${logitsHint(argument, '')}`, `${describe(v)} at row ${rowOffset + i}, column ${k}`);
      }
    }
    let total = 0;
    for (let k = 0; k < cols; k++) total += data[off + k]!;
    if (Math.abs(total - 1) > PROBABILITY_SUM_TOLERANCE)
      invalidArgument(
        argument,
        `probability rows summing to 1 (within ${PROBABILITY_SUM_TOLERANCE})${logitsHint(argument, "; pass logits with input: 'logits'")}`,
        `a sum of ${describe(total)} in row ${rowOffset + i}`,
      );
  }
}

/**
 * Top-label inputs of the array-level functions: confidences c_i ∈ [0, 1] (finite) and correctness a_i ∈ {0, 1},
 * same length N ≥ 1 (shapes [N], [N]).
 */
export function requireTopLabel(confidence: FloatArray, correct: Uint8Array, argument = 'confidence'): void {
  if (!(confidence instanceof Float32Array || confidence instanceof Float64Array)) invalidArgument(argument, 'a Float32Array or Float64Array', describe(confidence));
  if (!(correct instanceof Uint8Array)) invalidArgument('correct', 'a Uint8Array of 0/1', describe(correct));
  if (confidence.length === 0) invalidArgument(argument, 'at least one sample', '0 samples');
  if (correct.length !== confidence.length) invalidArgument('correct', `${confidence.length} values, one per confidence`, `${correct.length}`);
  requireUnitInterval(confidence, argument);
  for (let i = 0; i < correct.length; i++) {
    const a = correct[i]!;
    if (a > 1) invalidArgument('correct', '0 or 1', `${a} at index ${i}`);
  }
}

/** Every value finite and in [0, 1]. */
export function requireUnitInterval(values: FloatArray, argument: string): void {
  for (let i = 0; i < values.length; i++) {
    const c = values[i]!;
    if (!(c >= 0 && c <= 1)) invalidArgument(argument, 'values in [0, 1]', `${describe(c)} at index ${i}`);
  }
}

/** Finite scores (for AUROC), N ≥ 1. */
export function requireFiniteScores(values: FloatArray, argument: string): void {
  if (!(values instanceof Float32Array || values instanceof Float64Array)) invalidArgument(argument, 'a Float32Array or Float64Array', describe(values));
  if (values.length === 0) invalidArgument(argument, 'at least one score', '0 scores');
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) invalidArgument(argument, 'finite scores', `${describe(v)} at index ${i}`);
  }
}

/**
 * How to pass logits instead, for messages about invalid probabilities: the CLI flag when the argument is one
 * (e.g. '--probs'), else `libraryHint`.
 */
function logitsHint(argument: string, libraryHint: string): string {
  return argument.startsWith('--') ? ' (for logits use --logits)' : libraryHint;
}
