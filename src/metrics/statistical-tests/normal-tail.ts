/**
 * Upper tail of the standard normal distribution, Q(x) = P(Z > x) = ½ erfc(x/√2), for the p-values of the
 * calibration tests. erfc by the Chebyshev fit of Numerical Recipes (2nd ed., §6.2, `erfcc`): fractional error
 * below 1.2e−7 everywhere, so p-values carry about 7 significant digits, also far in the tail (no 1 − Φ
 * cancellation).
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z > x) for Z ~ N(0, 1). */
export function normalUpperTail(x: number): number {
  return 0.5 * erfc(x / Math.SQRT2);
}
