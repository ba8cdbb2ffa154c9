import { equalMassBinOfRank, equalMassBoundaries } from './binning.js';
import { sortTopLabel, type SortedTopLabel } from './sorted-top-label.js';
import { requireTopLabel } from './validation.js';
import { requireNumber } from '../util/errors.js';
import type { FloatArray } from '../util/matrix.js';

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
 * Cost O(N + b*²) with prefix sums (the reference is O(N · b*)); if the sorted correctness never decreases the
 * answer b* = N − 1 is found in O(N). Nearly separable data can still make b* ~ N/2 (seconds for N = 10⁵):
 * `maxBins` bounds the search (the result then reports the capped b*). Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function sweepCalibrationError(confidence: FloatArray, correct: Uint8Array, options: SweepOptions = {}): SweepResult {
  const p = requireNumber('p', options.p ?? 2, { min: 1 });
  const maxBins = options.maxBins === undefined ? Infinity : requireNumber('maxBins', options.maxBins, { integer: true, min: 1 });
  requireTopLabel(confidence, correct);
  return sweepFromSorted(sortTopLabel(confidence, correct), p, maxBins);
}

/** Monotonic-sweep ECE over sorted top-label samples. */
export function sweepFromSorted(sorted: SortedTopLabel, p: number, maxBins = Infinity): SweepResult {
  const n = sorted.confidence.length;
  const prefix = new Float64Array(n + 1); // number correct among the first r sorted samples
  let nonDecreasing = true;
  for (let i = 0; i < n; i++) {
    const a = sorted.correct[i]!;
    prefix[i + 1] = prefix[i]! + a;
    if (i > 0 && a < sorted.correct[i - 1]!) nonDecreasing = false;
  }
  let chosen = 1;
  const limit = Math.min(n - 1, maxBins);
  if (nonDecreasing) {
    chosen = Math.max(1, limit);
  } else {
    for (let b = 2; b <= limit; b++) {
      if (!monotone(prefix, n, b)) break;
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
