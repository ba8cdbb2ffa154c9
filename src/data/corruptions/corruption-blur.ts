/**
 * The blur corruptions of Hendrycks & Dietterich (ICLR 2019) that make_cifar_c.py builds from more than one
 * filter: glass, motion and zoom blur, with its CIFAR constants (severity s picks entry s − 1). Images [N, C, H, W]
 * in [0, 1]; any H, W (the CIFAR code hard-codes 32); results clipped to [0, 1] by the caller.
 *
 * | name | operation | constants for severities 1..5 |
 * | --- | --- | --- |
 * | glass-blur | Gaussian blur σ (skimage, edges 'nearest'), floor to 8-bit levels, then `iterations` sweeps over rows h = H−d..d+1 and columns w = W−d..d+1 (descending) setting pixel (h, w) to pixel (h + Δy, w + Δx), Δ uniform in {−d, …, d − 1} (NumPy's `randint(−d, d)`), then the same blur again (the code writes a swap, `x[h, w], x[h′, w′] = x[h′, w′], x[h, w]`, but on NumPy views of a uint8 array this copies (h′, w′) into (h, w) and leaves (h′, w′) as it was; reproduced as a copy) | (σ, d, iterations) = (0.05, 1, 1), (0.25, 1, 1), (0.4, 1, 1), (0.25, 1, 2), (0.4, 1, 2) |
 * | motion-blur | ImageMagick motion blur (see `motionBlurPlane`) with radius r, σ, angle θ ~ U(−45°, 45°) per image | (r, σ) = (6, 1), (6, 1.5), (6, 2), (8, 2), (9, 2.5) |
 * | zoom-blur | (x + Σ_z clippedZoom(x, z)) / (1 + #z) over z = 1, 1.01, …, z_max (NumPy `arange(1, z_max + 0.01, 0.01)`) | z_max = 1.05, 1.10, 1.15, 1.20, 1.25 |
 *
 * Motion blur: ImageMagick itself is not available here; the kernel follows its MotionBlurImage source as the
 * `imagecorruptions` package re-implements it, on float values instead of 8-bit PNGs.
 */
import type { Random } from '../../util/random.js';
import { clippedZoom, gaussianFilter, motionBlurPlane } from './image-filters.js';

export const GLASS_BLUR_PARAMETERS: readonly (readonly [number, number, number])[] = [
  [0.05, 1, 1],
  [0.25, 1, 1],
  [0.4, 1, 1],
  [0.25, 1, 2],
  [0.4, 1, 2],
];
export const MOTION_BLUR_PARAMETERS: readonly (readonly [number, number])[] = [
  [6, 1],
  [6, 1.5],
  [6, 2],
  [8, 2],
  [9, 2.5],
];
export const ZOOM_BLUR_MAX: readonly number[] = [1.05, 1.1, 1.15, 1.2, 1.25];

type Shape4 = readonly [number, number, number, number];

/** Glass blur (see the table). */
export function glassBlur(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number, rng: Random): void {
  const [sigma, d, iterations] = GLASS_BLUR_PARAMETERS[severity - 1]!;
  const blurred = new Float32Array(images.length);
  gaussianFilter(images, blurred, n * c, h, w, sigma, 'nearest');
  for (let i = 0; i < blurred.length; i++) blurred[i] = Math.floor(Math.min(Math.max(blurred[i]!, 0), 1) * 255) / 255;
  const plane = h * w;
  for (let i = 0; i < n; i++) {
    const base = i * c * plane;
    for (let it = 0; it < iterations; it++) {
      for (let y = h - d; y > d; y--) {
        for (let x = w - d; x > d; x--) {
          const dx = -d + rng.int(2 * d);
          const dy = -d + rng.int(2 * d);
          const a = y * w + x;
          const b = (y + dy) * w + (x + dx);
          for (let k = 0; k < c; k++) blurred[base + k * plane + a] = blurred[base + k * plane + b]!;
        }
      }
    }
  }
  gaussianFilter(blurred, out, n * c, h, w, sigma, 'nearest');
}

/** Motion blur (see the table); one angle per image, drawn in image order. */
export function motionBlur(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number, rng: Random): void {
  const [radius, sigma] = MOTION_BLUR_PARAMETERS[severity - 1]!;
  const plane = h * w;
  for (let i = 0; i < n; i++) {
    const angle = -45 + 90 * rng.uniform();
    for (let k = 0; k < c; k++) {
      const at = (i * c + k) * plane;
      motionBlurPlane(images.subarray(at, at + plane), h, w, radius, sigma, angle, out, at);
    }
  }
}

/** Zoom blur (see the table); deterministic. */
export function zoomBlur(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number): void {
  const steps = Math.round((ZOOM_BLUR_MAX[severity - 1]! - 1) / 0.01);
  const plane = h * w;
  const zoomed = new Float64Array(plane);
  for (let p = 0; p < n * c; p++) {
    const src = images.subarray(p * plane, (p + 1) * plane);
    const acc = Float64Array.from(src);
    for (let j = 0; j <= steps; j++) {
      clippedZoom(src, h, w, 1 + 0.01 * j, zoomed);
      for (let q = 0; q < plane; q++) acc[q]! += zoomed[q]!;
    }
    for (let q = 0; q < plane; q++) out[p * plane + q] = acc[q]! / (steps + 2);
  }
}
