import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * Multi-class difference of confidence and accuracy, MDCA (Hebbalaguppe et al. CVPR 2022), as in the official code
 * (`MDCA`; METHODS.md § Secondary terms):
 *   MDCA = (1/C) Σ_k | mean_i p_ik − mean_i q_ik |,
 * q = one-hot labels (class frequencies of the batch) or soft targets. Batch-level. The code combines it as
 * primary + β·MDCA (β = 1; `NLL+MDCA`, `FL+MDCA`, `LS+MDCA`). Terms: { mdca } (= loss).
 */
export const mdca = defineLoss({
  name: 'mdca',
  title: 'MDCA (1/C) Σ_k |mean p_k − mean q_k| (Hebbalaguppe et al. 2022)',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: {},
  compute(input) {
    const gap = input.masked(input.prob.sub(input.targetDistribution)).sum(0).div(input.count); // [C]
    const loss = gap.abs().mean();
    return { loss, terms: { mdca: loss } };
  },
});

/** MDCA term of logits [N, C] (or dense) against labels or soft targets; see `mdca`. */
export function mdcaLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof mdca.options>): LossResult {
  return mdca.apply(logits, targets, options);
}
