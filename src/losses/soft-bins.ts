import { constant, type Tensor } from '../engine/index.js';

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
