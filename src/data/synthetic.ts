import { Random } from '../util/random.js';
import { requireNumber } from '../util/errors.js';

/**
 * A synthetic, clearly artificial classification problem with an overconfident "model", for the demo and tests
 * (no training needed). Each sample has a true class y and a feature vector x = s·e_y + ε, ε ~ N(0, I). The Bayes
 * posterior is exactly softmax(s·x), so the calibrated logits are s·x; the "model" reports z = τ·s·x: τ = 1 is
 * perfectly calibrated, τ > 1 overconfident (temperature scaling recovers T = τ), τ < 1 underconfident.
 */
export interface SyntheticOptions {
  /** Number of samples. */
  n: number;
  /** Number of classes (≥ 2). */
  classes: number;
  /** Seed of the generator. */
  seed?: number;
  /** Separation s of the true class logit (larger = easier problem). */
  separation?: number;
  /** Factor τ multiplying the calibrated logits (1 = calibrated, > 1 overconfident, < 1 underconfident). */
  overconfidence?: number;
}

export interface SyntheticSet {
  /** Logits, N × C row-major, float64. */
  logits: Float64Array;
  /** Labels in [0, C). */
  labels: Int32Array;
  n: number;
  classes: number;
}

export function syntheticOverconfident(options: SyntheticOptions): SyntheticSet {
  const n = requireNumber('n', options.n, { integer: true, min: 1 });
  const c = requireNumber('classes', options.classes, { integer: true, min: 2 });
  const s = requireNumber('separation', options.separation ?? 2, { min: 0 });
  const tau = requireNumber('overconfidence', options.overconfidence ?? 3, { min: 0, exclusiveMin: true });
  const rng = new Random(options.seed ?? 0);
  const logits = new Float64Array(n * c);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const y = rng.int(c);
    labels[i] = y;
    for (let k = 0; k < c; k++) logits[i * c + k] = tau * s * ((k === y ? s : 0) + rng.normal());
  }
  return { logits, labels, n, classes: c };
}
