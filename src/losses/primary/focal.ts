import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossInput } from '../loss-input.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/**
 * Focal loss (Lin et al. 2017; Mukhoti et al. 2020 for calibration; METHODS.md § Primary losses):
 *   FL_i = −(1 − p_{i,y})^γ log p_{i,y},
 * in log space: log p_y is the fused, stable −CE_i and p_y = exp(log p_y). The base 1 − p_y is floored at a tiny
 * positive number (1e−30) so that γ < 1 keeps a finite gradient when p_y rounds to 1 (logits ~1e3); γ = 0 is exactly CE.
 * Reduction: mean (the focal-calibration and MbLS code default to a sum over the batch: `size_average=False`).
 * Per-example; terms: { focal } (= loss). Default γ = 3.
 */
export const focal = defineLoss({
  name: 'focal',
  title: 'Focal loss −(1 − p_y)^γ log p_y (Lin et al. 2017; Mukhoti et al. 2020)',
  role: 'primary',
  scope: 'per-example',
  targets: 'labels',
  options: {
    gamma: optional(number({ min: 0 }), 3, 'focusing parameter γ'),
  },
  perExample(input, { gamma }) {
    const rows = focalRows(input, gamma);
    return { rows, terms: { focal: rows } };
  },
});

/** Smallest base of (1 − p_y)^γ: keeps x^(γ−1) finite for γ < 1 when 1 − p_y underflows to 0. */
export const FOCAL_BASE_FLOOR = 1e-30;

/** Per-row focal loss [M] with exponent γ (a number or a per-row tensor [M] without gradient). */
export function focalRows(input: LossInput, gamma: number | Tensor): Tensor {
  const ceRows = input.crossEntropyRows; // −log p_y
  if (gamma === 0) return ceRows;
  const pY = ceRows.neg().exp();
  const base = pY.neg().add(1).maximum(FOCAL_BASE_FLOOR);
  return base.pow(gamma).mul(ceRows);
}

/** Focal loss of logits [N, C] (or dense) against integer labels; see `focal`. */
export function focalLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof focal.options>): LossResult {
  return focal.apply(logits, targets, options);
}
