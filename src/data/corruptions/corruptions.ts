import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import { Random } from '../../util/random.js';
import { imageDataset, type ImageDataset } from '../dataset.js';
import { borderIndex, gaussianKernel1d, separableFilter } from './image-filters.js';
import { glassBlur, motionBlur, zoomBlur } from './corruption-blur.js';
import { elasticTransform, jpegCompression } from './corruption-digital.js';
import { fog, snow } from './corruption-weather.js';
import { poisson } from './poisson.js';
import { checkBatch, type BatchShape } from '../transforms.js';

/**
 * Common corruptions at five severities, after Hendrycks & Dietterich, "Benchmarking Neural Network Robustness
 * to Common Corruptions and Perturbations" (ICLR 2019), with the constants of their CIFAR-10-C generator
 * (github.com/hendrycks/robustness, ImageNet-C/create_c/make_cifar_c.py). Images are in [0, 1] (NCHW); every
 * result is clipped to [0, 1]. Per corruption, severity s = 1..5 picks c = table[s − 1]:
 *
 * | name | operation | c for severities 1..5 |
 * | --- | --- | --- |
 * | gaussian-noise | x + c·z, z ~ N(0, 1) per value | 0.04, 0.06, 0.08, 0.09, 0.10 |
 * | shot-noise | Poisson(c·x) / c per value | 500, 250, 100, 75, 50 |
 * | impulse-noise | salt & pepper (skimage `random_noise(mode='s&p')`): each value is replaced with probability c, by 0 or 1 with equal odds | 0.01, 0.02, 0.03, 0.05, 0.07 |
 * | speckle-noise | x + x·c·z | 0.06, 0.10, 0.12, 0.16, 0.20 |
 * | gaussian-blur | per-channel Gaussian filter, σ = c (skimage `gaussian`: scipy kernel exp(−t²/2σ²) on t ∈ [−r, r], r = ⌊4σ + 0.5⌋, edges 'nearest') | 0.4, 0.6, 0.7, 0.8, 1.0 |
 * | defocus-blur | per-channel correlation (edges reflect-101, OpenCV's default) with an anti-aliased disk: the 0/1 disk X² + Y² ≤ radius² on [−8, 8]² (or [−radius, radius]² for radius > 8) normalised to sum 1, blurred by a 3×3 Gaussian (5×5 for radius > 8) of σ = alias (OpenCV `GaussianBlur`, reflect-101) | (radius, alias) = (0.3, 0.4), (0.4, 0.5), (0.5, 0.6), (1, 0.2), (1.5, 0.1) |
 * | contrast | (x − m)·c + m, m = the image's mean of each channel | 0.75, 0.5, 0.4, 0.3, 0.15 |
 * | brightness | HSV value V ← min(V + c, 1) with hue and saturation kept (skimage rgb2hsv → hsv2rgb); since RGB is linear in V for fixed H, S this is x·V′/V per pixel (and V′ on every channel where V = 0) | 0.05, 0.1, 0.15, 0.2, 0.3 |
 * | pixelate | box-downsample to ⌊c·H⌋ × ⌊c·W⌋ and box-upsample back (PIL `resize(..., Image.BOX)` twice) | 0.95, 0.9, 0.85, 0.75, 0.65 |
 *
 * Differences from the published CIFAR-10-C files: the generator there works on 8-bit RGB images and stores
 * np.uint8(255·result), i.e. truncates to whole levels (pass `quantize: true` for ⌊255·x⌋/255); pixelate runs on
 * 8-bit values inside PIL; the random numbers come from our seeded `Random`, not NumPy's. Multi-channel images of
 * any C are handled channel by channel (brightness takes V = max over the channels). The kernels of defocus-blur
 * are trimmed to the rows/columns holding weight above 1e−12 of the total (the dropped weights are < e^−50).
 *
 * Seven more kinds, described in their files with their constants: glass-blur, motion-blur, zoom-blur
 * (corruption-blur.ts), snow, fog (corruption-weather.ts), elastic, jpeg-compression (corruption-digital.ts).
 * With the nine above they cover 14 of CIFAR-10-C's 15 kinds; frost is not generated: it blends crops of six
 * photographs of frost (frost1.png … frost6.jpg in the authors' repository) that the package does not ship. The
 * random kinds are gaussian/shot/impulse/speckle noise, glass and motion blur, snow, fog and elastic.
 */
export const CORRUPTIONS = [
  'gaussian-noise',
  'shot-noise',
  'impulse-noise',
  'speckle-noise',
  'gaussian-blur',
  'defocus-blur',
  'contrast',
  'brightness',
  'pixelate',
  'glass-blur',
  'motion-blur',
  'zoom-blur',
  'snow',
  'fog',
  'elastic',
  'jpeg-compression',
] as const;

export type Corruption = (typeof CORRUPTIONS)[number];

/** The corruptions built from one filter, whose constants are in CORRUPTION_PARAMETERS (the others: their files). */
type FilterCorruption = Exclude<Corruption, 'glass-blur' | 'motion-blur' | 'zoom-blur' | 'snow' | 'fog' | 'elastic' | 'jpeg-compression'>;

/**
 * The nine single-filter kinds, the default set of the shift evaluation (`evaluateShift`, `calib train --ood`): the
 * seven multi-step kinds cost up to ≈ 2 ms per 32 × 32 image and severity here, minutes on a 10,000-image test set.
 */
export const FILTER_CORRUPTIONS: readonly Corruption[] = CORRUPTIONS.slice(0, 9);

/** The corruptions that draw random numbers (they need `options.rng`). */
export const RANDOM_CORRUPTIONS: readonly Corruption[] = ['gaussian-noise', 'shot-noise', 'impulse-noise', 'speckle-noise', 'glass-blur', 'motion-blur', 'snow', 'fog', 'elastic'];

/** The severity tables of the single-filter corruptions (see the table above). */
export const CORRUPTION_PARAMETERS: { readonly [K in FilterCorruption]: readonly (K extends 'defocus-blur' ? readonly [number, number] : number)[] } = {
  'gaussian-noise': [0.04, 0.06, 0.08, 0.09, 0.1],
  'shot-noise': [500, 250, 100, 75, 50],
  'impulse-noise': [0.01, 0.02, 0.03, 0.05, 0.07],
  'speckle-noise': [0.06, 0.1, 0.12, 0.16, 0.2],
  'gaussian-blur': [0.4, 0.6, 0.7, 0.8, 1],
  'defocus-blur': [
    [0.3, 0.4],
    [0.4, 0.5],
    [0.5, 0.6],
    [1, 0.2],
    [1.5, 0.1],
  ],
  contrast: [0.75, 0.5, 0.4, 0.3, 0.15],
  brightness: [0.05, 0.1, 0.15, 0.2, 0.3],
  pixelate: [0.95, 0.9, 0.85, 0.75, 0.65],
};

/** Options of `corrupt`. */
export interface CorruptOptions {
  /** Generator for the noise corruptions (required for them; unused by the deterministic ones). */
  rng?: Random;
  /** Round down to 8-bit levels, ⌊255·x⌋/255, as the published CIFAR-10-C files do. Default false. */
  quantize?: boolean;
  /**
   * Write the result here (as many values as the images, not the images themselves; its contents are replaced) instead
   * of a new array: a caller corrupting the same images many times (the OOD evaluation: 45 sets of 31 MB for
   * Fashion-MNIST's test split) then touches fresh memory once, not 45 times.
   */
  out?: Float32Array;
}

const MULTI_STEP: ReadonlySet<Corruption> = new Set(['glass-blur', 'motion-blur', 'zoom-blur', 'snow', 'fog', 'elastic', 'jpeg-compression']);
const clip = (v: number): number => (v < 0 ? 0 : v > 1 ? 1 : v);

/**
 * Apply `corruption` at `severity` (1..5) to a batch [N, C, H, W]; returns a new array, or `options.out` filled (the
 * input is untouched).
 * Noise corruptions draw from `options.rng` image by image, value by value in NCHW order.
 */
export function corrupt(images: Float32Array, shape: BatchShape, corruption: Corruption, severity: number, options: CorruptOptions = {}): Float32Array {
  const [n, c, h, w] = checkBatch(images, shape);
  if (!(CORRUPTIONS as readonly string[]).includes(corruption)) invalidArgument('corruption', `one of ${CORRUPTIONS.join(', ')}`, describe(corruption));
  const s = requireNumber('severity', severity, { integer: true, min: 1, max: 5 });
  const needsRng = RANDOM_CORRUPTIONS.includes(corruption);
  if (needsRng && options.rng === undefined) invalidArgument('options.rng', `a Random for ${corruption}`, 'undefined');
  const rng = options.rng as Random;
  const out = options.out ?? new Float32Array(images.length);
  if (options.out !== undefined) {
    if (!(out instanceof Float32Array) || out.length !== images.length || out.buffer === images.buffer)
      invalidArgument('options.out', `a Float32Array of ${images.length} values apart from the images`, describe(options.out));
    out.fill(0); // every kind then starts from what a new array holds
  }
  switch (corruption) {
    case 'gaussian-noise': {
      const sigma = CORRUPTION_PARAMETERS['gaussian-noise'][s - 1]!;
      for (let i = 0; i < images.length; i++) out[i] = clip(images[i]! + sigma * rng.normal());
      break;
    }
    case 'speckle-noise': {
      const sigma = CORRUPTION_PARAMETERS['speckle-noise'][s - 1]!;
      for (let i = 0; i < images.length; i++) out[i] = clip(images[i]! + images[i]! * sigma * rng.normal());
      break;
    }
    case 'shot-noise': {
      const k = CORRUPTION_PARAMETERS['shot-noise'][s - 1]!;
      for (let i = 0; i < images.length; i++) out[i] = clip(poisson(rng, Math.max(0, images[i]!) * k) / k);
      break;
    }
    case 'impulse-noise': {
      const amount = CORRUPTION_PARAMETERS['impulse-noise'][s - 1]!;
      for (let i = 0; i < images.length; i++) {
        const u = rng.uniform();
        out[i] = u < amount / 2 ? 0 : u < amount ? 1 : clip(images[i]!);
      }
      break;
    }
    case 'gaussian-blur': {
      const kernel = gaussianKernel1d(CORRUPTION_PARAMETERS['gaussian-blur'][s - 1]!);
      separableFilter(images, out, n * c, h, w, kernel, kernel, 'nearest');
      for (let i = 0; i < out.length; i++) out[i] = clip(out[i]!);
      break;
    }
    case 'defocus-blur': {
      const [radius, alias] = CORRUPTION_PARAMETERS['defocus-blur'][s - 1]!;
      const kernel = defocusKernel(radius, alias);
      filter2d(images, out, n * c, h, w, kernel);
      for (let i = 0; i < out.length; i++) out[i] = clip(out[i]!);
      break;
    }
    case 'contrast': {
      const factor = CORRUPTION_PARAMETERS.contrast[s - 1]!;
      const plane = h * w;
      for (let p = 0; p < n * c; p++) {
        let sum = 0;
        for (let j = p * plane; j < (p + 1) * plane; j++) sum += images[j]!;
        const mean = sum / plane;
        for (let j = p * plane; j < (p + 1) * plane; j++) out[j] = clip((images[j]! - mean) * factor + mean);
      }
      break;
    }
    case 'brightness':
      brightness(images, out, n, c, h * w, CORRUPTION_PARAMETERS.brightness[s - 1]!);
      break;
    case 'pixelate': {
      const f = CORRUPTION_PARAMETERS.pixelate[s - 1]!;
      const sh = Math.max(1, Math.floor(h * f + 1e-9));
      const sw = Math.max(1, Math.floor(w * f + 1e-9));
      const small = new Float32Array(n * c * sh * sw);
      boxResize(images, n * c, h, w, small, sh, sw);
      boxResize(small, n * c, sh, sw, out, h, w);
      for (let i = 0; i < out.length; i++) out[i] = clip(out[i]!);
      break;
    }
    case 'glass-blur':
      glassBlur(images, out, [n, c, h, w], s, rng);
      break;
    case 'motion-blur':
      motionBlur(images, out, [n, c, h, w], s, rng);
      break;
    case 'zoom-blur':
      zoomBlur(images, out, [n, c, h, w], s);
      break;
    case 'snow':
      snow(images, out, [n, c, h, w], s, rng);
      break;
    case 'fog':
      fog(images, out, [n, c, h, w], s, rng);
      break;
    case 'elastic':
      elasticTransform(images, out, [n, c, h, w], s, rng);
      break;
    case 'jpeg-compression':
      jpegCompression(images, out, [n, c, h, w], s);
      break;
  }
  if (MULTI_STEP.has(corruption)) for (let i = 0; i < out.length; i++) out[i] = clip(out[i]!);
  if (options.quantize) for (let i = 0; i < out.length; i++) out[i] = Math.floor(out[i]! * 255 + 1e-6) / 255;
  return out;
}

/**
 * A corrupted copy of an image dataset, named "<name>/<corruption>-<severity>", with the same labels.
 * The noise corruptions draw from Random(seed).
 */
export function corruptDataset(dataset: ImageDataset, corruption: Corruption, severity: number, options: { seed?: number; quantize?: boolean } = {}): ImageDataset {
  const n = dataset.labels.length;
  const images = corrupt(dataset.images, [n, ...dataset.shape], corruption, severity, {
    rng: new Random(options.seed ?? 0),
    ...(options.quantize !== undefined ? { quantize: options.quantize } : {}),
  });
  return imageDataset({ ...dataset, name: `${dataset.name}/${corruption}-${severity}`, images });
}

export { gaussianKernel1d } from './image-filters.js';

/** A square 2-D kernel, row-major, with odd side `size`. */
export interface Kernel2d {
  readonly size: number;
  readonly data: Float64Array;
}

/**
 * The anti-aliased disk of make_cifar_c.py's `disk(radius, alias_blur)`: L = −8..8 (ksize 3) for radius ≤ 8,
 * else −radius..radius (ksize 5); D = 1[X² + Y² ≤ radius²] / Σ; then OpenCV GaussianBlur(D, ksize, σ = alias)
 * with OpenCV's kernel exp(−(i − (ksize−1)/2)²/(2σ²)) normalised, borders reflect-101.
 * Trimmed to the rows/columns with weight above 1e−12 (the result is renormalised to sum 1).
 */
export function defocusKernel(radius: number, alias: number): Kernel2d {
  const half = radius <= 8 ? 8 : Math.floor(radius);
  const ksize = radius <= 8 ? 3 : 5;
  const size = 2 * half + 1;
  const disk = new Float32Array(size * size);
  let count = 0;
  for (let y = -half; y <= half; y++) {
    for (let x = -half; x <= half; x++) {
      if (x * x + y * y <= radius * radius) {
        disk[(y + half) * size + x + half] = 1;
        count++;
      }
    }
  }
  for (let i = 0; i < disk.length; i++) disk[i]! /= count;
  const g = new Float64Array(ksize);
  let gs = 0;
  for (let i = 0; i < ksize; i++) {
    g[i] = Math.exp(-((i - (ksize - 1) / 2) ** 2) / (2 * alias * alias));
    gs += g[i]!;
  }
  for (let i = 0; i < ksize; i++) g[i]! /= gs;
  const blurred = new Float32Array(size * size);
  separableFilter(disk, blurred, 1, size, size, g, g, 'reflect101');
  // trim to the support that carries weight
  let total = 0;
  for (const v of blurred) total += v;
  let lo = 0;
  let hi = size - 1;
  const carries = (i: number): boolean => {
    let s = 0;
    for (let j = 0; j < size; j++) s += blurred[i * size + j]! + blurred[j * size + i]!;
    return s > 1e-12 * total;
  };
  while (lo < half && !carries(lo) && !carries(size - 1 - lo)) lo++;
  hi = size - 1 - lo;
  const trimmed = hi - lo + 1;
  const data = new Float64Array(trimmed * trimmed);
  let sum = 0;
  for (let y = 0; y < trimmed; y++) for (let x = 0; x < trimmed; x++) sum += data[y * trimmed + x] = blurred[(y + lo) * size + x + lo]!;
  for (let i = 0; i < data.length; i++) data[i]! /= sum;
  return { size: trimmed, data };
}

/**
 * OpenCV filter2D (correlation, anchor at the centre, borders reflect-101) of each H×W plane. Pixels whose window lies
 * inside the plane skip the border mapping (same products, same order of summation: the same values).
 */
function filter2d(src: Float32Array, dst: Float32Array, planes: number, h: number, w: number, kernel: Kernel2d): void {
  const r = (kernel.size - 1) / 2;
  const k = kernel.data;
  for (let p = 0; p < planes; p++) {
    const base = p * h * w;
    for (let y = 0; y < h; y++) {
      const rowsInside = y - r >= 0 && y + r < h;
      for (let x = 0; x < w; x++) {
        let s = 0;
        if (rowsInside && x - r >= 0 && x + r < w) {
          for (let ky = -r; ky <= r; ky++) {
            const row = base + (y + ky) * w + x;
            const krow = (ky + r) * kernel.size + r;
            for (let kx = -r; kx <= r; kx++) s += k[krow + kx]! * src[row + kx]!;
          }
        } else {
          for (let ky = -r; ky <= r; ky++) {
            const row = base + borderIndex(y + ky, h, 'reflect101') * w;
            const krow = (ky + r) * kernel.size + r;
            for (let kx = -r; kx <= r; kx++) s += k[krow + kx]! * src[row + borderIndex(x + kx, w, 'reflect101')]!;
          }
        }
        dst[base + y * w + x] = s;
      }
    }
  }
}

/** HSV brightness: V′ = min(V + c, 1); x′ = x·V′/V, or V′ where V = 0. */
function brightness(src: Float32Array, dst: Float32Array, n: number, c: number, plane: number, amount: number): void {
  for (let i = 0; i < n; i++) {
    const base = i * c * plane;
    for (let j = 0; j < plane; j++) {
      let v = 0;
      for (let k = 0; k < c; k++) v = Math.max(v, clip(src[base + k * plane + j]!));
      const v2 = Math.min(v + amount, 1);
      for (let k = 0; k < c; k++) {
        const at = base + k * plane + j;
        dst[at] = v === 0 ? v2 : clip((clip(src[at]!) * v2) / v);
      }
    }
  }
}

/**
 * PIL's BOX resampling weights (Pillow, libImaging/Resample.c `precompute_coeffs` with the box filter
 * 1[−0.5 < t ≤ 0.5]): output i has centre (i + 0.5)·scale, scale = in/out, support s = 0.5·max(scale, 1),
 * inputs j from ⌊centre − s + 0.5⌋ to ⌊centre + s + 0.5⌋ (exclusive) weighted by box((j − centre + 0.5)/max(scale, 1)),
 * normalised.
 */
export function boxWeights(inSize: number, outSize: number): { start: Int32Array; weights: Float64Array[] } {
  const scale = inSize / outSize;
  const filterScale = Math.max(scale, 1);
  const support = 0.5 * filterScale;
  const start = new Int32Array(outSize);
  const weights: Float64Array[] = [];
  for (let i = 0; i < outSize; i++) {
    const center = (i + 0.5) * scale;
    const lo = Math.max(0, Math.trunc(center - support + 0.5));
    const hi = Math.min(inSize, Math.trunc(center + support + 0.5));
    const ws = new Float64Array(Math.max(0, hi - lo));
    let total = 0;
    for (let j = lo; j < hi; j++) {
      const t = (j - center + 0.5) / filterScale;
      const v = t > -0.5 && t <= 0.5 ? 1 : 0;
      ws[j - lo] = v;
      total += v;
    }
    if (total !== 0) for (let j = 0; j < ws.length; j++) ws[j]! /= total;
    start[i] = lo;
    weights.push(ws);
  }
  return { start, weights };
}

/** Resize each of `planes` planes from h×w to oh×ow with PIL's BOX filter (horizontal pass, then vertical). */
function boxResize(src: Float32Array, planes: number, h: number, w: number, dst: Float32Array, oh: number, ow: number): void {
  const horizontal = boxWeights(w, ow);
  const vertical = boxWeights(h, oh);
  const tmp = new Float64Array(h * ow);
  for (let p = 0; p < planes; p++) {
    const base = p * h * w;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < ow; x++) {
        const ws = horizontal.weights[x]!;
        const s0 = horizontal.start[x]!;
        let s = 0;
        for (let j = 0; j < ws.length; j++) s += ws[j]! * src[base + y * w + s0 + j]!;
        tmp[y * ow + x] = s;
      }
    }
    const outBase = p * oh * ow;
    for (let y = 0; y < oh; y++) {
      const ws = vertical.weights[y]!;
      const s0 = vertical.start[y]!;
      for (let x = 0; x < ow; x++) {
        let s = 0;
        for (let j = 0; j < ws.length; j++) s += ws[j]! * tmp[(s0 + j) * ow + x]!;
        dst[outBase + y * ow + x] = s;
      }
    }
  }
}
