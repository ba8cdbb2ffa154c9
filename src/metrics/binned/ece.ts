import type { BinConvention } from './reliability-types.js';
import { DEFAULT_CONVENTION, requireBins, requireConvention } from './binning.js';
import { binnedCalibrationError, equalWidthBinSums, maximumBinGap, overconfidenceFromBins } from './bin-statistics.js';
import { requireTopLabel } from '../validation.js';
import { requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

/** Equal-width binning options shared by the binned metrics. */
export interface EqualWidthOptions {
  /** Number of equal-width bins M (integer ≥ 1; default 15). */
  readonly bins?: number;
  /** Which side of each bin is closed (default '(l,u]', see binning.ts). */
  readonly convention?: BinConvention;
}

export interface EceOptions extends EqualWidthOptions {
  /** Norm p ≥ 1 (default 1: the usual ECE; 2: ℓ2-ECE). */
  readonly p?: number;
}

/**
 * Top-label ECE_p with M equal-width bins: (Σ_m (|B_m|/N) |acc(B_m) − conf(B_m)|^p)^{1/p}
 * (Guo et al. 2017 for p = 1; Karandikar et al. 2021 ℓ2; METHODS.md § Metrics).
 * Inputs: confidence c_i = max_k p_ik ∈ [0, 1] (shape [N]) and correctness a_i = 1[ŷ_i = y_i] (shape [N]).
 */
export function expectedCalibrationError(confidence: FloatArray, correct: Uint8Array, options: EceOptions = {}): number {
  const { bins, convention, p } = resolveEce(options);
  requireTopLabel(confidence, correct);
  return binnedCalibrationError(equalWidthBinSums(confidence, correct, bins, convention), confidence.length, p);
}

/** MCE = max_m |acc(B_m) − conf(B_m)| over non-empty equal-width bins (Naeini et al. 2015). Shapes as ECE. */
export function maximumCalibrationError(confidence: FloatArray, correct: Uint8Array, options: EqualWidthOptions = {}): number {
  const { bins, convention } = resolveEce(options);
  requireTopLabel(confidence, correct);
  return maximumBinGap(equalWidthBinSums(confidence, correct, bins, convention));
}

/**
 * OE = Σ_m (|B_m|/N) conf(B_m) · max(conf(B_m) − acc(B_m), 0) over equal-width bins
 * (Thulasidasan et al. 2019, overconfidence error). Shapes as ECE.
 */
export function overconfidenceError(confidence: FloatArray, correct: Uint8Array, options: EqualWidthOptions = {}): number {
  const { bins, convention } = resolveEce(options);
  requireTopLabel(confidence, correct);
  return overconfidenceFromBins(equalWidthBinSums(confidence, correct, bins, convention), confidence.length);
}

function resolveEce(options: EceOptions): { bins: number; convention: BinConvention; p: number } {
  return {
    bins: requireBins(options.bins ?? 15),
    convention: requireConvention(options.convention ?? DEFAULT_CONVENTION),
    p: requireNumber('p', options.p ?? 1, { min: 1 }),
  };
}
