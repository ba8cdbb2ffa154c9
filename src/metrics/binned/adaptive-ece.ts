import { countAtMost, equalMassBoundaries, interpEqualMassEdges, requireBins } from './binning.js';
import { type BinSums, binnedCalibrationError, emptyBinSums } from './bin-statistics.js';
import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Equal-mass ("adaptive") binning schemes for AdaECE / AECE:
 * - 'equal-mass' (default): sort by confidence, bin of rank r = min(M − 1, ⌊(r/N)·M⌋) (see binning.ts);
 *   every sample is counted.
 * - 'interp': the MbLS / ACLS code (`AdaptiveECELoss`): edges from np.interp over the sorted confidences,
 *   (l, u] membership, weights |B_m|/N with N the full count, so samples equal to the minimum confidence
 *   are dropped. Edges are compared at float32 precision when the confidences came from float32 inputs
 *   (a Float32Array here, float32 probability chunks in the accumulators) — the code compares a float32 tensor
 *   with Python floats, i.e. in float32 — else in float64.
 */
export type AdaptiveScheme = 'equal-mass' | 'interp';

export function requireAdaptiveScheme(scheme: unknown, argument = 'scheme'): AdaptiveScheme {
  if (scheme !== 'equal-mass' && scheme !== 'interp') invalidArgument(argument, "'equal-mass' or 'interp'", describe(scheme));
  return scheme;
}

export interface AdaptiveEceOptions {
  /** Number of bins M (default 15). */
  readonly bins?: number;
  /** Binning scheme (default 'equal-mass'). */
  readonly scheme?: AdaptiveScheme;
  /** Norm p ≥ 1 (default 1). p = 2 with 'equal-mass' is the "ECE, ℓ2, equal-mass" of Karandikar et al. 2021. */
  readonly p?: number;
}

/**
 * AdaECE (adaptive ECE, Mukhoti et al. 2020; Nixon et al. 2019): ECE_p over M equal-mass bins,
 * (Σ_m (|B_m|/N) |acc(B_m) − conf(B_m)|^p)^{1/p}. Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function adaptiveCalibrationError(confidence: FloatArray, correct: Uint8Array, options: AdaptiveEceOptions = {}): number {
  const bins = requireBins(options.bins ?? 15);
  const scheme = requireAdaptiveScheme(options.scheme ?? 'equal-mass');
  const p = requireNumber('p', options.p ?? 1, { min: 1 });
  requireTopLabel(confidence, correct);
  const sorted = sortTopLabel(confidence, correct);
  return binnedCalibrationError(adaptiveBinSums(sorted, bins, scheme), confidence.length, p);
}

/** Bin sums of the equal-mass scheme `scheme` over sorted top-label samples. */
export function adaptiveBinSums(sorted: SortedTopLabel, bins: number, scheme: AdaptiveScheme): BinSums {
  return scheme === 'equal-mass' ? equalMassBinSums(sorted, bins) : interpBinSums(sorted, bins).sums;
}

/** Sums over the rank-based equal-mass bins (shape [M]). */
export function equalMassBinSums(sorted: SortedTopLabel, bins: number): BinSums {
  const n = sorted.confidence.length;
  const start = equalMassBoundaries(n, bins);
  return rangeSums(sorted, start, bins);
}

/**
 * Sums over the 'interp' bins: bin m holds the samples with e_m < c ≤ e_{m+1}, e = interpEqualMassEdges.
 * Returns the edges actually compared (rounded to float32 when `sorted.float32`), shape [M + 1].
 */
export function interpBinSums(sorted: SortedTopLabel, bins: number): { sums: BinSums; edges: Float64Array } {
  const edges = interpEqualMassEdges(sorted.confidence, bins);
  if (sorted.float32) for (let i = 0; i < edges.length; i++) edges[i] = Math.fround(edges[i]!);
  const start = new Int32Array(bins + 1);
  const end = new Int32Array(bins);
  for (let m = 0; m < bins; m++) {
    start[m] = countAtMost(sorted.confidence, edges[m]!);
    end[m] = Math.max(start[m]!, countAtMost(sorted.confidence, edges[m + 1]!));
  }
  const sums = emptyBinSums(bins);
  for (let m = 0; m < bins; m++) addRange(sorted, start[m]!, end[m]!, sums, m);
  return { sums, edges };
}

/** Sums over contiguous sorted ranges [start[m], start[m+1]). */
export function rangeSums(sorted: SortedTopLabel, start: Int32Array, bins: number): BinSums {
  const sums = emptyBinSums(bins);
  for (let m = 0; m < bins; m++) addRange(sorted, start[m]!, start[m + 1]!, sums, m);
  return sums;
}

function addRange(sorted: SortedTopLabel, from: number, to: number, sums: BinSums, m: number): void {
  let sc = 0;
  let sa = 0;
  for (let i = from; i < to; i++) {
    sc += sorted.confidence[i]!;
    sa += sorted.correct[i]!;
  }
  sums.counts[m] = to - from;
  sums.sumConfidence[m] = sc;
  sums.sumCorrect[m] = sa;
}
