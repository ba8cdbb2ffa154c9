import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/**
 * Margin-based label smoothing, MbLS (Liu et al. CVPR 2022), as in the official code (`LogitMarginL1`; METHODS.md
 * § Secondary terms):
 *   MbLS = CE + α · mean over the M·C entries of ReLU(max_k z_ik − z_ij − m).
 * The max is NOT detached (as in the code): for an active entry j the gradient is −α/(MC) on z_ij and +α/(MC) on the
 * row's arg-max logit (its own column contributes 0); the paper's eq. (15) (ACLS supplement) lists only the j ≠ ŷ
 * part. Ties at the maximum share its gradient. Per-example; terms: { ce, margin } with loss = ce + α·margin;
 * per-row regulariser α·margin.
 * Defaults: α = 0.1, m = 10 (code default; 6 for CIFAR-10 and 20 Newsgroups).
 */
export const mbls = defineLoss({
  name: 'mbls',
  title: 'Margin-based label smoothing CE + α·mean ReLU(max z − z − m) (Liu et al. 2022)',
  role: 'combined',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {
    margin: optional(number({ min: 0 }), 10, 'margin m on logit distances'),
    alpha: optional(number({ min: 0 }), 0.1, 'penalty weight α'),
  },
  perExample(input, { margin, alpha }) {
    const z = input.logits;
    const distances = z.max(1, true).sub(z); // [M, C], ≥ 0
    const marginRows = distances.sub(margin).relu().sum(1).div(input.classes);
    const ceRows = input.crossEntropyRows;
    const regulariser = marginRows.mul(alpha);
    const rows = ceRows.add(regulariser);
    return { rows, terms: { ce: ceRows, margin: marginRows }, regulariser };
  },
});

/** MbLS of logits [N, C] (or dense) against labels or soft targets; see `mbls`. */
export function marginLabelSmoothingLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof mbls.options>): LossResult {
  return mbls.apply(logits, targets, options);
}
