/**
 * Summary statistics of the suite report: mean, sample standard deviation (n − 1), and the two-sided 95 %
 * Student-t interval of a mean, mean ± t_{0.975, n−1} · s / √n (the paired-difference interval over seeds).
 */

/** Two-sided 97.5 % quantiles of Student's t for 1…30 degrees of freedom (standard tables). */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** t_{0.975, df}: the table up to 30, then the normal quantile 1.96 plus the first-order correction (1.96³+1.96)/(4 df). */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) return Number.NaN;
  if (df <= 30) return T975[df - 1]!;
  return 1.96 + (1.96 ** 3 + 1.96) / (4 * df);
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

/** 95 % t-interval of the mean of `values` (NaN bounds for fewer than two values). */
export function tInterval(values: readonly number[]): { mean: number; lower: number; upper: number } {
  const m = mean(values);
  const half = tQuantile975(values.length - 1) * sampleStd(values) / Math.sqrt(values.length);
  return { mean: m, lower: m - half, upper: m + half };
}
