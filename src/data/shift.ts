import { invalidArgument, requireNumber } from '../util/errors.js';
import { Random } from '../util/random.js';
import { imageDataset, type ImageDataset } from './dataset.js';

/**
 * Gaussian-noise out-of-distribution inputs (Thulasidasan et al. 2019, §4 "Out-of-category and random noise
 * data": random Gaussian noise images with the mean and variance of the training data), used to measure
 * whether a model is (over)confident on inputs that carry no signal (AUROC of confidence, in vs. noise).
 *
 * Statistics are per pixel (one mean and variance for each of the C·H·W positions, over the N images;
 * default) or per channel (over all N·H·W values of a channel). Noise image values are
 * μ + σ·z with z ~ N(0, 1) drawn from the seeded `Random` in NCHW order, then clipped to [0, 1] unless
 * `clip: false` (clipping moves the mean/variance of the values near 0 and 1).
 */
export type StatisticsMode = 'pixel' | 'channel';

export interface ImageStatistics {
  readonly mode: StatisticsMode;
  /** [C, H, W] of the images described. */
  readonly shape: readonly [number, number, number];
  /** Means: C·H·W entries (pixel mode) or C (channel mode). */
  readonly mean: Float64Array;
  /** Population variances, same layout as `mean`. */
  readonly variance: Float64Array;
}

/** Mean and population variance of an image set per pixel or per channel (two passes, float64). */
export function imageStatistics(dataset: ImageDataset, mode: StatisticsMode = 'pixel'): ImageStatistics {
  if (mode !== 'pixel' && mode !== 'channel') invalidArgument('mode', '"pixel" or "channel"', JSON.stringify(mode));
  const n = dataset.labels.length;
  if (n === 0) invalidArgument('dataset', 'at least one image', 'an empty dataset');
  const [c, h, w] = dataset.shape;
  const size = c * h * w;
  const plane = h * w;
  const entries = mode === 'pixel' ? size : c;
  const slot = (j: number): number => (mode === 'pixel' ? j : Math.floor(j / plane));
  const count = mode === 'pixel' ? n : n * plane;
  const mean = new Float64Array(entries);
  const variance = new Float64Array(entries);
  const x = dataset.images;
  for (let i = 0; i < n; i++) for (let j = 0; j < size; j++) mean[slot(j)]! += x[i * size + j]!;
  for (let k = 0; k < entries; k++) mean[k]! /= count;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < size; j++) {
      const d = x[i * size + j]! - mean[slot(j)]!;
      variance[slot(j)]! += d * d;
    }
  }
  for (let k = 0; k < entries; k++) variance[k]! /= count;
  return { mode, shape: [c, h, w], mean, variance };
}

/** Draw `count` Gaussian noise images [count, C, H, W] with the given statistics (see above). */
export function gaussianNoiseImages(stats: ImageStatistics, count: number, rng: Random, options: { clip?: boolean } = {}): Float32Array {
  const m = requireNumber('count', count, { integer: true, min: 0 });
  const [c, h, w] = stats.shape;
  const size = c * h * w;
  const plane = h * w;
  const clip = options.clip ?? true;
  const out = new Float32Array(m * size);
  const sd = stats.variance.map(Math.sqrt);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < size; j++) {
      const k = stats.mode === 'pixel' ? j : Math.floor(j / plane);
      let v = stats.mean[k]! + sd[k]! * rng.normal();
      if (clip) v = v < 0 ? 0 : v > 1 ? 1 : v;
      out[i * size + j] = v;
    }
  }
  return out;
}

/**
 * A noise OOD set shaped like `reference`: `count` images from `gaussianNoiseImages(imageStatistics(reference,
 * mode), count, Random(seed))`, named "<name>/gaussian-noise". Its labels carry no meaning (all 0); use it
 * for confidence-based OOD detection, not for accuracy.
 */
export function gaussianNoiseDataset(reference: ImageDataset, options: { count: number; seed?: number; mode?: StatisticsMode; clip?: boolean }): ImageDataset {
  const stats = imageStatistics(reference, options.mode ?? 'pixel');
  const images = gaussianNoiseImages(stats, options.count, new Random(options.seed ?? 0), options.clip === undefined ? {} : { clip: options.clip });
  return imageDataset({
    name: `${reference.name}/gaussian-noise`,
    images,
    labels: new Int32Array(options.count),
    shape: reference.shape,
    classes: reference.classes,
    ...(reference.classNames ? { classNames: reference.classNames } : {}),
  });
}
