/**
 * Summary statistics of the suite report: mean, sample standard deviation (n − 1), and the paired tests over seeds on
 * differences d_s (a claim's metric(A, s) − metric(B, s)), with s the sample std of d and n its length:
 * - the two-sided Student-t interval of the mean at level L, mean ± t_{(1+L)/2, n−1} · s/√n (L = 95 % for
 *   directional claims, 90 % for equivalence);
 * - the two-sided p of H0 mean = 0, P(|T_{n−1}| ≥ |mean|/(s/√n));
 * - TOST (Schuirmann 1987) for a margin δ: p = max(P(T ≥ (mean + δ)/(s/√n)), P(T ≤ (mean − δ)/(s/√n))), below 5 %
 *   exactly when the 90 % interval lies inside ±δ; and the p of "outside the margin" (the 90 % interval wholly
 *   beyond +δ or −δ), min(P(T ≥ (mean − δ)/(s/√n)), P(T ≤ (mean + δ)/(s/√n)));
 * - the minimum detectable effect at 80 % power, two-sided 5 %: (t_{0.975, n−1} + t_{0.8, n−1}) · s/√n.
 */
import { studentTCdf, studentTQuantile, studentTTwoSided } from './student-t.js';

/** t_{0.975, df}, the two-sided 95 % quantile of Student's t (student-t.ts); NaN unless df is an integer ≥ 1. */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) return Number.NaN;
  return studentTQuantile(0.975, df);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Sample standard deviation (n − 1); NaN for fewer than two values. */
export function sampleStd(values: readonly number[]): number {
  if (values.length < 2) return Number.NaN;
  const m = mean(values);
  let s = 0;
  for (const v of values) s += (v - m) ** 2;
  return Math.sqrt(s / (values.length - 1));
}

/** Standard error of the mean, sampleStd / √n; NaN for fewer than two values. */
export function standardError(values: readonly number[]): number {
  return sampleStd(values) / Math.sqrt(values.length);
}

/** What "±" shows over seeds: the sample standard deviation or the standard error of the mean. */
export type Spread = 'std' | 'sem';

/** The spread of `values` of kind `kind`. */
export function spreadOf(values: readonly number[], kind: Spread): number {
  return kind === 'sem' ? standardError(values) : sampleStd(values);
}

/** How a report names the spread ("std", "SEM"). */
export function spreadName(kind: Spread): string {
  return kind === 'sem' ? 'SEM' : 'std';
}

/** Two-sided t-interval of the mean of `values` at `level` (default 95 %; NaN bounds for fewer than two values). */
export function tInterval(values: readonly number[], level = 0.95): { mean: number; lower: number; upper: number } {
  const m = mean(values);
  const q = values.length < 2 ? Number.NaN : studentTQuantile((1 + level) / 2, values.length - 1);
  const half = q * standardError(values);
  return { mean: m, lower: m - half, upper: m + half };
}

/** The t statistic (mean − mu)/(s/√n), ±Infinity when s = 0 and mean ≠ mu, 0 when both vanish. */
function tStatistic(values: readonly number[], mu: number): number {
  const diff = mean(values) - mu;
  const se = standardError(values);
  if (se === 0) return diff === 0 ? 0 : diff > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  return diff / se;
}

/** Two-sided p of the one-sample (paired) t-test of H0 mean = 0; NaN for fewer than two values. */
export function tTestP(values: readonly number[]): number {
  if (values.length < 2) return Number.NaN;
  return studentTTwoSided(tStatistic(values, 0), values.length - 1);
}

/** TOST p for equivalence within ±margin (below α exactly when the 1 − 2α interval lies inside ±margin). */
export function tostP(values: readonly number[], margin: number): number {
  if (values.length < 2) return Number.NaN;
  const df = values.length - 1;
  const aboveLower = 1 - studentTCdf(tStatistic(values, -margin), df);
  const belowUpper = studentTCdf(tStatistic(values, margin), df);
  return Math.max(aboveLower, belowUpper);
}

/** p of "outside ±margin" (below α exactly when the 1 − 2α interval lies wholly beyond +margin or −margin). */
export function outsideMarginP(values: readonly number[], margin: number): number {
  if (values.length < 2) return Number.NaN;
  const df = values.length - 1;
  const aboveUpper = 1 - studentTCdf(tStatistic(values, margin), df);
  const belowLower = studentTCdf(tStatistic(values, -margin), df);
  return Math.min(aboveUpper, belowLower);
}

/** Smallest |mean| a two-sided 5 % paired t-test detects with 80 % power at the observed spread: (t_{.975} + t_{.8})·s/√n. */
export function minimumDetectableEffect(values: readonly number[]): number {
  if (values.length < 2) return Number.NaN;
  const df = values.length - 1;
  return (studentTQuantile(0.975, df) + studentTQuantile(0.8, df)) * standardError(values);
}
