import { Random } from '../src/util/random.js';

/**
 * Softmax of τ·(s·e_y + ε), ε ~ N(0, 1), y uniform: an overconfident classifier (τ = 2.5, s = 2.5), written as
 * float32 rows into `probs` (N × C, e.g. a shared array for worker threads). Returns the labels y. Shared by the
 * metrics benches so that they measure the same rows.
 */
export function overconfidentProbabilities(probs: Float32Array, n: number, c: number, seed: number): Int32Array {
  const rng = new Random(seed);
  const labels = new Int32Array(n);
  const z = new Float64Array(c);
  for (let i = 0; i < n; i++) {
    const y = rng.int(c);
    labels[i] = y;
    let max = -Infinity;
    for (let k = 0; k < c; k++) {
      z[k] = 2.5 * ((k === y ? 2.5 : 0) + rng.normal());
      if (z[k]! > max) max = z[k]!;
    }
    let s = 0;
    for (let k = 0; k < c; k++) {
      z[k] = Math.exp(z[k]! - max);
      s += z[k]!;
    }
    for (let k = 0; k < c; k++) probs[i * c + k] = z[k]! / s;
  }
  return labels;
}
