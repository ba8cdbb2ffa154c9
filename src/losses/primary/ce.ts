import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * Cross-entropy (NLL), METHODS.md § Primary losses: CE = mean_i −log p_{i,y_i}, computed by the fused, log-sum-exp
 * stable softmax-cross-entropy op (finite for logits in the thousands). With soft targets q̃ it is the soft-label CE
 * −Σ_k q̃_ik log p_ik (see `soft-ce`). Per-example; terms: { ce } (= loss).
 * Reduction: mean over the counted rows (the focal-calibration code sums over the batch; the toolkit averages).
 */
export const ce = defineLoss({
  name: 'ce',
  title: 'Cross-entropy (negative log-likelihood); soft-label CE when soft targets are given',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {},
  perExample(input) {
    const rows = input.crossEntropyRows;
    return { rows, terms: { ce: rows } };
  },
});

/** CE of logits [N, C] (or [N, C, d1, …]) against integer labels or soft targets; see `ce`. */
export function crossEntropyLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof ce.options>): LossResult {
  return ce.apply(logits, targets, options);
}
