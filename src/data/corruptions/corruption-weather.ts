/**
 * Fog and snow of Hendrycks & Dietterich (ICLR 2019), make_cifar_c.py's CIFAR constants (severity s picks entry
 * s − 1), for images [N, C, H, W] in [0, 1] of any size; results clipped to [0, 1] by the caller.
 *
 * fog (a, decay): max = the image's largest value; x ← (x + a·F)·max/(max + a), F a diamond-square plasma fractal
 *   (`plasmaFractal`, side the next power of two ≥ max(H, W), cropped to H × W, one per image, all channels).
 *   (a, decay) = (0.2, 3), (0.5, 3), (0.75, 2.5), (1, 2), (1.5, 1.75).
 * snow (μ, s, z, t, r, σ, β): layer L ~ N(μ, s²) per pixel, L ← clippedZoom(L, z), L[L < t] = 0, clip to [0, 1],
 *   floor to 8-bit levels (PIL 'L'), motion-blurred (radius r, σ, angle ~ U(−135°, −45°); `motionBlurPlane`) and
 *   rounded to 8-bit levels again (ImageMagick's output); x ← β·x + (1 − β)·max(x, 1.5·gray + 0.5) with
 *   gray = 0.299 R + 0.587 G + 0.114 B (OpenCV RGB2GRAY; the channel itself for C = 1, the channel mean otherwise);
 *   x ← x + L + rot180(L).
 *   (μ, s, z, t, r, σ, β) = (0.1, 0.2, 1, 0.6, 8, 3, 0.95), (0.1, 0.2, 1, 0.5, 10, 4, 0.9),
 *   (0.15, 0.3, 1.75, 0.55, 10, 4, 0.9), (0.25, 0.3, 2.25, 0.6, 12, 6, 0.85), (0.3, 0.3, 1.25, 0.65, 14, 12, 0.8).
 * The random numbers come from our seeded Random, drawn in the order of the NumPy code.
 */
import type { Random } from '../../util/random.js';
import { clippedZoom, motionBlurPlane } from './image-filters.js';

export const FOG_PARAMETERS: readonly (readonly [number, number])[] = [
  [0.2, 3],
  [0.5, 3],
  [0.75, 2.5],
  [1, 2],
  [1.5, 1.75],
];
export const SNOW_PARAMETERS: readonly (readonly [number, number, number, number, number, number, number])[] = [
  [0.1, 0.2, 1, 0.6, 8, 3, 0.95],
  [0.1, 0.2, 1, 0.5, 10, 4, 0.9],
  [0.15, 0.3, 1.75, 0.55, 10, 4, 0.9],
  [0.25, 0.3, 2.25, 0.6, 12, 6, 0.85],
  [0.3, 0.3, 1.25, 0.65, 14, 12, 0.8],
];

type Shape4 = readonly [number, number, number, number];

/**
 * Diamond-square height map (make_cifar_c.py `plasma_fractal`, after FLHerne/mapgen): side `size` (a power of two),
 * wrap-around neighbours, wibble starting at 100 and divided by `decay` per level, each new value mean/4-sum + wibble·U(−wibble, wibble);
 * rescaled to [0, 1]. Row-major size × size.
 */
export function plasmaFractal(size: number, decay: number, rng: Random): Float64Array {
  if (size < 1 || (size & (size - 1)) !== 0) throw new RangeError(`plasmaFractal: size must be a power of two, got ${size}`);
  const m = new Float64Array(size * size);
  const at = (y: number, x: number): number => ((y + size) % size) * size + ((x + size) % size);
  let step = size;
  let wibble = 100;
  const wibbled = (sum: number): number => sum / 4 + wibble * (-wibble + 2 * wibble * rng.uniform());
  while (step >= 2) {
    const half = step / 2;
    // squares: centre = mean of the 4 corners
    for (let y = 0; y < size; y += step)
      for (let x = 0; x < size; x += step) m[at(y + half, x + half)] = wibbled(m[at(y, x)]! + m[at(y + step, x)]! + m[at(y, x + step)]! + m[at(y + step, x + step)]!);
    // diamonds: the midpoints of the top edges, then of the left edges (NumPy fills them in that order)
    for (let y = 0; y < size; y += step)
      for (let x = 0; x < size; x += step) m[at(y, x + half)] = wibbled(m[at(y + half, x + half)]! + m[at(y - half, x + half)]! + m[at(y, x)]! + m[at(y, x + step)]!);
    for (let y = 0; y < size; y += step)
      for (let x = 0; x < size; x += step) m[at(y + half, x)] = wibbled(m[at(y + half, x + half)]! + m[at(y + half, x - half)]! + m[at(y, x)]! + m[at(y + step, x)]!);
    step = half;
    wibble /= decay;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of m) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  for (let i = 0; i < m.length; i++) m[i] = hi > lo ? (m[i]! - lo) / (hi - lo) : 0;
  return m;
}

/** Fog (see the module comment). */
export function fog(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number, rng: Random): void {
  const [amount, decay] = FOG_PARAMETERS[severity - 1]!;
  let size = 1;
  while (size < Math.max(h, w)) size *= 2;
  const plane = h * w;
  for (let i = 0; i < n; i++) {
    const base = i * c * plane;
    let max = -Infinity;
    for (let j = base; j < base + c * plane; j++) max = Math.max(max, images[j]!);
    const f = plasmaFractal(size, decay, rng);
    for (let k = 0; k < c; k++) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const j = base + k * plane + y * w + x;
          out[j] = ((images[j]! + amount * f[y * size + x]!) * max) / (max + amount);
        }
      }
    }
  }
}

/** Snow (see the module comment). */
export function snow(images: Float32Array, out: Float32Array, [n, c, h, w]: Shape4, severity: number, rng: Random): void {
  const [mu, s, z, threshold, radius, sigma, beta] = SNOW_PARAMETERS[severity - 1]!;
  const plane = h * w;
  const layer = new Float64Array(plane);
  const zoomed = new Float64Array(plane);
  const blurred = new Float64Array(plane);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < plane; j++) layer[j] = mu + s * rng.normal();
    clippedZoom(layer, h, w, z, zoomed);
    for (let j = 0; j < plane; j++) {
      const v = zoomed[j]! < threshold ? 0 : Math.min(zoomed[j]!, 1);
      zoomed[j] = Math.floor(v * 255) / 255;
    }
    motionBlurPlane(zoomed, h, w, radius, sigma, -135 + 90 * rng.uniform(), blurred);
    for (let j = 0; j < plane; j++) blurred[j] = Math.round(blurred[j]! * 255) / 255;
    const base = i * c * plane;
    for (let j = 0; j < plane; j++) {
      const gray =
        c === 3
          ? 0.299 * images[base + j]! + 0.587 * images[base + plane + j]! + 0.114 * images[base + 2 * plane + j]!
          : Array.from({ length: c }, (_, k) => images[base + k * plane + j]!).reduce((a, b) => a + b, 0) / c;
      const flake = blurred[j]! + blurred[plane - 1 - j]!; // L + rot180(L)
      for (let k = 0; k < c; k++) {
        const x = images[base + k * plane + j]!;
        out[base + k * plane + j] = beta * x + (1 - beta) * Math.max(x, 1.5 * gray + 0.5) + flake;
      }
    }
  }
}
