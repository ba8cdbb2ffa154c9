import type { BinConvention } from './reliability-types.js';
import { binLowerClosed, binUpperClosed, equalWidthEdges } from './binning.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Per-bin sums of a top-label binning: for bin m, n_m = |B_m|, Σ_{i∈B_m} c_i and Σ_{i∈B_m} a_i (shapes [M]).
 * acc(B_m) = Σa / n_m, conf(B_m) = Σc / n_m. The formulas below are METHODS.md § Metrics.
 */
export interface BinSums {
  readonly counts: Float64Array;
  readonly sumConfidence: Float64Array;
  readonly sumCorrect: Float64Array;
}

/** Empty sums for `bins` bins. */
export function emptyBinSums(bins: number): BinSums {
  return { counts: new Float64Array(bins), sumConfidence: new Float64Array(bins), sumCorrect: new Float64Array(bins) };
}

/** Equal-width bin sums of confidences c (shape [N]) and correctness a ∈ {0, 1} (shape [N]). */
export function equalWidthBinSums(confidence: FloatArray, correct: Uint8Array, bins: number, convention: BinConvention): BinSums {
  const edges = equalWidthEdges(bins);
  const sums = emptyBinSums(bins);
  const upper = convention === '(l,u]';
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i]!;
    const b = upper ? binUpperClosed(c, bins, edges) : binLowerClosed(c, bins, edges);
    sums.counts[b]!++;
    sums.sumConfidence[b]! += c;
    sums.sumCorrect[b]! += correct[i]!;
  }
  return sums;
}

/**
 * ECE_p = (Σ_m (|B_m|/N) |acc(B_m) − conf(B_m)|^p)^{1/p} over non-empty bins (p = 1: ECE, Guo et al. 2017;
 * p = 2: ℓ2-ECE, Karandikar et al. 2021). `total` = N (may exceed Σ n_m when a binning drops samples).
 */
export function binnedCalibrationError(sums: BinSums, total: number, p = 1): number {
  const power = binnedErrorPower(sums, total, p);
  return p === 1 ? power : Math.pow(power, 1 / p);
}

/** Σ_m (|B_m|/N) |acc(B_m) − conf(B_m)|^p over non-empty bins (ECE_p to the power p). */
export function binnedErrorPower(sums: BinSums, total: number, p: number): number {
  let acc = 0;
  const { counts, sumConfidence, sumCorrect } = sums;
  for (let m = 0; m < counts.length; m++) {
    const n = counts[m]!;
    if (n === 0) continue;
    const gap = Math.abs(sumCorrect[m]! - sumConfidence[m]!) / n;
    acc += (n / total) * (p === 1 ? gap : p === 2 ? gap * gap : Math.pow(gap, p));
  }
  return acc;
}

/** MCE = max_m |acc(B_m) − conf(B_m)| over non-empty bins (0 if every bin is empty). */
export function maximumBinGap(sums: BinSums): number {
  let worst = 0;
  const { counts, sumConfidence, sumCorrect } = sums;
  for (let m = 0; m < counts.length; m++) {
    const n = counts[m]!;
    if (n === 0) continue;
    const gap = Math.abs(sumCorrect[m]! - sumConfidence[m]!) / n;
    if (gap > worst) worst = gap;
  }
  return worst;
}

/**
 * OE (overconfidence error, Thulasidasan et al. 2019) = Σ_m (|B_m|/N) conf(B_m) · max(conf(B_m) − acc(B_m), 0).
 */
export function overconfidenceFromBins(sums: BinSums, total: number): number {
  let acc = 0;
  const { counts, sumConfidence, sumCorrect } = sums;
  for (let m = 0; m < counts.length; m++) {
    const n = counts[m]!;
    if (n === 0) continue;
    const conf = sumConfidence[m]! / n;
    const over = conf - sumCorrect[m]! / n;
    if (over > 0) acc += (n / total) * conf * over;
  }
  return acc;
}
