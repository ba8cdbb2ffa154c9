import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/**
 * Entropy-regularised loss, ERL (Thulasidasan et al. 2019 §4; Pereyra et al. 2017; METHODS.md § Primary losses):
 *   ERL = CE − κ · mean_i H(p_i),  H(p) = −Σ_k p_k log p_k,
 * with log p from the stable log-softmax (no clamp needed: p_k log p_k = 0 when p_k underflows).
 * Per-example; terms: { ce, entropy } with loss = ce − κ·entropy (per-row regulariser −κ·entropy). Default κ = 0.1.
 */
export const erl = defineLoss({
  name: 'erl',
  title: 'Entropy-regularised loss CE − κ·H(p) (Thulasidasan et al. 2019)',
  role: 'combined',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {
    kappa: optional(number({ min: 0 }), 0.1, 'entropy weight κ'),
  },
  perExample(input, { kappa }) {
    const ceRows = input.crossEntropyRows;
    const entRows = input.prob.mul(input.logProb).sum(1).neg();
    const regulariser = entRows.mul(-kappa);
    const rows = ceRows.add(regulariser);
    return { rows, terms: { ce: ceRows, entropy: entRows }, regulariser };
  },
});

/** ERL of logits [N, C] (or dense) against labels or soft targets; see `erl`. */
export function entropyRegularizedLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof erl.options>): LossResult {
  return erl.apply(logits, targets, options);
}
