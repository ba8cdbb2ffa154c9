import type { BinConvention } from './reliability-types.js';
import { binLowerClosed, binUpperClosed, DEFAULT_CONVENTION, equalWidthEdges, requireBins, requireConvention } from './binning.js';
import { type BinSums, equalWidthBinSums } from './bin-statistics.js';
import type { EceOptions } from './ece.js';
import { requireTopLabel } from '../validation.js';
import { requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Label-binned ECE (Roelofs et al. 2020; Karandikar et al. 2021 eq. "ECE_lb,p"):
 * ECE_lb,p = ((1/N) Σ_i |A_{b_i} − c_i|^p)^{1/p}, with A_b the accuracy of the equal-width bin b_i of c_i.
 * By Jensen's inequality ECE_lb,p ≥ ECE_p on the same bins. Shapes: confidence [N], correct [N].
 * Default p = 2 (the SB-ECE_lb loss of the same paper fixes p = 2).
 */
export function labelBinnedCalibrationError(confidence: FloatArray, correct: Uint8Array, options: EceOptions = {}): number {
  const bins = requireBins(options.bins ?? 15);
  const convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
  const p = requireNumber('p', options.p ?? 2, { min: 1 });
  requireTopLabel(confidence, correct);
  return labelBinnedFromSums(confidence, equalWidthBinSums(confidence, correct, bins, convention), convention, p);
}

/** ECE_lb,p given the equal-width bin sums of the same confidences (one more pass over c). */
export function labelBinnedFromSums(confidence: FloatArray, sums: BinSums, convention: BinConvention, p: number): number {
  const bins = sums.counts.length;
  const edges = equalWidthEdges(bins);
  const accuracy = new Float64Array(bins);
  for (let m = 0; m < bins; m++) accuracy[m] = sums.counts[m]! > 0 ? sums.sumCorrect[m]! / sums.counts[m]! : 0;
  const upper = convention === '(l,u]';
  let total = 0;
  const n = confidence.length;
  for (let i = 0; i < n; i++) {
    const c = confidence[i]!;
    const b = upper ? binUpperClosed(c, bins, edges) : binLowerClosed(c, bins, edges);
    const d = Math.abs(accuracy[b]! - c);
    total += p === 1 ? d : p === 2 ? d * d : Math.pow(d, p);
  }
  const mean = total / n;
  return p === 1 ? mean : Math.pow(mean, 1 / p);
}
