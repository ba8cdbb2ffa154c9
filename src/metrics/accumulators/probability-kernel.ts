import { binLowerClosed, binUpperClosed } from '../binned/binning.js';
import { addFast2Sum } from '../numeric/compensated-sum.js';
import type { ClasswiseAccumulator } from './classwise-accumulator.js';
import { logFloat32Bits } from '../numeric/fast-log.js';
import { PROBABILITY_SUM_TOLERANCE, type Labels } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * NLL of probability inputs: −log p_y exactly for every p_y > 0 (p_y = 1e−20 counts 46.05 nats); only p_y = 0,
 * whose −log is infinite, is raised to NLL_CLIP = 5e−324 (the smallest positive float64), so it counts
 * −log(5e−324) = 744.44 nats; p_y > 1 (rows summing to 1 within the tolerance) counts 0. Logit inputs use the
 * exact log-softmax.
 */
export const NLL_CLIP = Number.MIN_VALUE;

/** Per-row results of a block of rows (shapes [block]). */
export interface RowResults {
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  readonly nll: Float64Array;
  readonly brier: Float64Array;
  readonly entropy: Float64Array;
}

export function rowResults(size: number): RowResults {
  return {
    confidence: new Float64Array(size),
    correct: new Uint8Array(size),
    nll: new Float64Array(size),
    brier: new Float64Array(size),
    entropy: new Float64Array(size),
  };
}

/**
 * The one-pass kernel over probability rows [from, to) of a row-major chunk `data` (C = `cols` columns;
 * labels already validated). Each element is read once, for: the row's validity (finite, ≥ 0, Σ = 1 ± 1e−3),
 * argmax ŷ (first maximal index) and confidence c = min(p_ŷ, 1), Σ_k p_k² (Brier = Σ p² − p_y² + (1 − p_y)²),
 * entropy −Σ p log p (0 log 0 = 0; float32 inputs use `logFloat32Bits`), NLL = −log min(max(p_y, 5e−324), 1) (only p_y = 0 is raised), and the
 * classwise bins (count, compensated Σp) of `classwise`; Σ1[y=k] for the label's bin. The Σp compensation
 * is `addFast2Sum` (compensated-sum.ts). Row results go to
 * `out[i − from]`. Returns −1, or the index of the first invalid row (the caller restores its state and reports
 * the row: the classwise state has been changed by the rows before it and by that row).
 *
 * Bin 0 (p ≤ e_1 under '(l,u]', p < e_1 under '[l,u)') holds most p_ik when C is large (≈ 96 % at C = 100), so
 * its running pair (Σp, error) of every class is copied into two contiguous [C] arrays for the call and written
 * back at the end, and its count is not incremented per element: each class's bin-0 count gets the block's row
 * count up front and loses one for every p_ik that lands in another bin (exact: integers). The additions per
 * bin are the same, in the same order, so the state is bit-identical to binning every element (issue 24:
 * −15 to −25 % kernel CPU at 200,000 × 100).
 */
export function probabilityRows(data: FloatArray, bits: Uint32Array | null, cols: number, labels: Labels, from: number, to: number, classwise: ClasswiseAccumulator, out: RowResults): number {
  const { bins, edges, counts, sumProbability, sumProbabilityError, sumLabel } = classwise;
  const upper = classwise.convention === '(l,u]';
  const zeroBinTop = upper ? edges[1]! : previousDouble(edges[1]!); // p ≤ zeroBinTop ⟺ p is in bin 0
  const zeroSum = new Float64Array(cols);
  const zeroError = new Float64Array(cols);
  for (let k = 0, base = 0; k < cols; k++, base += bins) {
    zeroSum[k] = sumProbability[base]!;
    zeroError[k] = sumProbabilityError[base]!;
    counts[base]! += to - from;
  }
  let bad = -1;
  for (let i = from; i < to; i++) {
    const off = i * cols;
    const y = labels[i]!;
    let best = data[off]!;
    let arg = 0;
    let sq = 0;
    let ent = 0;
    let total = 0;
    let negative = false;
    for (let k = 0, base = 0; k < cols; k++, base += bins) {
      const v = data[off + k]!;
      total += v;
      if (v > best) {
        best = v;
        arg = k;
      }
      sq += v * v;
      if (v > 0) ent -= v * (bits !== null ? logFloat32Bits(bits[off + k]!, v) : Math.log(v));
      else if (v < 0) negative = true;
      if (v <= zeroBinTop) {
        addFast2Sum(zeroSum, zeroError, k, v);
      } else {
        const m = upper ? binUpperClosed(v, bins, edges) : binLowerClosed(v, bins, edges);
        if (m > 0) {
          counts[base + m]!++;
          counts[base]!--;
          addFast2Sum(sumProbability, sumProbabilityError, base + m, v);
        } else {
          addFast2Sum(zeroSum, zeroError, k, v); // v > 1 with one bin (or NaN: the row is rejected below)
        }
      }
    }
    // A NaN or ±Infinity entry makes `total` non-finite, so the sum test also rejects non-finite rows.
    if (negative || !(Math.abs(total - 1) <= PROBABILITY_SUM_TOLERANCE)) {
      bad = i;
      break;
    }
    const py = data[off + y]!;
    sumLabel[y * bins + (upper ? binUpperClosed(py, bins, edges) : binLowerClosed(py, bins, edges))]!++;
    const r = i - from;
    out.confidence[r] = best > 1 ? 1 : best;
    out.correct[r] = arg === y ? 1 : 0;
    out.nll[r] = -Math.log(py < NLL_CLIP ? NLL_CLIP : py > 1 ? 1 : py);
    out.brier[r] = sq - py * py + (1 - py) * (1 - py);
    out.entropy[r] = ent;
  }
  for (let k = 0, base = 0; k < cols; k++, base += bins) {
    sumProbability[base] = zeroSum[k]!;
    sumProbabilityError[base] = zeroError[k]!;
  }
  if (bad < 0) classwise.count += to - from;
  return bad;
}

/** The largest float64 below a positive finite x. */
function previousDouble(x: number): number {
  const view = new Float64Array([x]);
  const bits = new BigUint64Array(view.buffer);
  bits[0] = bits[0]! - 1n;
  return view[0]!;
}
