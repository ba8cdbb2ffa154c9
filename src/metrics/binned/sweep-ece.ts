import { equalMassBinOfRank, equalMassBoundaries, equalMassStart } from './binning.js';
import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import { requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { ScratchPool } from '../numeric/scratch-pool.js';

export interface SweepOptions {
  /** Norm p ≥ 1 (default 2, as Karandikar et al. 2021 report the mean-sweep CE). */
  readonly p?: number;
  /** Upper limit on the number of bins tried (default: none, i.e. N − 1 as the reference code). */
  readonly maxBins?: number;
}

export interface SweepResult {
  /** ECE_sweep,p. */
  readonly value: number;
  /** Number of equal-mass bins chosen. */
  readonly bins: number;
}

/**
 * Monotonic-sweep ECE, equal-mass (Roelofs et al. 2020, "Mitigating bias in calibration error estimation";
 * reference: google-research `caltrain/calibration_metrics.py`, `em_ece_sweep`):
 * for b = 2, 3, …, N − 1 bin the sorted confidences into b equal-mass bins (rank r → min(b−1, ⌊(r/N)·b⌋),
 * ties in input order), stop at the first b whose bin accuracies are not non-decreasing (a strictly smaller
 * accuracy after a larger one), and use b* = b − 1 (b* = N − 1 if none fails, 1 if N < 3);
 * ECE_sweep = (Σ_m (|B_m|/N) |acc(B_m) − conf(B_m)|^p)^{1/p} over those b* bins.
 * Cost O(N + Σ_{b ≤ b*} min(b, D)) with prefix sums, D the number of descents (sorted positions d with a_d = 1,
 * a_{d+1} = 0): a pair of adjacent bins can only decrease when it holds a 1 before a 0, hence a descent, so only
 * the bins next to descents are checked (the reference is O(N · b*)). Nearly separable data, where b* ~ N/2,
 * has few descents: N = 10⁵ takes milliseconds, not the seconds of the plain O(b*²) search. If the sorted
 * correctness never decreases the answer b* = N − 1 is found in O(N). `maxBins` bounds the search (the result
 * then reports the capped b*). Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function sweepCalibrationError(confidence: FloatArray, correct: Uint8Array, options: SweepOptions = {}): SweepResult {
  const p = requireNumber('p', options.p ?? 2, { min: 1 });
  const maxBins = options.maxBins === undefined ? Infinity : requireNumber('maxBins', options.maxBins, { integer: true, min: 1 });
  requireTopLabel(confidence, correct);
  return sweepFromSorted(sortTopLabel(confidence, correct), p, maxBins);
}

/** Monotonic-sweep ECE over sorted top-label samples. */
export function sweepFromSorted(sorted: SortedTopLabel, p: number, maxBins = Infinity, pool: ScratchPool = ScratchPool.none): SweepResult {
  const n = sorted.confidence.length;
  const prefix = pool.float64(n + 1); // number correct among the first r sorted samples
  prefix[0] = 0;
  let descentCount = 0;
  for (let i = 0; i < n; i++) {
    const a = sorted.correct[i]!;
    prefix[i + 1] = prefix[i]! + a;
    if (i > 0 && a < sorted.correct[i - 1]!) descentCount++;
  }
  const descents = new Int32Array(descentCount); // d with a_d = 1, a_{d+1} = 0 (ascending)
  for (let i = 1, k = 0; i < n; i++) if (sorted.correct[i]! < sorted.correct[i - 1]!) descents[k++] = i - 1;
  let chosen = 1;
  const limit = Math.min(n - 1, maxBins);
  if (descentCount === 0) {
    chosen = Math.max(1, limit);
  } else {
    for (let b = 2; b <= limit; b++) {
      const ok = 2 * descentCount >= b ? monotone(prefix, n, b) : monotoneNearDescents(prefix, n, b, descents);
      if (!ok) break;
      chosen = b;
    }
  }
  const start = equalMassBoundaries(n, chosen);
  let acc = 0;
  for (let m = 0; m < chosen; m++) {
    const from = start[m]!;
    const to = start[m + 1]!;
    if (to === from) continue;
    let sc = 0;
    for (let i = from; i < to; i++) sc += sorted.confidence[i]!;
    const count = to - from;
    const gap = Math.abs((prefix[to]! - prefix[from]!) / count - sc / count);
    acc += count * Math.pow(gap, p);
  }
  pool.give(prefix);
  return { value: Math.pow(acc / n, 1 / p), bins: chosen };
}

/**
 * Whether the accuracies of the b equal-mass bins never decrease (stops at the first decrease). Division-free:
 * bin starts ⌈m·N/b⌉ advance by ⌊N/b⌋ plus a carried remainder (the float formula of `equalMassBinOfRank` is
 * consulted only when m·N/b is an integer, the one case where it can differ), and accuracies are compared by
 * cross-multiplying the integer counts — equivalent to comparing the float means, since distinct fractions
 * with denominators ≤ N differ by ≥ 1/N² ≫ one rounding.
 */
function monotone(prefix: Float64Array, n: number, bins: number): boolean {
  const base = Math.floor(n / bins);
  const extra = n - base * bins;
  let rem = 0; // (m · extra) mod bins
  let quo = 0; // ⌊m · extra / bins⌋
  let from = 0;
  let lastSum = 0;
  let lastLen = 0; // 0: no non-empty bin yet
  for (let m = 1; m <= bins; m++) {
    rem += extra;
    if (rem >= bins) {
      rem -= bins;
      quo++;
    }
    let to = n;
    if (m < bins) {
      to = m * base + quo + (rem > 0 ? 1 : 0);
      if (rem === 0 && to < n && equalMassBinOfRank(to, n, bins) < m) to++;
      if (to > n) to = n;
    }
    const len = to - from;
    if (len > 0) {
      const sum = prefix[to]! - prefix[from]!;
      if (lastLen > 0 && sum * lastLen < lastSum * len) return false;
      lastSum = sum;
      lastLen = len;
    }
    from = to;
  }
  return true;
}

/**
 * Same answer as `monotone` for b ≤ N bins (all non-empty), checking only adjacent pairs next to a descent.
 * If bin m holds a 1 and bin m + 1 a 0 (needed for acc(m) > acc(m + 1)), some descent d (a_d = 1, a_{d+1} = 0)
 * lies between them, so d is in bin m or m + 1: checking the pairs (m_d − 1, m_d) and (m_d, m_d + 1) of every
 * descent's bin m_d covers every pair that can decrease. Bin bounds come from `equalMassStart`, consistent
 * with `equalMassBinOfRank` (and with `monotone`'s incremental bounds) bit for bit.
 */
function monotoneNearDescents(prefix: Float64Array, n: number, bins: number, descents: Int32Array): boolean {
  let checkedUpTo = -1; // pairs (m, m + 1) with m ≤ checkedUpTo are done
  for (let k = 0; k < descents.length; k++) {
    const m = equalMassBinOfRank(descents[k]!, n, bins);
    for (let left = Math.max(m - 1, checkedUpTo + 1); left <= m && left + 1 < bins; left++) {
      const s0 = equalMassStart(left, n, bins);
      const s1 = equalMassStart(left + 1, n, bins);
      const s2 = equalMassStart(left + 2, n, bins);
      const len0 = s1 - s0;
      const len1 = s2 - s1;
      if (len0 > 0 && len1 > 0 && (prefix[s2]! - prefix[s1]!) * len0 < (prefix[s1]! - prefix[s0]!) * len1) return false;
    }
    if (m > checkedUpTo) checkedUpTo = m;
  }
  return true;
}
