/**
 * Scalar scores of binary (C = 2) predictions used by Platt and beta calibration.
 */
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { softplus } from './logistic-regression.js';
import { checkPredictions, LOG_CLIP, type CheckedPredictions } from '../predictions.js';

/** Require C = 2 for a binary method. */
export function requireBinary(method: string, checked: CheckedPredictions): void {
  if (checked.matrix.cols !== 2) {
    invalidArgument(`input.${checked.kind}.cols`, `2 classes (${method} calibration is binary)`, String(checked.matrix.cols));
  }
}

/**
 * The logit of class 1, f = log(p_1 / p_0): z_1 − z_0 from logits, ln max(p_1, 2.2e−308) − ln max(p_0, 2.2e−308)
 * from probabilities. Length N.
 */
export function binaryLogit(checked: CheckedPredictions): Float64Array {
  const { rows, data } = checked.matrix;
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const a = data[2 * i]!;
    const b = data[2 * i + 1]!;
    out[i] = checked.kind === 'logits' ? b - a : Math.log(Math.max(b, LOG_CLIP)) - Math.log(Math.max(a, LOG_CLIP));
  }
  return out;
}

/**
 * ln p and ln(1 − p) of class 1 with p clipped to [ε, 1 − ε], ε = 2^−52 (float64 machine epsilon, as the
 * betacal reference code): from probabilities p = p_1 (and 1 − p computed as in betacal); from logits the exact
 * log-sigmoids of f = z_1 − z_0, clamped to the same range. Two arrays of length N.
 */
export function binaryLogProbabilities(checked: CheckedPredictions): { logP: Float64Array; log1mP: Float64Array } {
  const eps = 2.220446049250313e-16;
  const lo = Math.log(eps);
  const hi = Math.log(1 - eps);
  const { rows, data } = checked.matrix;
  const logP = new Float64Array(rows);
  const log1mP = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    if (checked.kind === 'probabilities') {
      const p = Math.min(Math.max(data[2 * i + 1]!, eps), 1 - eps);
      logP[i] = Math.log(p);
      log1mP[i] = Math.log(1 - p);
    } else {
      const f = data[2 * i + 1]! - data[2 * i]!;
      logP[i] = Math.min(Math.max(-softplus(-f), lo), hi);
      log1mP[i] = Math.min(Math.max(-softplus(f), lo), hi);
    }
  }
  return { logP, log1mP };
}

/** Rows [σ(−s_i), σ(s_i)] for scores s (length N) → N × 2 probabilities. */
export function binaryProbabilities(scores: Float64Array): Float64Array {
  const out = new Float64Array(2 * scores.length);
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    const e = Math.exp(-Math.abs(s));
    const big = 1 / (1 + e);
    const small = e / (1 + e);
    out[2 * i] = s >= 0 ? small : big;
    out[2 * i + 1] = s >= 0 ? big : small;
  }
  return out;
}

/** Two-class logits [0, s_i] for calibrated scores s (softmax of a row is [1 − σ(s), σ(s)]): N × 2 float64. */
export function binaryLogits(scores: Float64Array): Float64Array {
  const out = new Float64Array(2 * scores.length);
  for (let i = 0; i < scores.length; i++) out[2 * i + 1] = scores[i]!;
  return out;
}

/**
 * A fitted binary calibrator that maps each row to one calibrated class-1 logit s_i (Platt, beta): probabilities
 * [σ(−s_i), σ(s_i)] and logits [0, s_i]. Subclasses give the score.
 */
export abstract class BinaryScoreCalibrator implements Calibrator {
  abstract readonly kind: string;
  readonly classes = 2;

  /** The calibrated class-1 logit of each row of validated N × 2 predictions. */
  protected abstract scoresOf(checked: CheckedPredictions): Float64Array;

  /** [σ(−s), σ(s)]: N × 2 float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const s = this.scoresOf(checkPredictions('input', input, 2));
    return { rows: s.length, cols: 2, data: binaryProbabilities(s) };
  }

  /** [0, s]: N × 2 float64. */
  applyLogits(input: Predictions): Matrix<Float64Array> {
    const s = this.scoresOf(checkPredictions('input', input, 2));
    return { rows: s.length, cols: 2, data: binaryLogits(s) };
  }

  abstract toJSON(): CalibratorJSON;
}
