import { requireMatrix, requirePredictionValues } from '../validation.js';
import type { FloatArray, Matrix } from '../../util/matrix.js';

/**
 * Numerically stable softmax pieces (METHODS.md notation: p = softmax(z)). With m = max_k z_k:
 * p_k = exp(z_k − m) / s, s = Σ_k exp(z_k − m) ∈ [1, C], log p_k = (z_k − m) − log s.
 * Subtracting the max keeps every exp argument ≤ 0, so logits of magnitude 1e3 (or 1e300) neither overflow
 * nor lose the log-probabilities; p_k underflows to exactly 0 only when z_k − m < −745.
 */

/** max_k z[offset + k] over one row of `classes` values. */
export function rowMax(z: FloatArray, offset: number, classes: number): number {
  let m = z[offset]!;
  for (let k = 1; k < classes; k++) {
    const v = z[offset + k]!;
    if (v > m) m = v;
  }
  return m;
}

/** Writes e_k = exp(z_k − m) into out[0..C) and returns s = Σ_k e_k (≥ 1 when m is the row max). */
export function expShifted(z: FloatArray, offset: number, classes: number, m: number, out: Float64Array): number {
  let s = 0;
  for (let k = 0; k < classes; k++) {
    const e = Math.exp(z[offset + k]! - m);
    out[k] = e;
    s += e;
  }
  return s;
}

/**
 * Validate `logits` (N × C, finite) and build an N × C float64 matrix row by row: for the row at offset `off`,
 * e_k = exp(z_k − m) goes to `e` (m the row max, s = Σ_k e_k) and `write` fills out[off .. off + C).
 */
function mapShiftedRows(logits: Matrix, write: (out: Float64Array, off: number, e: Float64Array, m: number, s: number) => void): Matrix<Float64Array> {
  requireMatrix(logits, 'logits');
  requirePredictionValues(logits, 'logits', 'logits');
  const { rows, cols, data } = logits;
  const out = new Float64Array(rows * cols);
  const e = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const off = i * cols;
    const m = rowMax(data, off, cols);
    write(out, off, e, m, expShifted(data, off, cols, m, e));
  }
  return { rows, cols, data: out };
}

/** Row-wise softmax of an N × C logit matrix (finite values), float64 output of the same shape. */
export function softmax(logits: Matrix): Matrix<Float64Array> {
  return mapShiftedRows(logits, (out, off, e, _m, s) => {
    const inv = 1 / s;
    for (let k = 0; k < e.length; k++) out[off + k] = e[k]! * inv;
  });
}

/** Row-wise log-softmax: log p_ik = (z_ik − m_i) − log s_i, exact for |z| in the thousands. Shape N × C. */
export function logSoftmax(logits: Matrix): Matrix<Float64Array> {
  return mapShiftedRows(logits, (out, off, e, m, s) => {
    const z = logits.data;
    const logS = Math.log(s);
    for (let k = 0; k < e.length; k++) out[off + k] = z[off + k]! - m - logS;
  });
}
