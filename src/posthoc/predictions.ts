/**
 * Validation and conversion of calibrator inputs (`Predictions`): logits ↔ probabilities, in float64.
 *
 * - logits → probabilities: stable softmax p_k = exp(z_k − max z) / Σ_j exp(z_j − max z).
 * - logits → log-probabilities: log-softmax z_k − max z − log Σ_j exp(z_j − max z) (exact, no clipping).
 * - probabilities → logits or log-probabilities: log max(p, 2.2250738585072014e-308) (the smallest normal
 *   float64, as `clip_for_log` in the Dirichlet-calibration reference code), so log 0 becomes −708.4.
 *
 * Shapes: every matrix is N × C row-major with C ≥ 2; labels are an Int32Array of length N with values in [0, C).
 */
import { PROBABILITY_SUM_TOLERANCE, requirePredictionValues } from '../metrics/validation.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { FloatArray, Matrix } from '../util/matrix.js';

/** Smallest positive normal float64; probabilities are clipped to it before taking logs. */
export const LOG_CLIP = 2.2250738585072014e-308;

/** Largest tolerated |Σ_k p_k − 1| for a row of input probabilities (the metrics layer's constant). */
export const ROW_SUM_TOLERANCE = PROBABILITY_SUM_TOLERANCE;

/** Validated predictions: what the input is, and its matrix. */
export interface CheckedPredictions {
  readonly kind: 'logits' | 'probabilities';
  readonly matrix: Matrix;
}

/**
 * Validate `input` as `{ logits: Matrix }` or `{ probabilities: Matrix }` with N ≥ 1 rows and `classes` columns
 * (or any C ≥ 2 when `classes` is undefined); values are checked by the metrics layer's
 * `requirePredictionValues` (finite; probabilities non-negative with rows summing to 1 within 1e−3).
 * Throws `InvalidArgumentError` naming `argument`.
 */
export function checkPredictions(argument: string, input: unknown, classes?: number): CheckedPredictions {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    invalidArgument(argument, 'an object { logits: Matrix } or { probabilities: Matrix }', describe(input));
  }
  const record = input as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 1 || (keys[0] !== 'logits' && keys[0] !== 'probabilities')) {
    invalidArgument(argument, 'exactly one key, "logits" or "probabilities"', `keys [${keys.join(', ')}]`);
  }
  const kind = keys[0] as 'logits' | 'probabilities';
  const name = `${argument}.${kind}`;
  const m = record[kind] as Matrix | undefined;
  if (typeof m !== 'object' || m === null) invalidArgument(name, 'a Matrix { rows, cols, data }', describe(m));
  const { rows, cols, data } = m;
  if (!Number.isInteger(rows) || rows < 1) invalidArgument(`${name}.rows`, 'an integer ≥ 1', describe(rows));
  if (!Number.isInteger(cols) || cols < 2) invalidArgument(`${name}.cols`, 'an integer ≥ 2 (classes)', describe(cols));
  if (!(data instanceof Float32Array || data instanceof Float64Array)) {
    invalidArgument(`${name}.data`, 'a Float32Array or Float64Array', describe(data));
  }
  if (data.length !== rows * cols) {
    invalidArgument(`${name}.data`, `length rows × cols = ${rows * cols}`, `length ${data.length}`);
  }
  if (classes !== undefined && cols !== classes) {
    invalidArgument(`${name}.cols`, `${classes} (the number of classes the calibrator was fitted for)`, String(cols));
  }
  if (kind === 'logits') {
    // Branch-free scan (v − v is NaN exactly for NaN and ±∞); the metrics validator then words the error.
    let acc = 0;
    for (let i = 0; i < data.length; i++) acc += data[i]! - data[i]!;
    if (acc !== 0) requirePredictionValues(m, kind, name);
  } else {
    requirePredictionValues(m, kind, name);
  }
  return { kind, matrix: m };
}

/** Validate labels: an Int32Array of length `rows` with values in [0, classes). */
export function checkLabels(argument: string, labels: unknown, rows: number, classes: number): Int32Array {
  if (!(labels instanceof Int32Array)) invalidArgument(argument, 'an Int32Array', describe(labels));
  if (labels.length !== rows) invalidArgument(argument, `length ${rows} (one label per row)`, `length ${labels.length}`);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i]!;
    if (y < 0 || y >= classes) invalidArgument(`${argument}[${i}]`, `a class index in [0, ${classes})`, String(y));
  }
  return labels;
}

/** Logits as float64 (N × C): logits are copied, probabilities become log max(p, LOG_CLIP). */
export function logitsOf(input: CheckedPredictions): Float64Array {
  const src = input.matrix.data;
  const out = new Float64Array(src.length);
  if (input.kind === 'logits') out.set(src);
  else for (let i = 0; i < src.length; i++) out[i] = Math.log(Math.max(src[i]!, LOG_CLIP));
  return out;
}

/**
 * Validated fitting data of the temperature family: the logits (as given, or log max(p, LOG_CLIP) for
 * probabilities), N × C, with the labels checked against them. Errors name 'input' / 'labels'.
 */
export function logitFitData(input: unknown, labels: unknown): { logits: FloatArray; rows: number; cols: number } {
  const checked = checkPredictions('input', input);
  const { rows, cols } = checked.matrix;
  checkLabels('labels', labels, rows, cols);
  return { logits: checked.kind === 'logits' ? checked.matrix.data : logitsOf(checked), rows, cols };
}

/** Log-probabilities as float64 (N × C): log-softmax of logits, or log max(p, LOG_CLIP) of probabilities. */
export function logProbabilitiesOf(input: CheckedPredictions): Float64Array {
  const { rows, cols, data } = input.matrix;
  const out = new Float64Array(data.length);
  if (input.kind === 'probabilities') {
    for (let i = 0; i < data.length; i++) out[i] = Math.log(Math.max(data[i]!, LOG_CLIP));
    return out;
  }
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let max = -Infinity;
    for (let k = 0; k < cols; k++) if (data[o + k]! > max) max = data[o + k]!;
    let sum = 0;
    for (let k = 0; k < cols; k++) sum += Math.exp(data[o + k]! - max);
    const shift = max + Math.log(sum);
    for (let k = 0; k < cols; k++) out[o + k] = data[o + k]! - shift;
  }
  return out;
}

/** Probabilities as float64 (N × C): softmax of logits, or a float64 copy of probabilities. */
export function probabilitiesOf(input: CheckedPredictions): Float64Array {
  const { rows, cols, data } = input.matrix;
  const out = new Float64Array(data.length);
  out.set(data);
  if (input.kind === 'logits') softmaxRowsInPlace(out, rows, cols);
  return out;
}

/** Replace each row of `values` (rows × cols) by its softmax, stably (max subtracted). */
export function softmaxRowsInPlace(values: Float64Array, rows: number, cols: number): Float64Array {
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let max = -Infinity;
    for (let k = 0; k < cols; k++) if (values[o + k]! > max) max = values[o + k]!;
    let sum = 0;
    for (let k = 0; k < cols; k++) {
      const e = Math.exp(values[o + k]! - max);
      values[o + k] = e;
      sum += e;
    }
    const inv = 1 / sum;
    for (let k = 0; k < cols; k++) values[o + k]! *= inv;
  }
  return values;
}

/**
 * Divide each row of non-negative `values` (rows × cols) by its sum; a row summing to 0 becomes uniform 1/C
 * (as scikit-learn's CalibratedClassifierCV does for one-vs-rest calibrators).
 */
export function normalizeRowsInPlace(values: Float64Array, rows: number, cols: number): Float64Array {
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let sum = 0;
    for (let k = 0; k < cols; k++) sum += values[o + k]!;
    if (sum > 0) {
      const inv = 1 / sum;
      for (let k = 0; k < cols; k++) values[o + k]! *= inv;
    } else {
      for (let k = 0; k < cols; k++) values[o + k] = 1 / cols;
    }
  }
  return values;
}

/**
 * Throw `InvalidArgumentError` naming the calibrator's `parameter` when a calibrated output is not finite (e.g.
 * logits z / T that overflow float64 for a tiny T): a calibrator never returns NaN or ±∞ silently.
 */
export function requireFiniteOutput(data: Float64Array, cols: number, kind: string, parameter: string): void {
  for (let i = 0; i < data.length; i++) {
    if (!Number.isFinite(data[i]!)) {
      invalidArgument(`${kind} calibrator`, `parameters that give finite outputs on these inputs`, `${describe(data[i])} at row ${Math.floor(i / cols)}, column ${i % cols} (${parameter})`);
    }
  }
}
