import { constant, type Tensor } from '../../engine/index.js';
import { SB_ECE_DEFAULTS } from '../../metrics/smooth/soft-binned-ece.js';
import type { LossOption } from '../options.js';
import { number, optional } from '../../util/schema.js';

/** Smallest value of Σ w |Δ|^p before the 1/p root (keeps the root's gradient finite at a perfect score). */
export const SB_ECE_ROOT_FLOOR = 1e-30;

/** The options every soft-binned ECE loss takes (defaults from src/metrics/smooth/soft-binned-ece.ts: M = 15, T = 0.01, p = 2). */
export const SOFT_BIN_OPTIONS = {
  bins: optional(number({ min: 1, integer: true }), SB_ECE_DEFAULTS.bins, 'number of soft bins M'),
  temperature: optional(number({ min: 0, exclusiveMin: true }), SB_ECE_DEFAULTS.softBinTemperature, 'soft-binning temperature T'),
  p: optional(number({ min: 1 }), SB_ECE_DEFAULTS.p, 'norm p'),
} as const satisfies Record<string, LossOption<number>>;

/** |gap|^p, with the cheaper square / abs for p = 2 / 1. */
export function gapPower(gap: Tensor, p: number): Tensor {
  return p === 2 ? gap.square() : p === 1 ? gap.abs() : gap.abs().pow(p);
}

/** total^{1/p} with total floored at SB_ECE_ROOT_FLOOR (identity for p = 1). */
export function pthRoot(total: Tensor, p: number): Tensor {
  if (p === 1) return total;
  const floored = total.maximum(SB_ECE_ROOT_FLOOR);
  return p === 2 ? floored.sqrt() : floored.pow(1 / p);
}

/**
 * Soft bin membership of SB-ECE (Karandikar et al. 2021, eq. 10; METHODS.md "SB-ECE"):
 *   u_ij = softmax_j(−(c_i − ξ_j)² / T),
 * for confidences c [M] and bin centres ξ [B] → [M, B] (rows sum to 1). As T → 0 each row becomes the one-hot of the
 * nearest centre (hard bins). Computed with a max-subtracted softmax, so tiny T is stable.
 */
export function softBinMembership(confidence: Tensor, centres: ArrayLike<number>, temperature: number): Tensor {
  const m = confidence.shape[0]!;
  const b = centres.length;
  const xi = constant(Array.from(centres), { shape: [1, b], dtype: confidence.dtype });
  return confidence.reshape([m, 1]).sub(xi).square().div(-temperature).softmax(1);
}
