import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Random } from '../util/random.js';

/**
 * Host-side image augmentation and normalisation on a batch of images stored NCHW in a Float32Array,
 * applied in place. `shape` is [N, C, H, W] of the batch. Randomness comes only from the `Random` passed in.
 */
export type BatchShape = readonly [number, number, number, number];

/** Check that `images` is a Float32Array holding N·C·H·W values; returns the shape as numbers. */
export function checkBatch(images: Float32Array, shape: BatchShape): [number, number, number, number] {
  if (!(images instanceof Float32Array)) invalidArgument('images', 'a Float32Array', describe(images));
  if (!Array.isArray(shape) || shape.length !== 4) invalidArgument('shape', '[N, C, H, W]', describe(shape));
  shape.forEach((d, i) => requireNumber(`shape[${i}]`, d, { integer: true, min: 0 }));
  const [n, c, h, w] = shape;
  if (images.length !== n * c * h * w) invalidArgument('images', `${n}·${c}·${h}·${w} = ${n * c * h * w} values`, `${images.length}`);
  return [n, c, h, w];
}

/**
 * Shift image `index` in place by (dy, dx) with zero fill: out[c, y, x] = in[c, y + dy, x + dx] when that lies
 * inside the image, else 0. A random crop of size H×W from the image zero-padded by p with top-left corner
 * (oy, ox) ∈ [0, 2p]² is exactly this shift with (dy, dx) = (oy − p, ox − p).
 */
export function shiftImage(images: Float32Array, shape: BatchShape, index: number, dy: number, dx: number, scratch?: Float32Array): void {
  const [, c, h, w] = shape;
  const plane = h * w;
  const tmp = scratch && scratch.length >= plane ? scratch : new Float32Array(plane);
  for (let ch = 0; ch < c; ch++) {
    const base = (index * c + ch) * plane;
    tmp.set(images.subarray(base, base + plane));
    for (let y = 0; y < h; y++) {
      const sy = y + dy;
      const row = base + y * w;
      if (sy < 0 || sy >= h) {
        images.fill(0, row, row + w);
        continue;
      }
      for (let x = 0; x < w; x++) {
        const sx = x + dx;
        images[row + x] = sx >= 0 && sx < w ? tmp[sy * w + sx]! : 0;
      }
    }
  }
}

/**
 * Random crop with zero padding (as torchvision's RandomCrop(size = H, padding = p), the CIFAR recipe with p = 4):
 * for each image in order, draw oy = rng.int(2p + 1) then ox = rng.int(2p + 1) and crop the H×W window at (oy, ox)
 * of the zero-padded image, in place. Returns the shifts used, [N, 2] as (dy, dx) = (oy − p, ox − p).
 */
export function randomCrop(images: Float32Array, shape: BatchShape, padding: number, rng: Random): Int32Array {
  const [n, , h, w] = checkBatch(images, shape);
  const p = requireNumber('padding', padding, { integer: true, min: 0 });
  const shifts = new Int32Array(2 * n);
  const scratch = new Float32Array(h * w);
  for (let i = 0; i < n; i++) {
    const dy = rng.int(2 * p + 1) - p;
    const dx = rng.int(2 * p + 1) - p;
    shifts[2 * i] = dy;
    shifts[2 * i + 1] = dx;
    if (dy !== 0 || dx !== 0) shiftImage(images, shape, i, dy, dx, scratch);
  }
  return shifts;
}

/** Mirror image `index` left–right in place: out[c, y, x] = in[c, y, W − 1 − x]. */
export function flipImage(images: Float32Array, shape: BatchShape, index: number): void {
  const [, c, h, w] = shape;
  for (let ch = 0; ch < c; ch++) {
    for (let y = 0; y < h; y++) {
      const row = ((index * c + ch) * h + y) * w;
      for (let a = row, b = row + w - 1; a < b; a++, b--) {
        const t = images[a]!;
        images[a] = images[b]!;
        images[b] = t;
      }
    }
  }
}

/**
 * Random horizontal flip: for each image in order, draw u = rng.uniform() and mirror it when u < probability
 * (default 0.5), in place. Returns the flags, 1 = flipped.
 */
export function randomHorizontalFlip(images: Float32Array, shape: BatchShape, rng: Random, probability = 0.5): Uint8Array {
  const [n] = checkBatch(images, shape);
  requireNumber('probability', probability, { min: 0, max: 1 });
  const flipped = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (rng.uniform() < probability) {
      flipImage(images, shape, i);
      flipped[i] = 1;
    }
  }
  return flipped;
}

/**
 * Per-channel normalisation in place: x[n, c, y, x] ← (x − mean_c) / std_c. `mean` and `std` have C entries
 * (std > 0). Common constants: CIFAR-10 mean (0.4914, 0.4822, 0.4465), std (0.2470, 0.2435, 0.2616);
 * or compute them with `channelMeanStd` on the training split.
 */
export function normalize(images: Float32Array, shape: BatchShape, mean: readonly number[], std: readonly number[]): void {
  const [n, c, h, w] = checkBatch(images, shape);
  if (mean.length !== c) invalidArgument('mean', `${c} values (one per channel)`, describe(mean));
  if (std.length !== c) invalidArgument('std', `${c} values (one per channel)`, describe(std));
  mean.forEach((m, k) => requireNumber(`mean[${k}]`, m));
  std.forEach((s, k) => requireNumber(`std[${k}]`, s, { min: 0, exclusiveMin: true }));
  const plane = h * w;
  for (let i = 0; i < n; i++) {
    for (let ch = 0; ch < c; ch++) {
      const base = (i * c + ch) * plane;
      const m = mean[ch]!;
      const inv = 1 / std[ch]!;
      for (let j = base; j < base + plane; j++) images[j] = (images[j]! - m) * inv;
    }
  }
}

/**
 * Mean and (population) standard deviation of each channel over all images and pixels, accumulated in float64:
 * mean_c = Σ x / (N·H·W), std_c = sqrt(Σ (x − mean_c)² / (N·H·W)) (two passes).
 */
export function channelMeanStd(images: Float32Array, shape: BatchShape): { mean: number[]; std: number[] } {
  const [n, c, h, w] = checkBatch(images, shape);
  const plane = h * w;
  const count = n * plane;
  if (count === 0) invalidArgument('images', 'at least one pixel', 'none');
  const mean = new Array<number>(c).fill(0);
  const std = new Array<number>(c).fill(0);
  for (let ch = 0; ch < c; ch++) {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const base = (i * c + ch) * plane;
      for (let j = base; j < base + plane; j++) s += images[j]!;
    }
    const m = s / count;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const base = (i * c + ch) * plane;
      for (let j = base; j < base + plane; j++) v += (images[j]! - m) ** 2;
    }
    mean[ch] = m;
    std[ch] = Math.sqrt(v / count);
  }
  return { mean, std };
}

/** Options of `augmentBatch`. */
export interface AugmentOptions {
  /** Zero padding of the random crop (default 4; 0 disables cropping). */
  padding?: number;
  /** Random horizontal flips with probability 0.5 (default true). */
  flip?: boolean;
  /** Per-channel normalisation applied last, when both are given. */
  mean?: readonly number[];
  std?: readonly number[];
}

/**
 * The standard CIFAR training augmentation on a batch, in place: random crop with zero padding, then random
 * horizontal flip, then per-channel normalisation. Draw order: all crops (image by image), then all flips.
 */
export function augmentBatch(images: Float32Array, shape: BatchShape, rng: Random, options: AugmentOptions = {}): void {
  checkBatch(images, shape);
  const padding = options.padding ?? 4;
  if (padding > 0) randomCrop(images, shape, padding, rng);
  if (options.flip ?? true) randomHorizontalFlip(images, shape, rng);
  if ((options.mean === undefined) !== (options.std === undefined)) invalidArgument('mean/std', 'both or neither', options.mean === undefined ? 'only std' : 'only mean');
  if (options.mean !== undefined && options.std !== undefined) normalize(images, shape, options.mean, options.std);
}
