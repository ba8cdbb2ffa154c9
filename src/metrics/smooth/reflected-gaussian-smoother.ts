import type { FloatArray } from '../../util/matrix.js';

/**
 * Gaussian kernel smoothing on [0, 1] with reflection at both ends, discretised on a grid exactly as relplot
 * (Błasiok & Nakkiran 2023; apple/ml-calibration `relplot/kernels.py`, `ReflectedGaussianKernel.apply`):
 * 1. grid of G = ⌊max(2000, round(20/σ))/2⌋ + 1 points x_j = j/(G−1); each sample's weight w_i is split
 *    linearly between its two neighbouring grid points (`smooth_round_to_grid`);
 * 2. the grid values are convolved with g(d) = exp(−d²/(2σ²(G−1)²)) / (√(2π) σ) (d in grid steps), the
 *    values reflected once about both ends (x_{−j} = x_j, x_{G−1+j} = x_{G−1−j});
 * 3. read off at evaluation points t by linear interpolation between grid points.
 * The kernel is truncated at 9σ (g < e^{−40} of its peak there), which changes nothing at float64
 * precision but keeps the convolution O(G · σG). The grid sums are additive, so two sample sets merge by
 * adding their grids; the grid size depends on σ.
 */

/** Grid size G for bandwidth σ. */
export function smootherGridSize(sigma: number): number {
  return Math.floor(Math.max(2000, Math.round(20 / sigma)) / 2) + 1;
}

/** Per-sample weights of `roundToGrid`: an array [N], or one number for every sample. */
export type GridWeights = ArrayLike<number> | number;

/**
 * Grid sums of weights w_i at positions f_i ∈ [0, 1] (shape [G]), one grid per entry of `weights`.
 * Each grid is filled by its own pass over the samples in order (monomorphic loops: ~3× faster than a
 * weight callback per sample, same sums bit for bit).
 */
export function roundToGrid(f: FloatArray, weights: readonly GridWeights[], size: number): Float64Array[] {
  return weights.map((w) => (typeof w === 'number' ? roundConstant(f, w, size) : roundWeighted(f, w, size)));
}

/**
 * The two grids of the smooth ECE in one pass over the samples: the grid sums of the residuals f_i − y_i and of
 * the counts (weight 1), bit for bit `roundToGrid(f, [f − y, 1], size)` (each grid receives the same additions in
 * the same order) without the residual array of N doubles. Shapes: f, y [N] → two grids [G].
 */
export function roundResidualsAndCounts(f: FloatArray, y: ArrayLike<number>, size: number): { residual: Float64Array; count: Float64Array } {
  const residual = new Float64Array(size);
  const count = new Float64Array(size);
  const scale = size - 1;
  for (let i = 0; i < f.length; i++) {
    const fi = f[i]!;
    const x = fi * scale;
    const b = gridCell(x, size);
    const frac = x - b;
    const r = fi - y[i]!;
    residual[b]! += (1 - frac) * r;
    residual[b + 1]! += frac * r;
    count[b]! += (1 - frac) * 1;
    count[b + 1]! += frac * 1;
  }
  return { residual, count };
}

/** Grid cell of position x = f·(G − 1): ⌊x⌋ clamped to [0, G − 2]. */
function gridCell(x: number, size: number): number {
  const b = Math.floor(x);
  return b < 0 ? 0 : b > size - 2 ? size - 2 : b;
}

function roundWeighted(f: FloatArray, w: ArrayLike<number>, size: number): Float64Array {
  const grid = new Float64Array(size);
  const scale = size - 1;
  for (let i = 0; i < f.length; i++) {
    const x = f[i]! * scale;
    const b = gridCell(x, size);
    const frac = x - b;
    const wi = w[i]!;
    grid[b]! += (1 - frac) * wi;
    grid[b + 1]! += frac * wi;
  }
  return grid;
}

function roundConstant(f: FloatArray, w: number, size: number): Float64Array {
  const grid = new Float64Array(size);
  const scale = size - 1;
  for (let i = 0; i < f.length; i++) {
    const x = f[i]! * scale;
    const b = gridCell(x, size);
    const frac = x - b;
    grid[b]! += (1 - frac) * w;
    grid[b + 1]! += frac * w;
  }
  return grid;
}

/**
 * Convolve grid values (shape [G]) with the reflected Gaussian kernel of bandwidth σ (shape [G]), as
 * relplot's `np.convolve(reflected, kernel, 'valid')[G//2 : G//2 + G]` with the kernel sampled at
 * k/(G−1) − ½, k = 0..G−1: out[m] = Σ_k g(k/(G−1) − ½) · values[reflect(m + ⌊G/2⌋ − k)]. For even G the
 * kernel's centre falls between grid points, so the result is shifted by half a step, as in relplot.
 */
export function reflectedConvolve(values: Float64Array, sigma: number): Float64Array {
  const size = values.length;
  const last = size - 1;
  const shift = Math.floor(size / 2);
  const norm = 1 / (Math.sqrt(2 * Math.PI) * sigma);
  // Kernel taps within 9σ of the centre.
  let kLo = Math.max(0, Math.floor((0.5 - 9 * sigma) * last));
  let kHi = Math.min(last, Math.ceil((0.5 + 9 * sigma) * last));
  if (kLo > kHi) [kLo, kHi] = [0, last];
  const kernel = new Float64Array(kHi - kLo + 1);
  for (let k = kLo; k <= kHi; k++) {
    const t = k / last - 0.5;
    kernel[k - kLo] = Math.exp(-(t * t) / (2 * sigma * sigma)) * norm;
  }
  const out = new Float64Array(size);
  for (let m = 0; m < size; m++) {
    let s = 0;
    const base = m + shift;
    if (base - kHi >= 0 && base - kLo <= last) {
      // every tap inside the grid: no reflection (the same terms in the same order)
      for (let k = kLo, idx = base - kLo; k <= kHi; k++, idx--) s += kernel[k - kLo]! * values[idx]!;
    } else {
      for (let k = kLo; k <= kHi; k++) {
        let idx = base - k;
        if (idx < 0) idx = -idx;
        else if (idx > last) idx = 2 * last - idx;
        s += kernel[k - kLo]! * values[idx]!;
      }
    }
    out[m] = s;
  }
  return out;
}

/** Linear interpolation of grid values (x_j = j/(G−1)) at points t (shape [T]). */
export function interpolateGrid(grid: Float64Array, t: FloatArray): Float64Array {
  const size = grid.length;
  const out = new Float64Array(t.length);
  for (let i = 0; i < t.length; i++) {
    const x = t[i]! * (size - 1);
    let b = Math.floor(x);
    if (b < 0) b = 0;
    else if (b > size - 2) b = size - 2;
    const r = x - b;
    out[i] = grid[b]! * (1 - r) + grid[b + 1]! * r;
  }
  return out;
}

/** t_j = j/(T−1), j = 0..T−1 (numpy linspace(0, 1, T)). */
export function unitMesh(points: number): Float64Array {
  const out = new Float64Array(points);
  for (let j = 0; j < points; j++) out[j] = j / (points - 1);
  return out;
}
