import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * Mean squared error on probabilities, i.e. the Brier score (Brier 1950; Hui & Belkin 2021 as a primary loss;
 * focal-calibration/MbLS/MDCA code `BrierScore`; METHODS.md § Primary losses):
 *   MSE = mean_i Σ_k (p_ik − q_ik)²,  q = one-hot labels or soft targets.
 * Per-example; terms: { mse } (= loss).
 */
export const mse = defineLoss({
  name: 'mse',
  title: 'MSE / Brier score Σ_k (p_k − q_k)² (Hui & Belkin 2021)',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {},
  perExample(input) {
    const rows = input.prob.sub(input.targetDistribution).square().sum(1);
    return { rows, terms: { mse: rows } };
  },
});

/** Brier score of logits [N, C] (or dense) against labels or soft targets; see `mse`. */
export function brierLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof mse.options>): LossResult {
  return mse.apply(logits, targets, options);
}
