/**
 * Student's t distribution with ν degrees of freedom, for the suite's paired tests over seeds:
 *
 *   P(T ≤ t) = 1 − ½ I_x(ν/2, ½) for t ≥ 0 (and ½ I_x(ν/2, ½) for t < 0), x = ν / (ν + t²),
 *
 * with I_x(a, b) the regularized incomplete beta function, evaluated by its continued fraction (Numerical Recipes,
 * 3rd ed., §6.4 `betacf`, modified Lentz) on the side x < (a + 1)/(a + b + 2) where it converges fast, and
 * I_x(a, b) = 1 − I_{1−x}(b, a) on the other. Quantiles invert the CDF by bisection to machine precision.
 * Checked against SciPy (test/fixtures/statistics/student-t-reference.json).
 */
import { logGamma } from '../../util/log-gamma.js';

const EPS = 1e-15;
const TINY = 1e-300;

/** The continued fraction of I_x(a, b) (NR `betacf`). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 ≤ x ≤ 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1)) return Number.NaN;
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(|T| ≥ |t|) for T ~ t(ν): the two-sided p-value of a t statistic (I_x(ν/2, ½), x = ν / (ν + t²)). */
export function studentTTwoSided(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** P(T ≤ t) for T ~ t(ν). */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0) || Number.isNaN(t)) return Number.NaN;
  const tail = studentTTwoSided(t, df) / 2;
  return t >= 0 ? 1 - tail : tail;
}

/** The quantile t_{p, ν}: P(T ≤ t) = p (0 < p < 1), by bisection on the CDF. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return Number.NaN;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  // Bracket: the upper quantile is positive; double the bound until the CDF passes p (t(1) at p = 1 − 1e-12 is 3e11).
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) {
    lo = hi;
    hi *= 2;
    if (hi > 1e300) return Number.POSITIVE_INFINITY;
  }
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
