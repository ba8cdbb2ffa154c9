import { argsortStable } from '../numeric/argsort.js';
import { quantile } from '../bootstrap.js';

/**
 * LOESS calibration curve and the calibration errors read from it (Austin & Steyerberg 2019, "The Integrated
 * Calibration Index (ICI) and related metrics for quantifying the calibration of logistic regression models",
 * Stat. Med. 38): with P̂c(p) the smoothed observed risk at predicted risk p,
 *
 *   ICI = mean_i |P̂c(p_i) − p_i|,  E50 / E90 = median / 90th percentile of |P̂c(p_i) − p_i|,  Emax = max_i |…|.
 *
 * The smoother is Cleveland's (1979) lowess of y on p, degree 1 with tricube weights over the ⌊f n⌋ nearest
 * predictions (span f = 2/3 by default, R `lowess` / statsmodels `lowess` default), without robustness
 * iterations (iter = 0: with 0/1 outcomes the robustness step would down-weight the rarer outcome as outliers),
 * evaluated exactly at every distinct p (statsmodels' delta = 0). It follows the Fortran `lowest` routine
 * step for step (weights 1 within 0.001 h, 0 beyond 0.999 h; a local slope only when the weighted spread of p
 * exceeds 0.001 × range), so it matches statsmodels.nonparametric.lowess(y, p, frac=f, it=0, delta=0).
 * Austin & Steyerberg fitted R's `loess` (degree 2, span 0.75, interpolated surface); the numbers differ slightly.
 * Cost O(U × f n) for U distinct predictions.
 */
export interface LoessCalibration {
  /** Distinct predictions, ascending, and the smoothed observed risk at each. */
  readonly p: Float64Array;
  readonly observed: Float64Array;
  readonly ici: number;
  readonly e50: number;
  readonly e90: number;
  readonly emax: number;
  readonly span: number;
}

/** Fitted lowess values at every x (x ascending), degree 1, no robustness iterations. */
export function lowessSorted(x: ArrayLike<number>, y: ArrayLike<number>, span: number): Float64Array {
  const n = x.length;
  const fit = new Float64Array(n);
  if (n === 0) return fit;
  if (n === 1) {
    fit[0] = y[0]!;
    return fit;
  }
  const neighbours = Math.max(Math.min(Math.floor(span * n + 1e-10), n), 2);
  const range = x[n - 1]! - x[0]!;
  const w = new Float64Array(n);
  let left = 0;
  let right = neighbours - 1;
  let i = 0;
  while (i < n) {
    const xi = x[i]!;
    while (right < n - 1 && xi - x[left]! > x[right + 1]! - xi) {
      left++;
      right++;
    }
    const h = Math.max(xi - x[left]!, x[right]! - xi);
    const h9 = 0.999 * h;
    const h1 = 0.001 * h;
    let total = 0;
    let j = left;
    for (; j < n; j++) {
      w[j] = 0;
      const r = Math.abs(x[j]! - xi);
      if (r <= h9) {
        if (r > h1) {
          const u = r / h;
          const v = 1 - u * u * u;
          w[j] = v * v * v;
        } else w[j] = 1;
        total += w[j]!;
      } else if (x[j]! > xi) break;
    }
    const last = j - 1;
    let value: number;
    if (!(total > 0)) value = y[i]!;
    else {
      for (let k = left; k <= last; k++) w[k]! /= total;
      if (h > 0) {
        let mean = 0;
        for (let k = left; k <= last; k++) mean += w[k]! * x[k]!;
        let b = xi - mean;
        let c = 0;
        for (let k = left; k <= last; k++) c += w[k]! * (x[k]! - mean) * (x[k]! - mean);
        if (Math.sqrt(c) > 0.001 * range) {
          b /= c;
          for (let k = left; k <= last; k++) w[k] = w[k]! * (b * (x[k]! - mean) + 1);
        }
      }
      value = 0;
      for (let k = left; k <= last; k++) value += w[k]! * y[k]!;
    }
    fit[i] = value;
    let t = i + 1;
    while (t < n && x[t] === xi) fit[t++] = value;
    i = t;
  }
  return fit;
}

/** The lowess calibration curve of risks p [N] for outcomes y [N] ∈ {0, 1} and ICI, E50, E90, Emax. */
export function loessCalibration(p: ArrayLike<number>, y: ArrayLike<number>, span = 2 / 3): LoessCalibration {
  const n = p.length;
  const order = argsortStable(Float64Array.from(p));
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    xs[s] = p[order[s]!]!;
    ys[s] = y[order[s]!]!;
  }
  const fit = lowessSorted(xs, ys, span);
  const errors = new Float64Array(n);
  let sum = 0;
  const distinct: number[] = [];
  const observed: number[] = [];
  for (let s = 0; s < n; s++) {
    errors[s] = Math.abs(fit[s]! - xs[s]!);
    sum += errors[s]!;
    if (s === 0 || xs[s] !== xs[s - 1]) {
      distinct.push(xs[s]!);
      observed.push(fit[s]!);
    }
  }
  errors.sort();
  return {
    p: Float64Array.from(distinct),
    observed: Float64Array.from(observed),
    ici: sum / n,
    e50: quantile(errors, 0.5),
    e90: quantile(errors, 0.9),
    emax: errors[n - 1]!,
    span,
  };
}
