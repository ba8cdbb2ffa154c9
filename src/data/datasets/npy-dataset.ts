import { readNpy, toLabelData, type NpyArray } from '../../io/npy.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { imageDataset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Generic arrays as a dataset: an images .npy plus a labels .npy (read with src/io/npy.ts).
 * Image array shapes: [N, C, H, W] ('nchw'), [N, H, W, C] ('nhwc', transposed to NCHW), [N, H, W] (one channel),
 * [N, D] (feature vectors, stored as [D, 1, 1] so per-channel normalisation standardises each feature).
 * With layout 'auto' (default) a 4-D array is read as NHWC when its last dimension is 1 or 3 and its second is
 * not, else as NCHW. Values: uint8 (and bool) are divided by 255 (bool: 0/1 kept as 0/1); floats and int32/int64
 * are taken as they are (no range check: generic features need not lie in [0, 1]), but must be finite.
 * Labels: shape [N] or [N, 1], integers in [0, classes); classes defaults to max label + 1.
 */
export interface NpyDatasetOptions {
  /** Training images .npy. */
  images: string;
  /** Training labels .npy. */
  labels: string;
  /** Optional test images / labels. */
  testImages?: string;
  testLabels?: string;
  layout?: 'auto' | 'nchw' | 'nhwc';
  classes?: number;
  classNames?: readonly string[];
  /** Dataset name (default "npy"). */
  name?: string;
}

/** Convert an images array and a labels array (already read) into an image dataset. */
export function npyImageDataset(
  images: NpyArray,
  labels: NpyArray,
  options: { name: string; layout?: 'auto' | 'nchw' | 'nhwc'; classes?: number; classNames?: readonly string[]; argName?: string },
): ImageDataset {
  const arg = options.argName ?? 'images';
  const s = images.shape;
  const n = s[0] ?? 0;
  let shape: [number, number, number];
  let nhwc = false;
  if (s.length === 4) {
    const layout = options.layout ?? 'auto';
    if (layout !== 'auto' && layout !== 'nchw' && layout !== 'nhwc') invalidArgument('layout', '"auto", "nchw" or "nhwc"', describe(layout));
    nhwc = layout === 'nhwc' || (layout === 'auto' && (s[3] === 1 || s[3] === 3) && s[1] !== 1 && s[1] !== 3);
    shape = nhwc ? [s[3]!, s[1]!, s[2]!] : [s[1]!, s[2]!, s[3]!];
  } else if (s.length === 3) shape = [1, s[1]!, s[2]!];
  else if (s.length === 2) shape = [s[1]!, 1, 1];
  else return invalidArgument(arg, 'an array of shape (N, C, H, W), (N, H, W, C), (N, H, W) or (N, D)', `shape (${s.join(', ')})`);
  const [c, h, w] = shape;
  const scale = images.dtype === 'uint8' ? 1 / 255 : 1;
  const src = images.data;
  const out = new Float32Array(n * c * h * w);
  if (nhwc) {
    for (let i = 0; i < n; i++) for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) out[((i * c + k) * h + y) * w + x] = src[((i * h + y) * w + x) * c + k]! * scale;
  } else {
    for (let i = 0; i < out.length; i++) out[i] = src[i]! * scale;
  }
  for (let i = 0; i < out.length; i++) if (!Number.isFinite(out[i]!)) invalidArgument(`${arg}[${i}]`, 'a finite value', String(out[i]));
  const labelCount = labels.shape.length === 1 || (labels.shape.length === 2 && labels.shape[1] === 1) ? labels.shape[0]! : -1;
  if (labelCount === -1) invalidArgument('labels', 'a 1-D array of class labels, shape (N,) or (N, 1)', `shape (${labels.shape.join(', ')})`);
  if (labelCount !== n) invalidArgument('labels', `${n} labels (one per image)`, `${labelCount}`);
  const y = toLabelData(labels.data, { argName: 'labels', path: options.name });
  const classes = options.classes ?? options.classNames?.length ?? y.reduce((a, b) => Math.max(a, b + 1), 1);
  return imageDataset({
    name: options.name,
    images: out,
    labels: y,
    shape,
    classes,
    ...(options.classNames ? { classNames: options.classNames } : {}),
  });
}

/** Load images + labels .npy files (and optionally a test pair) as image datasets. */
export async function loadNpyDataset(options: NpyDatasetOptions): Promise<DatasetSplits<ImageDataset>> {
  if (typeof options.images !== 'string') invalidArgument('images', 'the path of an images .npy file', describe(options.images));
  if (typeof options.labels !== 'string') invalidArgument('labels', 'the path of a labels .npy file', describe(options.labels));
  if ((options.testImages === undefined) !== (options.testLabels === undefined))
    invalidArgument('testImages/testLabels', 'both or neither', options.testImages === undefined ? 'only testLabels' : 'only testImages');
  const name = options.name ?? 'npy';
  const common = {
    ...(options.layout ? { layout: options.layout } : {}),
    ...(options.classNames ? { classNames: options.classNames } : {}),
  };
  const trainLabels = await readNpy(options.labels, 'labels');
  const train = npyImageDataset(await readNpy(options.images, 'images'), trainLabels, {
    ...common,
    name: `${name}/train`,
    argName: 'images',
    ...(options.classes !== undefined ? { classes: options.classes } : {}),
  });
  if (options.testImages === undefined) return { train };
  const test = npyImageDataset(await readNpy(options.testImages, 'testImages'), await readNpy(options.testLabels!, 'testLabels'), {
    ...common,
    name: `${name}/test`,
    argName: 'testImages',
    classes: train.classes,
  });
  return { train, test };
}

/** The `npy` dataset's declaration (load-dataset.ts lists it). */
export const npyDatasetDefinition = defineDataset({
  name: 'npy',
  summary: 'your own images and labels as .npy files (images=… labels=…, optionally testImages=… testLabels=…)',
  task: 'image',
  optionKeys: ['images', 'labels', 'testImages', 'testLabels', 'layout', 'classes', 'classNames', 'name'],
  load: (options: NpyDatasetOptions | undefined) => {
    if (options === undefined) invalidArgument('options', '{ images, labels } paths for the npy dataset', 'undefined');
    return loadNpyDataset(options);
  },
  augmentation: 'none',
  oodPartner: null,
});
