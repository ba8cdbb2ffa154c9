import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * Difference of confidence and accuracy, DCA (Liang et al. 2020; MDCA code `DCA`; METHODS.md § Secondary terms):
 *   DCA = | mean_i c_i − mean_i a_i |,
 * c = max softmax, a = correctness (no gradient). Batch-level. The code uses CE + β·DCA (β = 1). Terms: { dca }.
 */
export const dca = defineLoss({
  name: 'dca',
  title: 'DCA |mean confidence − accuracy| (Liang et al. 2020)',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: {},
  compute(input) {
    const loss = input.mean(input.confidence.sub(input.correct)).abs();
    return { loss, terms: { dca: loss } };
  },
});

/** DCA term of logits [N, C] (or dense) against labels or soft targets; see `dca`. */
export function dcaLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof dca.options>): LossResult {
  return dca.apply(logits, targets, options);
}
