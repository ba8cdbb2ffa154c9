/**
 * Top-label view of logits under temperature scaling, shared by the temperature-family calibrators.
 *
 * For logits z_i (row i of an N × C matrix), m_i = max_k z_ik and t_ik = z_ik − m_i ≤ 0. With β = 1/T the
 * temperature-scaled confidence is c_i(β) = max_k softmax(β z_i)_k = 1 / Σ_k exp(β t_ik), and its derivative
 * dc_i/dβ = −c_i · Σ_k p_ik t_ik ≥ 0 (p_i = softmax(β z_i)). The prediction argmax_k z_ik (first index on ties)
 * and so the correctness a_i = 1[argmax = y_i] do not depend on T > 0.
 */
import type { FloatArray } from '../../util/matrix.js';
import { argmaxRow } from '../../util/argmax.js';

export interface TopLabel {
  readonly rows: number;
  readonly cols: number;
  readonly logits: FloatArray;
  /** m_i = max_k z_ik. */
  readonly rowMax: Float64Array;
  /** a_i ∈ {0, 1}: whether argmax_k z_ik equals the label (float64, for SB-ECE). */
  readonly correct: Float64Array;
  /** The same as a Uint8Array (for the metrics layer's ECE). */
  readonly correctMask: Uint8Array;
}

/** Row maxima and correctness of `logits` (N × C) against `labels`. */
export function topLabel(logits: FloatArray, rows: number, cols: number, labels: Int32Array): TopLabel {
  const rowMax = new Float64Array(rows);
  const correct = new Float64Array(rows);
  const correctMask = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const best = argmaxRow(logits, o, cols);
    rowMax[i] = logits[o + best]!;
    correct[i] = best === labels[i] ? 1 : 0;
    correctMask[i] = best === labels[i] ? 1 : 0;
  }
  return { rows, cols, logits, rowMax, correct, correctMask };
}

/**
 * Confidences c_i(β) into `out` (length N) and, when `derivative` is given, dc_i/dβ into it.
 * Computed as 1 / Σ_k exp(β t_ik), exact for |z| in the thousands.
 */
export function confidencesAt(top: TopLabel, beta: number, out: Float64Array, derivative?: Float64Array): Float64Array {
  const { rows, cols, logits, rowMax } = top;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const m = rowMax[i]!;
    let s0 = 0;
    let s1 = 0;
    for (let k = 0; k < cols; k++) {
      const t = logits[o + k]! - m;
      const e = Math.exp(beta * t);
      s0 += e;
      s1 += e * t;
    }
    const c = 1 / s0;
    out[i] = c;
    if (derivative) derivative[i] = -c * (s1 / s0);
  }
  return out;
}
