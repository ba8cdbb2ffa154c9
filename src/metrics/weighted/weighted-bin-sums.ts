import type { BinConvention } from '../binned/reliability-types.js';
import { binLowerClosed, binUpperClosed, equalMassStart, equalWidthEdges } from '../binned/binning.js';
import { type BinSums, emptyBinSums } from '../binned/bin-statistics.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Bin sums of weighted samples: for bin m, n_m = Σ_{i∈B_m} w_i, Σ w_i c_i and Σ w_i a_i, so every formula of
 * bin-statistics.ts (ECE_p, MCE, OE, reliability data) reads them unchanged with N replaced by W = Σ w_i:
 * ECE = Σ_m |Σ_{i∈B_m} w_i (a_i − c_i)| / W. With w_i = 1 they are the unweighted sums; with integer w_i those of
 * the dataset with row i repeated w_i times.
 */

/** Equal-width weighted bin sums of values x (shape [N]) against targets a (shape [N]) with weights w (shape [N]). */
export function weightedEqualWidthBinSums(x: FloatArray, target: ArrayLike<number>, weights: Float64Array, bins: number, convention: BinConvention): BinSums {
  const edges = equalWidthEdges(bins);
  const sums = emptyBinSums(bins);
  const upper = convention === '(l,u]';
  for (let i = 0; i < x.length; i++) {
    const w = weights[i]!;
    if (w === 0) continue;
    const c = x[i]!;
    const b = upper ? binUpperClosed(c, bins, edges) : binLowerClosed(c, bins, edges);
    sums.counts[b]! += w;
    sums.sumConfidence[b]! += w * c;
    sums.sumCorrect[b]! += w * target[i]!;
  }
  return sums;
}

/**
 * Weighted equal-mass bin sums over samples visited in ascending order of confidence (`order`, a stable
 * argsort). Weights count as repetitions: row i occupies the rank interval [S_{i−1}, S_i) of the cumulative
 * weights S, and bin m the interval [⌈m·W/M⌉, ⌈(m+1)·W/M⌉) (bit-exact `equalMassStart` when W is an integer),
 * so integer weights give the equal-mass bins of the repeated dataset (binning.ts, rank r → ⌊r·M/N⌋) and unit
 * weights the unweighted ones; a row straddling a boundary is split between the two bins in proportion.
 * Because rank cells have unit width, rescaling every weight changes the bins (unlike the equal-width metrics).
 */
export function weightedEqualMassBinSums(confidence: Float64Array, correct: Uint8Array, weights: Float64Array, order: Uint32Array, total: number, bins: number): BinSums {
  const sums = emptyBinSums(bins);
  const integer = Number.isInteger(total) && total * bins < 2 ** 53;
  const start = (m: number): number => (integer ? equalMassStart(m, total, bins) : Math.min(total, Math.ceil((m * total) / bins)));
  let m = 0;
  let end = start(1); // end of bin m's rank interval
  let at = 0; // cumulative weight before the current row
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    let w = weights[i]!;
    if (w === 0) continue;
    const c = confidence[i]!;
    const a = correct[i]!;
    while (w > 0) {
      while (m < bins - 1 && at >= end) end = start(++m + 1);
      const part = m === bins - 1 ? w : Math.min(w, end - at);
      sums.counts[m]! += part;
      sums.sumConfidence[m]! += part * c;
      sums.sumCorrect[m]! += part * a;
      at += part;
      w -= part;
    }
  }
  return sums;
}

/**
 * Per-class weighted equal-width bin sums of the probabilities p_k (rows × C, row-major) against 1[y = k]:
 * element [k] holds class k's sums.
 */
export function weightedClasswiseBinSums(probabilities: FloatArray, labels: ArrayLike<number>, weights: Float64Array, classes: number, bins: number, convention: BinConvention): BinSums[] {
  const edges = equalWidthEdges(bins);
  const upper = convention === '(l,u]';
  const out = Array.from({ length: classes }, () => emptyBinSums(bins));
  for (let i = 0, off = 0; i < weights.length; i++, off += classes) {
    const w = weights[i]!;
    if (w === 0) continue;
    const y = labels[i]!;
    for (let k = 0; k < classes; k++) {
      const p = probabilities[off + k]!;
      const b = upper ? binUpperClosed(p, bins, edges) : binLowerClosed(p, bins, edges);
      const sums = out[k]!;
      sums.counts[b]! += w;
      sums.sumConfidence[b]! += w * p;
      if (k === y) sums.sumCorrect[b]! += w;
    }
  }
  return out;
}
