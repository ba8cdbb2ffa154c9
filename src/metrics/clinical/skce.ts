import { argsortStable } from '../numeric/argsort.js';
import { Random } from '../../util/random.js';

/**
 * Squared kernel calibration error (SKCE; Widmann, Lindsten & Zachariah 2019, "Calibration tests in multi-class
 * classification: a unifying framework", NeurIPS) of binary forecasts, its unbiased quadratic estimator and a
 * calibration test.
 *
 * With the forecast as the two-class vector P = (1 − p, p), the matrix-valued kernel k(P, P′) I₂ and
 * k(P, P′) = exp(−‖P − P′‖₂ / ν) (the exponential / Laplacian kernel ⊗ the identity, CalibrationErrors.jl's
 * `ExponentialKernel() ⊗ WhiteKernel()`), (e_y − P)ᵀ k I₂ (e_y′ − P′) = 2 k (y − p)(y′ − p′), so
 *
 *   SKCE_uq = (n (n − 1))⁻¹ Σ_{i ≠ j} 2 k_ij r_i r_j,   r_i = y_i − p_i,   k_ij = exp(−|p_i − p_j| / m),
 *
 * where ‖P_i − P_j‖₂ = √2 |p_i − p_j| and the bandwidth ν is the median heuristic ν = median_{i<j} ‖P_i − P_j‖₂,
 * so m = ν / √2 = median_{i<j} |p_i − p_j| (the mean pairwise distance if that median is 0). The estimator is
 * unbiased for SKCE ≥ 0 and can be negative.
 *
 * Test of H₀ "p is calibrated" (y_i ~ Bernoulli(p_i) independently): the null distribution of the statistic
 * given the forecasts is simulated by drawing y*_i ~ Bernoulli(p_i) B times (consistency resampling, Bröcker &
 * Smith 2007, without resampling the forecasts, i.e. conditional on them); p-value = (1 + #{T* ≥ T}) / (B + 1).
 * This is a Monte Carlo test, not CalibrationTests.jl's asymptotic one; its resolution is 1 / (B + 1).
 *
 * In one dimension the Laplacian kernel sums in O(n) after sorting: with p sorted,
 * Σ_j k_ij r_j = F_i + G_i − r_i, F_i = r_i + e^{−(p_i − p_{i−1})/m} F_{i−1} and G the same from the right,
 * so the statistic and each resample cost O(n) instead of O(n²).
 */
export interface SkceResult {
  readonly skce: number;
  readonly pValue: number;
  /** m = ν / √2: the kernel is exp(−|p − p′| / m). */
  readonly bandwidth: number;
  readonly resamples: number;
}

/** The k-th smallest (1-based) of the pairwise differences x_j − x_i (i < j) of ascending x, exactly. */
function kthPairwiseDifference(x: Float64Array, k: number): number {
  const n = x.length;
  const countAtMost = (t: number): number => {
    let count = 0;
    let i = 0;
    for (let j = 1; j < n; j++) {
      while (x[j]! - x[i]! > t) i++;
      count += j - i;
    }
    return count;
  };
  let lo = 0;
  if (countAtMost(0) >= k) return 0;
  let hi = x[n - 1]! - x[0]!;
  for (let iteration = 0; iteration < 2000; iteration++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (countAtMost(mid) >= k) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** median_{i<j} |x_i − x_j| of ascending x (NumPy's median of the pair distances); the mean if that is 0. */
export function medianPairwiseDistance(sorted: Float64Array): number {
  const n = sorted.length;
  const pairs = (n * (n - 1)) / 2;
  const median = pairs % 2 === 1 ? kthPairwiseDifference(sorted, (pairs + 1) / 2) : (kthPairwiseDifference(sorted, pairs / 2) + kthPairwiseDifference(sorted, pairs / 2 + 1)) / 2;
  if (median > 0) return median;
  // Mean pairwise distance: Σ_{i<j} (x_j − x_i) = Σ_j (j x_j − Σ_{i<j} x_i).
  let prefix = 0;
  let total = 0;
  for (let j = 0; j < n; j++) {
    total += j * sorted[j]! - prefix;
    prefix += sorted[j]!;
  }
  return total / pairs;
}

/** Σ_{i≠j} k_ij r_i r_j for residuals r in sorted order and decays d_i = e^{−(x_i − x_{i−1})/m}. */
function kernelQuadraticForm(r: Float64Array, decay: Float64Array, forward: Float64Array): number {
  const n = r.length;
  let running = 0;
  for (let i = 0; i < n; i++) {
    running = r[i]! + decay[i]! * running;
    forward[i] = running;
  }
  let backward = 0;
  let total = 0;
  for (let i = n - 1; i >= 0; i--) {
    // backward = G_i = r_i + d_{i+1} G_{i+1}
    backward = r[i]! + (i + 1 < n ? decay[i + 1]! * backward : 0);
    total += r[i]! * (forward[i]! + backward - 2 * r[i]!);
  }
  return total;
}

export interface SkceOptions {
  /** Monte Carlo resamples B of the test (default 1000); 0 skips the test (p-value NaN). */
  readonly resamples?: number;
  readonly seed?: number;
  /** m of exp(−|p − p′| / m); default: the median heuristic above. */
  readonly bandwidth?: number;
}

/** SKCE_uq of risks p [N] for outcomes y [N] ∈ {0, 1} (N ≥ 2, validated by the caller) and its test. */
export function skce(p: ArrayLike<number>, y: ArrayLike<number>, options: SkceOptions = {}): SkceResult {
  const n = p.length;
  const order = argsortStable(Float64Array.from(p));
  const x = new Float64Array(n);
  const r = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    x[s] = p[order[s]!]!;
    r[s] = y[order[s]!]! - x[s]!;
  }
  const bandwidth = options.bandwidth ?? medianPairwiseDistance(x);
  const decay = new Float64Array(n);
  for (let s = 1; s < n; s++) decay[s] = bandwidth > 0 ? Math.exp(-(x[s]! - x[s - 1]!) / bandwidth) : x[s] === x[s - 1] ? 1 : 0;
  const scratch = new Float64Array(n);
  const scale = 2 / (n * (n - 1));
  const statistic = scale * kernelQuadraticForm(r, decay, scratch);
  const resamples = options.resamples ?? 1000;
  if (resamples === 0) return { skce: statistic, pValue: Number.NaN, bandwidth, resamples };
  const random = new Random(options.seed ?? 0);
  const simulated = new Float64Array(n);
  let atLeast = 0;
  for (let b = 0; b < resamples; b++) {
    for (let s = 0; s < n; s++) simulated[s] = (random.uniform() < x[s]! ? 1 : 0) - x[s]!;
    // Compare on the unscaled form with a relative tolerance so that exact ties (e.g. every p in {0, 1}) count.
    const value = scale * kernelQuadraticForm(simulated, decay, scratch);
    if (value >= statistic - 1e-12 * Math.abs(statistic)) atLeast++;
  }
  return { skce: statistic, pValue: (1 + atLeast) / (resamples + 1), bandwidth, resamples };
}
