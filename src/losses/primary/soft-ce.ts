import type { Tensor } from '../../engine/index.js';
import { invalidArgument } from '../../util/errors.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult } from '../types.js';

/**
 * Soft-label cross-entropy, METHODS.md § Primary losses: mean_i −Σ_k q̃_ik log p_ik for soft targets q̃ (rows
 * summing to 1: mixup λ q_i + (1 − λ) q_j, smoothed labels, distillation targets). log p comes from a stable
 * log-softmax. Per-example; terms: { ce } (= loss). Equals `ce` when q̃ is one-hot.
 */
export const softCe = defineLoss({
  name: 'soft-ce',
  title: 'Soft-label cross-entropy −Σ q̃ log p (mixup, smoothed or distilled targets)',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {},
  perExample(input) {
    if (!input.soft) invalidArgument('soft-ce: targets', 'soft targets { soft: q̃ [N, C] }', 'integer labels only');
    const rows = input.crossEntropyRows;
    return { rows, terms: { ce: rows } };
  },
});

/** Soft-label CE of logits [N, C] against soft targets q̃ [N, C] (same dtype). */
export function softLabelCrossEntropy(logits: Tensor, soft: Tensor, options?: LossOptions<typeof softCe.options>): LossResult {
  return softCe.apply(logits, { soft }, options);
}
