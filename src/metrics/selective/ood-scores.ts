import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';

/**
 * Per-sample scores for out-of-distribution detection from logits z ∈ ℝ^C (rows of an N × C matrix), each
 * oriented so that larger means "more in-distribution" (the convention of `oodAuroc` and `fprAtTpr`):
 * - `msp`: max softmax probability max_k softmax(z)_k (Hendrycks & Gimpel 2017);
 * - `max-logit`: max_k z_k (Hendrycks et al. 2022, "Scaling OOD detection");
 * - `energy`: −E(z) = T · log Σ_k exp(z_k / T), T = 1 (Liu et al. 2020, "Energy-based OOD detection");
 * - `entropy`: −H(softmax(z)) = Σ_k p_k log p_k (negative predictive entropy).
 * Log-sum-exp is taken about the row maximum, so logits of magnitude 1e3 are safe. From probabilities (no
 * logits), only `msp` and `entropy` are defined: log p replaces z up to a per-row constant, so `energy` and
 * `max-logit` would be meaningless; they are refused.
 */
export const OOD_SCORES = ['msp', 'max-logit', 'energy', 'entropy'] as const;
export type OodScore = (typeof OOD_SCORES)[number];

export function requireOodScore(value: unknown, argument = 'score'): OodScore {
  if (!(OOD_SCORES as readonly unknown[]).includes(value)) invalidArgument(argument, `one of ${OOD_SCORES.join(', ')}`, String(value));
  return value as OodScore;
}

/** Scores [N] of the rows of `m` (logits, or probabilities when `input` says so). */
export function oodScores(m: Matrix, score: OodScore, input: 'logits' | 'probabilities' = 'logits'): Float64Array {
  const { rows, cols, data } = m;
  if (input === 'probabilities' && (score === 'energy' || score === 'max-logit')) invalidArgument('score', "'msp' or 'entropy' for probabilities (energy and max-logit need logits)", score);
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    if (input === 'probabilities') {
      let best = 0;
      let negEntropy = 0;
      for (let k = 0; k < cols; k++) {
        const p = data[o + k]!;
        if (p > best) best = p;
        if (p > 0) negEntropy += p * Math.log(p);
      }
      out[i] = score === 'msp' ? best : negEntropy;
      continue;
    }
    let max = -Infinity;
    for (let k = 0; k < cols; k++) if (data[o + k]! > max) max = data[o + k]!;
    let sum = 0;
    let weighted = 0;
    for (let k = 0; k < cols; k++) {
      const d = data[o + k]! - max;
      const e = Math.exp(d);
      sum += e;
      weighted += e * d;
    }
    const lse = max + Math.log(sum);
    if (score === 'max-logit') out[i] = max;
    else if (score === 'energy') out[i] = lse;
    else if (score === 'msp') out[i] = 1 / sum;
    // Σ p_k log p_k = Σ p_k (d_k − log Σ e^d) = weighted/sum − log(sum).
    else out[i] = weighted / sum - Math.log(sum);
  }
  return out;
}
