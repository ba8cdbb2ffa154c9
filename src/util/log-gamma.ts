/**
 * log Γ(x) for x > 0 (the Poisson sampler's acceptance test, data/corruptions/poisson.ts; the Student-t distribution's
 * normalising constant, suite/report/student-t.ts).
 */
const STIRLING = [
  8.333333333333333e-2, -2.777777777777778e-3, 7.936507936507937e-4, -5.952380952380952e-4, 8.417508417508418e-4, -1.917526917526918e-3, 6.41025641025641e-3, -2.955065359477124e-2,
  1.796443723688307e-1, -1.3924322169059,
];

/** log Γ(x) for x > 0 by the Stirling series after shifting x above 7 (NumPy's `random_loggam`). */
export function logGamma(x: number): number {
  if (x === 1 || x === 2) return 0;
  let x0 = x;
  let n = 0;
  if (x <= 7) {
    n = Math.floor(7 - x);
    x0 = x + n;
  }
  const x2 = 1 / (x0 * x0);
  let gl0 = STIRLING[9]!;
  for (let k = 8; k >= 0; k--) gl0 = gl0 * x2 + STIRLING[k]!;
  let gl = gl0 / x0 + 0.5 * Math.log(2 * Math.PI) + (x0 - 0.5) * Math.log(x0) - x0;
  if (x <= 7) {
    for (let k = 1; k <= n; k++) {
      gl -= Math.log(x0 - 1);
      x0 -= 1;
    }
  }
  return gl;
}
