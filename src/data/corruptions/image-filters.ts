/**
 * Filters shared by the image corruptions (corruptions.ts and its companions): scipy's Gaussian kernel, border
 * modes, separable correlation, scipy.ndimage.zoom (order 1), make_cifar_c.py's clipped zoom, and the shift with
 * edge replication of the motion blur.
 */

/** Border modes: 'nearest' (edge replicated), 'reflect101' (OpenCV's default, d c b | a b c d | c b a),
 * 'reflect' (scipy's, half-sample symmetric: c b a | a b c d | d c b). */
export type BorderMode = 'nearest' | 'reflect101' | 'reflect';

/** scipy.ndimage's 1-D Gaussian kernel: exp(−t²/(2σ²)) for t = −r..r, r = ⌊truncate·σ + 0.5⌋, normalised. */
export function gaussianKernel1d(sigma: number, truncate = 4): Float64Array {
  const r = Math.floor(truncate * sigma + 0.5);
  const k = new Float64Array(2 * r + 1);
  let sum = 0;
  for (let t = -r; t <= r; t++) {
    k[t + r] = Math.exp((-0.5 * t * t) / (sigma * sigma));
    sum += k[t + r]!;
  }
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

/** Index of a sample at position p (possibly outside [0, n)) under a border mode. */
export function borderIndex(p: number, n: number, mode: BorderMode): number {
  if (p >= 0 && p < n) return p;
  if (mode === 'nearest') return p < 0 ? 0 : n - 1;
  if (n === 1) return 0;
  if (mode === 'reflect') {
    const period = 2 * n;
    const q = ((p % period) + period) % period;
    return q >= n ? period - 1 - q : q;
  }
  const period = 2 * (n - 1);
  let q = ((p % period) + period) % period;
  if (q >= n) q = period - q;
  return q;
}

/**
 * Correlate each of `planes` H×W planes with a row kernel then a column kernel (both odd, centred). Samples whose
 * window lies inside the plane skip the border mapping (same products, same order of summation: the same values).
 */
export function separableFilter(src: Float32Array, dst: Float32Array, planes: number, h: number, w: number, ky: Float64Array, kx: Float64Array, mode: BorderMode): void {
  const ry = (ky.length - 1) / 2;
  const rx = (kx.length - 1) / 2;
  const tmp = new Float64Array(h * w);
  for (let p = 0; p < planes; p++) {
    const base = p * h * w;
    for (let y = 0; y < h; y++) {
      const inside = y - ry >= 0 && y + ry < h;
      for (let x = 0; x < w; x++) {
        let s = 0;
        if (inside) for (let t = -ry; t <= ry; t++) s += ky[t + ry]! * src[base + (y + t) * w + x]!;
        else for (let t = -ry; t <= ry; t++) s += ky[t + ry]! * src[base + borderIndex(y + t, h, mode) * w + x]!;
        tmp[y * w + x] = s;
      }
    }
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let s = 0;
        if (x - rx >= 0 && x + rx < w) for (let t = -rx; t <= rx; t++) s += kx[t + rx]! * tmp[y * w + x + t]!;
        else for (let t = -rx; t <= rx; t++) s += kx[t + rx]! * tmp[y * w + borderIndex(x + t, w, mode)]!;
        dst[base + y * w + x] = s;
      }
    }
  }
}

/** Gaussian filter (scipy.ndimage.gaussian_filter / skimage `gaussian`) of each H×W plane, σ per axis, given border mode. */
export function gaussianFilter(src: Float32Array, dst: Float32Array, planes: number, h: number, w: number, sigma: number, mode: BorderMode, truncate = 4): void {
  const k = gaussianKernel1d(sigma, truncate);
  separableFilter(src, dst, planes, h, w, k, k, mode);
}

/**
 * scipy.ndimage.zoom(plane, z, order=1) of one h×w plane (default grid_mode=False): output side round(side·z), output
 * index o samples input coordinate o·(side − 1)/(outSide − 1) by bilinear interpolation.
 */
export function zoomBilinear(src: ArrayLike<number>, h: number, w: number, z: number): { data: Float64Array; h: number; w: number } {
  const oh = Math.round(h * z);
  const ow = Math.round(w * z);
  const data = new Float64Array(oh * ow);
  const sy = oh > 1 ? (h - 1) / (oh - 1) : 0;
  const sx = ow > 1 ? (w - 1) / (ow - 1) : 0;
  for (let y = 0; y < oh; y++) {
    const fy = y * sy;
    const y0 = Math.min(Math.floor(fy), h - 1);
    const y1 = Math.min(y0 + 1, h - 1);
    const dy = fy - y0;
    for (let x = 0; x < ow; x++) {
      const fx = x * sx;
      const x0 = Math.min(Math.floor(fx), w - 1);
      const x1 = Math.min(x0 + 1, w - 1);
      const dx = fx - x0;
      const top = src[y0 * w + x0]! * (1 - dx) + src[y0 * w + x1]! * dx;
      const bottom = src[y1 * w + x0]! * (1 - dx) + src[y1 * w + x1]! * dx;
      data[y * ow + x] = top * (1 - dy) + bottom * dy;
    }
  }
  return { data, h: oh, w: ow };
}

/**
 * make_cifar_c.py's `clipped_zoom` of one h×w plane, per axis: crop the centre ⌈side/z⌉ (from ⌊(side − crop)/2⌋),
 * zoom it by z (zoomBilinear) and cut the centre `side` back out (from ⌊(zoomed − side)/2⌋). Written into `dst`.
 */
export function clippedZoom(src: ArrayLike<number>, h: number, w: number, z: number, dst: Float64Array | Float32Array, offset = 0): void {
  const ch = Math.ceil(h / z - 1e-9);
  const cw = Math.ceil(w / z - 1e-9);
  const top = Math.floor((h - ch) / 2);
  const left = Math.floor((w - cw) / 2);
  const crop = new Float64Array(ch * cw);
  for (let y = 0; y < ch; y++) for (let x = 0; x < cw; x++) crop[y * cw + x] = src[(top + y) * w + left + x]!;
  const zoomed = zoomBilinear(crop, ch, cw, z);
  const ty = Math.floor((zoomed.h - h) / 2);
  const tx = Math.floor((zoomed.w - w) / 2);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) dst[offset + y * w + x] = zoomed.data[Math.min(y + ty, zoomed.h - 1) * zoomed.w + Math.min(x + tx, zoomed.w - 1)]!;
}

/**
 * Motion blur of one h×w plane after ImageMagick's MotionBlurImage (as re-implemented in NumPy by the
 * `imagecorruptions` package, Michaelis et al. 2019): width = 2·radius + 1 taps with one-sided Gaussian weights
 * exp(−i²/(2σ²)), i = 0..width−1, normalised; tap i reads the pixel at offset (⌈i·cos θ − 0.5⌉, ⌈i·sin θ − 0.5⌉)
 * (x, y), edges replicated; taps whose offset leaves the image are dropped (as there).
 */
export function motionBlurPlane(src: ArrayLike<number>, h: number, w: number, radius: number, sigma: number, angleDegrees: number, dst: Float64Array | Float32Array, offset = 0): void {
  const width = 2 * Math.ceil(radius) + 1;
  const weights = new Float64Array(width);
  let total = 0;
  for (let i = 0; i < width; i++) total += weights[i] = Math.exp(-(i * i) / (2 * sigma * sigma));
  const theta = (angleDegrees * Math.PI) / 180;
  const acc = new Float64Array(h * w);
  for (let i = 0; i < width; i++) {
    const oy = Math.ceil(i * Math.sin(theta) - 0.5);
    const ox = Math.ceil(i * Math.cos(theta) - 0.5);
    if (Math.abs(oy) >= h || Math.abs(ox) >= w) break;
    const wi = weights[i]! / total;
    for (let y = 0; y < h; y++) {
      const sy = Math.min(Math.max(y + oy, 0), h - 1);
      for (let x = 0; x < w; x++) acc[y * w + x]! += wi * src[sy * w + Math.min(Math.max(x + ox, 0), w - 1)]!;
    }
  }
  for (let j = 0; j < h * w; j++) dst[offset + j] = acc[j]!;
}
