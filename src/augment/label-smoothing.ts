import { describe, invalidArgument, requireNumber } from '../util/errors.js';

/**
 * Target vectors for training with soft labels (METHODS.md "Primary losses", LS).
 * Shapes: labels [B] → targets [B, C] row-major float32.
 */

/** One-hot targets: q_ik = 1[y_i = k]. */
export function oneHot(labels: Int32Array, classes: number): Float32Array {
  const c = requireNumber('classes', classes, { integer: true, min: 1 });
  if (!(labels instanceof Int32Array)) invalidArgument('labels', 'an Int32Array', describe(labels));
  const out = new Float32Array(labels.length * c);
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i]!;
    if (y < 0 || y >= c) invalidArgument(`labels[${i}]`, `a class index in [0, ${c})`, String(y));
    out[i * c + y] = 1;
  }
  return out;
}

/**
 * Label-smoothed targets.
 * - 'uniform' (default; PyTorch `label_smoothing=ε`, MbLS/ACLS code): q̃ = (1 − ε) q + ε / C, i.e. 1 − ε + ε/C on y
 *   and ε/C elsewhere.
 * - 'others' (MDCA code): 1 − ε on y and ε / (C − 1) on each other class (C ≥ 2).
 * Every row sums to 1; ε = 0 gives one-hot targets.
 */
export function smoothLabels(labels: Int32Array, classes: number, epsilon: number, variant: 'uniform' | 'others' = 'uniform'): Float32Array {
  const c = requireNumber('classes', classes, { integer: true, min: variant === 'others' ? 2 : 1 });
  const e = requireNumber('epsilon', epsilon, { min: 0, max: 1 });
  if (variant !== 'uniform' && variant !== 'others') invalidArgument('variant', '"uniform" or "others"', describe(variant));
  const q = oneHot(labels, c);
  const off = variant === 'uniform' ? e / c : e / (c - 1);
  const on = variant === 'uniform' ? 1 - e + e / c : 1 - e;
  for (let i = 0; i < q.length; i++) q[i] = q[i] === 1 ? on : off;
  return q;
}
