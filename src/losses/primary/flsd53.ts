import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import { focalRows } from './focal.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/**
 * FLSD-53: focal loss with a sample-dependent γ (Mukhoti et al. 2020; official code `FocalLossAdaptive`, also in the
 * MbLS and MDCA repositories; METHODS.md § Primary losses). From the detached p_y:
 *   γ_i = 5 if p_y < 0.2,  3 if 0.2 ≤ p_y < 0.5,  `gamma` if p_y ≥ 0.5   (gamma = 3: FLSD-53; 2: FLSD-532),
 *   FL_i = −(1 − p_y)^{γ_i} log p_y.
 * γ_i is built from comparisons (no Where: 5·[p < 0.2] + … as arithmetic) and carries no gradient.
 * Reduction: mean (the focal-calibration code sums). Per-example; terms: { focal } (= loss).
 */
export const flsd53 = defineLoss({
  name: 'flsd53',
  title: 'FLSD-53: focal loss with γ = 5 / 3 / gamma for p_y < 0.2 / < 0.5 / ≥ 0.5 (Mukhoti et al. 2020)',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels',
  options: {
    gamma: optional(number({ min: 0 }), 3, 'γ for samples with p_y ≥ 0.5 (3: FLSD-53, 2: FLSD-532)'),
  },
  perExample(input, { gamma }) {
    const pY = input.crossEntropyRows.neg().exp().stopGradient();
    const below05 = pY.less(0.5).cast(input.dtype);
    const below02 = pY.less(0.2).cast(input.dtype);
    // γ_i = gamma + (3 − gamma)·[p < 0.5] + (5 − 3)·[p < 0.2]
    const gammaRows = below05
      .mul(3 - gamma)
      .add(below02.mul(2))
      .add(gamma);
    const rows = focalRows(input, gammaRows);
    return { rows, terms: { focal: rows } };
  },
});

/** FLSD-53 of logits [N, C] (or dense) against integer labels; see `flsd53`. */
export function flsd53Loss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof flsd53.options>): LossResult {
  return flsd53.apply(logits, targets, options);
}
