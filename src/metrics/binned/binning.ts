import type { BinConvention } from './reliability-types.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

export type { BinConvention } from './reliability-types.js';

/**
 * THE definition of confidence bins in the toolkit (METHODS.md § Metrics, "Bins"). Every binned metric, the
 * reliability diagram, classwise ECE, histogram binning and the SB-ECE losses take their bins from here.
 *
 * Equal-width bins: M bins over [0, 1] with float64 edges e_m = m/M (m = 0..M).
 * - '(l,u]' (default; Guo et al.'s code, the MbLS/ACLS code, scikit-learn, uncertainty-calibration):
 *   bin m (0-based) is (e_m, e_{m+1}]; a confidence of exactly 0 goes to the first bin.
 * - '[l,u)' (torchmetrics, netcal, robustness_metrics): bin m is [e_m, e_{m+1}); a confidence of exactly 1
 *   goes to the last bin. torchmetrics adds a hidden (M+1)-th bin for c = 1.0; we do not.
 * Edge cases are decided by comparing the float64 value of the confidence (for float32 inputs: the float64
 * value of the float32 number) with the float64 edge m/M. Example, M = 5: float32(0.2) = 0.200000003 > 0.2
 * lands in (0.2, 0.4] although the papers' PyTorch code, comparing in float32, puts it in (0, 0.2]; only
 * confidences within one float32 ulp of an edge are affected. Values above 1 (allowed by the probability-sum
 * tolerance) go to the last bin, values below 0 to the first.
 */
export const DEFAULT_CONVENTION: BinConvention = '(l,u]';

/** Largest number of bins accepted (keeps the fast path of the bin functions exact; see `binUpperClosed`). */
export const MAX_BINS = 1_000_000;

/** Validate a number of bins: an integer in [1, MAX_BINS]. */
export function requireBins(bins: unknown, argument = 'bins'): number {
  return requireNumber(argument, bins, { integer: true, min: 1, max: MAX_BINS });
}

/** Validate a bin convention string. */
export function requireConvention(convention: unknown, argument = 'convention'): BinConvention {
  if (convention !== '(l,u]' && convention !== '[l,u)') invalidArgument(argument, "'(l,u]' or '[l,u)'", describe(convention));
  return convention;
}

/** The M + 1 equal-width edges e_m = m/M (float64, e_0 = 0, e_M = 1). */
export function equalWidthEdges(bins: number): Float64Array {
  const m = requireBins(bins);
  const edges = new Float64Array(m + 1);
  for (let i = 0; i <= m; i++) edges[i] = i / m;
  return edges;
}

/**
 * Fast path shared by both conventions: when t = fl(c·M) is more than 1e−8 away from an integer, c is not on
 * (nor within rounding of) any edge — for c ≤ 1.001 and M ≤ MAX_BINS, |fl(c·M) − c·M| ≤ 1.2e−10 and
 * M·|fl(m/M) − m/M| ≤ 1.2e−10 — so both conventions give ⌊t⌋. The same holds for 0 ≤ t < 1 − 1e−8 (bin 0 in
 * both conventions, c = 0 included), which keeps the many near-zero probabilities of classwise binning on the
 * fast path. Otherwise the exact slow path decides.
 */
const EDGE_MARGIN = 1e-8;

/**
 * Equal-width bin of confidence `c` under '(l,u]' given `edges = equalWidthEdges(bins)`: the m with
 * e_m < c ≤ e_{m+1} (c ≤ 0 → 0, c > 1 → M − 1).
 */
export function binUpperClosed(c: number, bins: number, edges: Float64Array): number {
  if (c <= edges[1]!) return 0; // bin 0 is [−∞, e_1] (c ≤ 0 included): exact, and most classwise p_ik land here
  const t = c * bins;
  const f = Math.floor(t);
  const frac = t - f;
  if ((frac > EDGE_MARGIN || f === 0) && frac < 1 - EDGE_MARGIN && f >= 0 && f < bins) return f;
  return binUpperClosedExact(c, bins, edges);
}

/** Slow path of `binUpperClosed`: ceil(c·M) − 1 (off by at most one) corrected by explicit edge comparisons. */
export function binUpperClosedExact(c: number, bins: number, edges: Float64Array): number {
  let b = Math.ceil(c * bins) - 1;
  if (b < 0) b = 0;
  else if (b >= bins) b = bins - 1;
  if (b > 0 && c <= edges[b]!) b--;
  else if (b < bins - 1 && c > edges[b + 1]!) b++;
  return b;
}

/** Equal-width bin of `c` under '[l,u)': the m with e_m ≤ c < e_{m+1} (c ≥ 1 → M − 1, c < 0 → 0). */
export function binLowerClosed(c: number, bins: number, edges: Float64Array): number {
  if (c < edges[1]!) return 0; // bin 0 is [−∞, e_1): exact
  const t = c * bins;
  const f = Math.floor(t);
  const frac = t - f;
  if ((frac > EDGE_MARGIN || f === 0) && frac < 1 - EDGE_MARGIN && f >= 0 && f < bins) return f;
  return binLowerClosedExact(c, bins, edges);
}

/** Slow path of `binLowerClosed`: floor(c·M) corrected by explicit edge comparisons. */
export function binLowerClosedExact(c: number, bins: number, edges: Float64Array): number {
  let b = Math.floor(c * bins);
  if (b < 0) b = 0;
  else if (b >= bins) b = bins - 1;
  if (b > 0 && c < edges[b]!) b--;
  else if (b < bins - 1 && c >= edges[b + 1]!) b++;
  return b;
}

/** Equal-width bin of one confidence under `convention`. */
export function equalWidthBin(c: number, bins: number, convention: BinConvention = DEFAULT_CONVENTION): number {
  const edges = equalWidthEdges(bins);
  return convention === '(l,u]' ? binUpperClosed(c, bins, edges) : binLowerClosed(c, bins, edges);
}

/** Equal-width bin of every confidence (shape [N] → [N]). */
export function assignEqualWidthBins(confidence: FloatArray, bins: number, convention: BinConvention = DEFAULT_CONVENTION): Int32Array {
  const edges = equalWidthEdges(bins);
  requireConvention(convention);
  const out = new Int32Array(confidence.length);
  const upper = convention === '(l,u]';
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i]!;
    out[i] = upper ? binUpperClosed(c, bins, edges) : binLowerClosed(c, bins, edges);
  }
  return out;
}

/**
 * Equal-mass binning (default 'equal-mass'): the sample of rank r (0-based, in ascending order of confidence,
 * ties kept in input order) goes to bin min(M − 1, ⌊(r / N) · M⌋), evaluated in float64 exactly as the code of
 * Roelofs et al. 2020 (google-research `caltrain/bin_methods.py`, BinEqualExamples) and Karandikar et al.
 * Bins hold ⌊N/M⌋ or ⌈N/M⌉ samples; with M > N some bins are empty.
 */
export function equalMassBinOfRank(rank: number, n: number, bins: number): number {
  const b = Math.floor((rank / n) * bins);
  return b < bins - 1 ? b : bins - 1;
}

/**
 * First sorted position of equal-mass bin m of `bins` over N samples: the smallest r with
 * equalMassBinOfRank(r) ≥ m (N when none), consistent with `equalMassBinOfRank` bit for bit.
 * Exact integer arithmetic gives r = ⌈m·N/M⌉ (m·N < 2⁵³); the float formula can only disagree when r·M/N is
 * an integer (otherwise it is ≥ 1/N away from one), and then it may round below, which is checked.
 */
export function equalMassStart(m: number, n: number, bins: number): number {
  if (m <= 0) return 0;
  if (m >= bins) return n;
  const num = m * n;
  let r = Math.floor(num / bins);
  if (r * bins > num) r--;
  if (r * bins < num) r++; // r = ⌈m·N/M⌉ exactly
  if (r * bins === num && r < n && equalMassBinOfRank(r, n, bins) < m) r++;
  return Math.min(r, n);
}

/**
 * Rank boundaries of the equal-mass bins: bin m holds the sorted positions [start[m], start[m+1]), with
 * start[0] = 0 and start[M] = N (shape [M + 1]).
 */
export function equalMassBoundaries(n: number, bins: number): Int32Array {
  const start = new Int32Array(bins + 1);
  for (let m = 1; m <= bins; m++) start[m] = equalMassStart(m, n, bins);
  return start;
}

/**
 * 'interp' equal-mass edges of the papers' code (MbLS / ACLS `AdaptiveECELoss.histedges_equalN`):
 * `np.interp(np.linspace(0, N, M + 1), np.arange(N), np.sort(conf))`, reproduced operation by operation
 * (linspace as i · (N/M) with the last point exactly N; interp as slope · (x − j) + s_j, values at or beyond
 * x = N − 1 clamp to the maximum). Input: confidences sorted ascending (shape [N], N ≥ 1); output shape [M + 1].
 * Membership is (l, u] against these edges (see `interpBinCounts`), so the minimum sample (and its ties) is
 * never counted — the code's behaviour, kept for reproduction.
 */
export function interpEqualMassEdges(sorted: FloatArray, bins: number): Float64Array {
  const n = sorted.length;
  if (n < 1) invalidArgument('sorted', 'at least one confidence', '0');
  const edges = new Float64Array(bins + 1);
  const step = n / bins;
  for (let i = 0; i <= bins; i++) {
    const x = i === bins ? n : i * step;
    if (x >= n - 1) {
      edges[i] = sorted[n - 1]!;
      continue;
    }
    const j = Math.floor(x);
    const lo = sorted[j]!;
    if (x === j) {
      edges[i] = lo;
      continue;
    }
    const slope = sorted[j + 1]! - lo; // (dy[j+1] − dy[j]) / (dx[j+1] − dx[j]) with dx = 1
    edges[i] = slope * (x - j) + lo;
  }
  return edges;
}

/**
 * Uncertainty-calibration's `get_equal_bins` (Kumar et al. 2019): split the sorted confidences into
 * min(M, N) groups with `np.array_split` sizes (the first N mod M groups one larger), put an upper edge halfway
 * between the last value of a group and the first of the next, append 1.0, drop duplicate edges.
 * Input sorted ascending (shape [N], N ≥ 1); output: ascending upper edges (shape [M' ≤ M]), last = 1.
 * Membership (as `np.searchsorted(edges, c)`): bin = number of edges < c, i.e. (e_{m−1}, e_m] — see
 * `upperEdgeBin`. Midpoints are computed in float64 (the library computes them in the input's dtype).
 */
export function midpointEqualMassEdges(sorted: FloatArray, bins: number): Float64Array {
  const n = sorted.length;
  if (n < 1) invalidArgument('sorted', 'at least one confidence', '0');
  const groups = Math.min(bins, n);
  const base = Math.floor(n / groups);
  const extra = n % groups;
  const raw: number[] = [];
  let end = 0; // exclusive end of the current group
  for (let g = 0; g < groups - 1; g++) {
    end += base + (g < extra ? 1 : 0);
    raw.push((sorted[end - 1]! + sorted[end]!) / 2.0);
  }
  raw.push(1.0);
  const unique = Array.from(new Set(raw)).sort((a, b) => a - b);
  return Float64Array.from(unique);
}

/** Bin of `c` for ascending upper edges as `np.searchsorted(edges, c, 'left')`, clamped to the last bin. */
export function upperEdgeBin(c: number, upperEdges: Float64Array): number {
  let lo = 0;
  let hi = upperEdges.length; // first index with edge >= c
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (upperEdges[mid]! < c) lo = mid + 1;
    else hi = mid;
  }
  return lo < upperEdges.length ? lo : upperEdges.length - 1;
}

/** Number of sorted values ≤ x (binary search; `sorted` ascending). */
export function countAtMost(sorted: FloatArray, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
