/**
 * One-dimensional isotonic (non-decreasing) regression with the behaviour of scikit-learn's
 * `IsotonicRegression(out_of_bounds='clip')` (sklearn/isotonic.py, _isotonic.pyx, version 1.2):
 * 1. sort the points by x, then y (here by x only, with a radix argsort: the order of y among equal x does not
 *    change the result, since step 2 sums them);
 * 2. merge ties: consecutive x within 1e−15 (float64 `finfo.resolution`) of the first x of the current group
 *    form one point at that first x, with the weighted mean of y and the summed weight;
 * 3. pool adjacent violators (PAV) on the merged points (blocks with equal or decreasing values are pooled);
 * 4. keep the first and last points and every point whose value differs from a neighbour (the prediction is
 *    unchanged by this);
 * 5. predict by linear interpolation between the kept points (scipy interp1d 'linear'), with inputs clipped to
 *    [min x, max x]; a single kept point predicts a constant.
 */
import { argsortFloat64 } from '../../util/argsort.js';
import { pav } from '../../util/pav.js';

/** The fitted step points (x strictly increasing, y non-decreasing). */
export interface IsotonicFit {
  readonly x: Float64Array;
  readonly y: Float64Array;
}

/**
 * Fit the isotonic regression of y on x (equal lengths ≥ 1); `weights` (≥ 0, not all zero; default all 1): the
 * weighted PAV of scikit-learn's `sample_weight` (tied points merge with summed weights, blocks pool weighted
 * means). Points of weight 0 are left out, as if absent.
 */
export function fitIsotonic(x: Float64Array, y: Float64Array, weights?: Float64Array): IsotonicFit {
  // Sorted by x (radix argsort, stable); the order of y among equal x does not matter, since step 2 sums them.
  let order = argsortFloat64(x);
  if (weights) order = order.filter((i) => weights[i]! > 0);
  // 2. merge near-duplicate x (typed arrays, indexed loop: this pass dominates the fit).
  const n = order.length;
  const ux = new Float64Array(n);
  const uy = new Float64Array(n);
  const uw = new Float64Array(n);
  const resolution = 1e-15;
  let m = 0;
  let currentX = x[order[0]!]!;
  let sumY = 0;
  let sumW = 0;
  for (let j = 0; j < n; j++) {
    const i = order[j]!;
    const xi = x[i]!;
    const wi = weights === undefined ? 1 : weights[i]!;
    if (xi - currentX >= resolution) {
      ux[m] = currentX;
      uy[m] = sumY / sumW;
      uw[m++] = sumW;
      currentX = xi;
      sumY = wi * y[i]!;
      sumW = wi;
    } else {
      sumY += wi * y[i]!;
      sumW += wi;
    }
  }
  ux[m] = currentX;
  uy[m] = sumY / sumW;
  uw[m++] = sumW;
  // 3. PAV.
  const fitted = pav(uy.subarray(0, m), uw.subarray(0, m));
  // 4. drop interior points equal to both neighbours.
  const keptX: number[] = [];
  const keptY: number[] = [];
  for (let i = 0; i < m; i++) {
    if (i === 0 || i === m - 1 || fitted[i] !== fitted[i - 1] || fitted[i] !== fitted[i + 1]) {
      keptX.push(ux[i]!);
      keptY.push(fitted[i]!);
    }
  }
  return { x: Float64Array.from(keptX), y: Float64Array.from(keptY) };
}

/** The fitted function at v: clip to [x_0, x_last], then linear interpolation (scipy interp1d's formula). */
export function predictIsotonic(fit: IsotonicFit, v: number): number {
  const { x, y } = fit;
  const n = x.length;
  if (n === 1) return y[0]!;
  const t = Math.min(Math.max(v, x[0]!), x[n - 1]!);
  // searchsorted(x, t, side='left'), clipped to [1, n − 1].
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  const idx = Math.min(Math.max(lo, 1), n - 1);
  const xLo = x[idx - 1]!;
  const xHi = x[idx]!;
  const yLo = y[idx - 1]!;
  const yHi = y[idx]!;
  const slope = (yHi - yLo) / (xHi - xLo);
  return slope * (t - xLo) + yLo;
}
