import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional, string } from '../../util/schema.js';

/**
 * Adaptive and conditional label smoothing, ACLS (Park et al. ICCV 2023), as in the official code (`ACLS.get_reg`;
 * METHODS.md § Secondary terms):
 *   reg = λ1 · Σ_i Σ_j 1[z_ij = z_iŷ] ReLU(z_iŷ − m)² / M  +  λ2 · Σ_i Σ_j 1[z_ij ≠ z_iŷ] ReLU(sg(z_iŷ) − z_ij − m)² / (M(C − 1)),
 *   ACLS = CE + α · reg,
 * with z_iŷ = max_k z_ik. The labels are not used by the term; tied maxima each count as "ŷ" (indicator 1[z = max]);
 * the negative part detaches the max. Gradients (eq. 12 up to the factor 2/M resp. 2/(M(C−1)) of the squared ReLU):
 * ∂reg/∂z_ŷ = 2λ1 ReLU(z_ŷ − m)/M and ∂reg/∂z_j = −2λ2 ReLU(z_ŷ − z_j − m)/(M(C−1)) for j ≠ ŷ.
 * Differences from the paper kept from the code: the positive part uses the RAW max logit z_ŷ − m, where the paper
 * (eqs. 10–13) writes z_ŷ − min_k z_k − m; so the code's ACLS is not invariant to adding a constant to a sample's
 * logits. `positive: 'paper'` gives the paper's form (with the min detached, so eq. 12 holds exactly), which is
 * shift-invariant. The paper's λ1 = 0.1, λ2 = 0.01 are α·λ of the code's α = 0.1, λ1 = 1, λ2 = 0.1.
 * Per-example; terms: { ce, reg, positive, negative } with reg = λ1·positive + λ2·negative and loss = ce + α·reg;
 * per-row regulariser α·reg (the paper's L_REG of Fig. 3).
 * Defaults: α = 0.1, λ1 = 1, λ2 = 0.1, m = 10 (6 for CIFAR-10).
 * Ablations of the paper's Table 5 (`variant`): 'ar-only' keeps the smoothing function of eq. 10 without the
 * indicator of eq. 11, i.e. the squares lose their ReLU: λ1 (z_ŷ − m)² + λ2 Σ_{j≠ŷ} (sg(z_ŷ) − z_j − m)² / (C − 1)
 * (gradient 2λ(·) for every sample, in both directions); 'cr-only' keeps the indicator with a constant smoothing
 * function (as LS / MbLS), i.e. linear hinges λ1 ReLU(z_ŷ − m) + λ2 Σ_{j≠ŷ} ReLU(sg(z_ŷ) − z_j − m) / (C − 1)
 * (gradient λ·1[·] where ACLS has 2λ·ReLU(·)). The paper gives only the gradients' shapes for these rows; the
 * scale (squares as the code's ACLS, unit-slope hinges) is this toolkit's choice.
 */
export const acls = defineLoss({
  name: 'acls',
  title: 'Adaptive and conditional label smoothing CE + α(λ1 pos + λ2 neg) (Park et al. 2023)',
  role: 'combined',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {
    margin: optional(number({ min: 0 }), 10, 'margin m'),
    alpha: optional(number({ min: 0 }), 0.1, 'weight α of the regulariser'),
    lambda1: optional(number({ min: 0 }), 1, 'weight λ1 of the positive (arg-max) part'),
    lambda2: optional(number({ min: 0 }), 0.1, 'weight λ2 of the negative (other classes) part'),
    positive: optional(string(['code', 'paper']), 'code', "'code': ReLU(z_ŷ − m)²; 'paper': ReLU(z_ŷ − min_k z_k − m)²"),
    variant: optional(string(['acls', 'ar-only', 'cr-only']), 'acls', "ablation: 'ar-only' squares without ReLU, 'cr-only' linear hinges"),
  },
  perExample(input, { margin, alpha, lambda1, lambda2, positive, variant }) {
    const z = input.logits;
    const zMax = z.max(1, true); // [M, 1], gradient flows (positive part)
    const zMaxSg = zMax.stopGradient();
    const isMax = z.stopGradient().equal(zMaxSg).cast(input.dtype); // [M, C]
    const posBase = positive === 'code' ? zMax : zMax.sub(z.min(1, true).stopGradient());
    // The penalty of a margin excess x: ReLU(x)² (ACLS), x² (AR only: no indicator), ReLU(x) (CR only: constant smoothing).
    const penalty = (x: Tensor): Tensor => (variant === 'ar-only' ? x.square() : variant === 'cr-only' ? x.relu() : x.relu().square());
    const posRows = isMax.mul(penalty(posBase.sub(margin))).sum(1);
    const negRows = isMax
      .neg()
      .add(1)
      .mul(penalty(zMaxSg.sub(z).sub(margin)))
      .sum(1)
      .div(input.classes - 1);
    const regRows = posRows.mul(lambda1).add(negRows.mul(lambda2));
    const ceRows = input.crossEntropyRows;
    const regulariser = regRows.mul(alpha); // the paper's per-sample L_REG (Fig. 3)
    const rows = ceRows.add(regulariser);
    return { rows, terms: { ce: ceRows, reg: regRows, positive: posRows, negative: negRows }, regulariser };
  },
});

/** ACLS of logits [N, C] (or dense) against labels or soft targets; see `acls`. */
export function aclsLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof acls.options>): LossResult {
  return acls.apply(logits, targets, options);
}
