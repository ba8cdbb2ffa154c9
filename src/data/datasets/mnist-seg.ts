import { invalidArgument, requireNumber } from '../../util/errors.js';
import { gatherRows, subset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { embeddedMnistSizes, loadMnist, type MnistOptions } from './mnist.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * MNIST segmentation ("mnist-seg"): the embedded real MNIST digits (mnist.ts) with per-pixel masks derived from
 * their intensities v ∈ [0, 1], in the style of PASCAL VOC's labels (the benchmark of Liu et al. CVPR 2022, MbLS
 * Table 5):
 *
 *   mask = 0 (background)        where v < 0.1
 *          digit + 1              where v ≥ 0.5
 *          255 (ignore, "void")   in between: the anti-aliased boundary, as VOC's void band around objects
 *
 * 11 mask classes (background + 10 digits); image shape [1, 28, 28], masks [N, 28, 28] row-major. The image-level
 * label (the digit) is kept in `labels`, so `loadDataset('mnist-seg')` is also an ordinary image dataset.
 */
export const SEGMENTATION_IGNORE_INDEX = 255;
/** Intensities below this are background. */
export const BACKGROUND_BELOW = 0.1;
/** Intensities at or above this are the digit. */
export const FOREGROUND_FROM = 0.5;
export const MNIST_SEG_CLASS_NAMES: readonly string[] = ['background', ...Array.from({ length: 10 }, (_, d) => `digit ${d}`)];

/** An image dataset with a class mask per pixel. */
export interface SegmentationDataset extends ImageDataset {
  /** N × H × W mask labels in [0, maskClasses) or `ignoreIndex`. */
  readonly masks: Int32Array;
  /** Number of mask classes (background included). */
  readonly maskClasses: number;
  /** Mask value of unlabelled pixels (left out of losses and metrics). */
  readonly ignoreIndex: number;
  readonly maskClassNames: readonly string[];
}

/** Whether `d` carries masks. */
export function isSegmentationDataset(d: unknown): d is SegmentationDataset {
  return typeof d === 'object' && d !== null && (d as { masks?: unknown }).masks instanceof Int32Array;
}

/**
 * The mask of one image (`pixels`, H·W intensities in [0, 1]) of digit `digit`, written into `out` (H·W): see the
 * module comment for the thresholds.
 */
export function digitMask(pixels: ArrayLike<number>, digit: number, out: Int32Array = new Int32Array(pixels.length)): Int32Array {
  requireNumber('digit', digit, { integer: true, min: 0, max: 9 });
  if (out.length !== pixels.length) invalidArgument('out', `${pixels.length} values (one per pixel)`, String(out.length));
  for (let i = 0; i < pixels.length; i++) {
    const v = pixels[i]!;
    out[i] = v < BACKGROUND_BELOW ? 0 : v >= FOREGROUND_FROM ? digit + 1 : SEGMENTATION_IGNORE_INDEX;
  }
  return out;
}

/** Attach `digitMask` masks to an MNIST image dataset (one channel). */
export function withDigitMasks(d: ImageDataset, name = d.name): SegmentationDataset {
  const [c, h, w] = d.shape;
  if (c !== 1) invalidArgument(`${d.name}: shape`, 'one channel [1, H, W]', `[${d.shape.join(', ')}]`);
  const size = h * w;
  const masks = new Int32Array(d.labels.length * size);
  for (let n = 0; n < d.labels.length; n++) {
    digitMask(d.images.subarray(n * size, (n + 1) * size), d.labels[n]!, masks.subarray(n * size, (n + 1) * size));
  }
  return { ...d, name, masks, maskClasses: 11, ignoreIndex: SEGMENTATION_IGNORE_INDEX, maskClassNames: MNIST_SEG_CLASS_NAMES };
}

/** The samples `indices` of a segmentation set (images, labels and masks), in that order: `subset` plus the masks. */
export function segmentationSubset(d: SegmentationDataset, indices: ArrayLike<number>, name = d.name): SegmentationDataset {
  const [, h, w] = d.shape;
  return { ...subset(d, indices, name), masks: gatherRows(d.masks, h * w, indices, new Int32Array(indices.length * h * w)) };
}

/** mnist-seg: `loadMnist` (same options and split) with digit masks. */
export async function loadMnistSegmentation(options: MnistOptions = {}): Promise<Required<DatasetSplits<SegmentationDataset>>> {
  const { train, test } = await loadMnist(options);
  return { train: withDigitMasks(train, 'mnist-seg/train'), test: withDigitMasks(test, 'mnist-seg/test') };
}

/** The `mnist-seg` dataset's declaration (load-dataset.ts lists it). */
export const mnistSegmentationDefinition = defineDataset({
  name: 'mnist-seg',
  summary: 'the embedded MNIST digits with per-pixel masks (background 0 below intensity 0.1, digit + 1 from 0.5, 255 ignored between)',
  task: 'segmentation',
  optionKeys: ['testSize', 'seed', 'directory'],
  load: (options: MnistOptions | undefined) => loadMnistSegmentation(options ?? {}),
  augmentation: 'none',
  oodPartner: null,
  sizes: (options: MnistOptions | undefined) => embeddedMnistSizes(options ?? {}),
});
