import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional, string } from '../../util/schema.js';

/**
 * Label smoothing (Szegedy et al. 2016; Müller et al. 2019; METHODS.md § Primary losses), as in the MbLS/ACLS code
 * (`LabelSmoothingCrossEntropy`) and PyTorch's `label_smoothing=ε`:
 *   LS_i = (1 − ε)(−log p_{i,y}) + ε · mean_k(−log p_ik),
 * i.e. CE against (1 − ε) q + ε/C. Decomposition: mean_k(−log p_k) = KL(u ‖ p) + log C, so
 * LS = (1 − ε) CE + ε (KL(u ‖ p) + log C).
 * variant 'others' (MDCA code `LabelSmoothingLoss`): 1 − ε on y and ε/(C − 1) on each other class:
 *   LS_i = (1 − ε)(−log p_y) + ε/(C − 1) · Σ_{k≠y} (−log p_k).
 * With soft targets q̃ the same smoothing is applied to q̃ ((1 − ε) q̃ + ε/C, resp. (1 − ε) q̃ + ε (1 − q̃)/(C − 1)).
 * Per-example; terms: { ce, smoothing } with loss = (1 − ε)·ce + ε·smoothing (smoothing = mean_i of the
 * uniform resp. others part). Defaults: ε = 0.05 (MbLS/ACLS configs; Thulasidasan uses 0.1).
 */
export const ls = defineLoss({
  name: 'ls',
  title: 'Label smoothing: CE against (1 − ε) q + ε/C (MbLS/ACLS code), or ε/(C−1) on other classes (MDCA code)',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {
    epsilon: optional(number({ min: 0, max: 1 }), 0.05, 'smoothing ε'),
    variant: optional(string(['uniform', 'others']), 'uniform', "'uniform': ε/C on every class; 'others': ε/(C−1) on the other classes"),
  },
  perExample(input, { epsilon, variant }) {
    const ceRows = input.crossEntropyRows;
    const negLogSum = input.logProb.sum(1).neg(); // Σ_k −log p_k
    const smoothRows = variant === 'uniform' ? negLogSum.div(input.classes) : negLogSum.sub(ceRows).div(input.classes - 1);
    const rows = ceRows.mul(1 - epsilon).add(smoothRows.mul(epsilon));
    return { rows, terms: { ce: ceRows, smoothing: smoothRows } };
  },
});

/** Label-smoothed CE of logits [N, C] (or dense) against labels or soft targets; see `ls`. */
export function labelSmoothingLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof ls.options>): LossResult {
  return ls.apply(logits, targets, options);
}
