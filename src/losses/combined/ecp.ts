import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/** Clamp of p in the entropy of ECP (MbLS code `calibrate.utils.constants.EPS`). */
export const ECP_EPS = 1e-10;

/**
 * Explicit confidence penalty, ECP (Pereyra et al. 2017), as in the MbLS code (`PenaltyEntropy`; METHODS.md
 * § Primary losses):
 *   ECP = CE − α · mean over the M·C entries of (−p̂_ik log p̂_ik),  p̂ = clamp(p, 1e−10, 1 − 1e−10),
 * so the entropy term is the mean per-sample entropy divided by C (the paper writes CE − β H(p)). The clamp makes
 * the gradient of clamped entries 0 (as in the code). Per-example; terms: { ce, entropy } with
 * loss = ce − α·entropy (per-row regulariser −α·entropy). Default α = 0.1.
 */
export const ecp = defineLoss({
  name: 'ecp',
  title: 'Explicit confidence penalty CE − α·mean(−p log p) (Pereyra et al. 2017; MbLS code)',
  role: 'combined',
  scope: 'per-example',
  targets: 'labels-or-soft',
  options: {
    alpha: optional(number({ min: 0 }), 0.1, 'penalty weight α'),
  },
  perExample(input, { alpha }) {
    const ceRows = input.crossEntropyRows;
    const p = input.prob.clip(ECP_EPS, 1 - ECP_EPS);
    const entRows = p.mul(p.log()).sum(1).neg().div(input.classes); // mean over the C entries of the row
    const regulariser = entRows.mul(-alpha);
    const rows = ceRows.add(regulariser);
    return { rows, terms: { ce: ceRows, entropy: entRows }, regulariser };
  },
});

/** ECP of logits [N, C] (or dense) against labels or soft targets; see `ecp`. */
export function confidencePenaltyLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof ecp.options>): LossResult {
  return ecp.apply(logits, targets, options);
}
