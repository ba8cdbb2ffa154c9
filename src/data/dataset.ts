import { describe, invalidArgument, requireNumber } from '../util/errors.js';

/**
 * The toolkit's in-memory datasets.
 *
 * Images are stored NCHW in one Float32Array with values scaled to [0, 1] (8-bit sources are divided by 255):
 * element (n, c, y, x) is `images[((n * C + c) * H + y) * W + x]`. Text is stored as token ids, N × L row-major
 * (`tokens[n * L + t]`), padded with 0 (`<pad>`). Labels are Int32Array class indices in [0, classes).
 * Memory: a float32 image set takes 4·N·C·H·W bytes (CIFAR-10 train + test: 737 MB).
 */
export interface ImageDataset {
  readonly kind: 'image';
  /** Short name, e.g. "cifar10/train". */
  readonly name: string;
  /** N × C × H × W values in [0, 1]. */
  readonly images: Float32Array;
  /** N class indices in [0, classes). */
  readonly labels: Int32Array;
  /** [C, H, W] of one image. */
  readonly shape: readonly [number, number, number];
  /** Number of classes. */
  readonly classes: number;
  /** Optional human-readable class names, one per class. */
  readonly classNames?: readonly string[];
}

/** A text classification set: fixed-length token ids (0 = `<pad>`, 1 = `<unk>`). */
export interface TextDataset {
  readonly kind: 'text';
  readonly name: string;
  /** N × L token ids, row-major. */
  readonly tokens: Int32Array;
  readonly labels: Int32Array;
  /** [L]: the sequence length. */
  readonly shape: readonly [number];
  readonly classes: number;
  readonly classNames?: readonly string[];
  /** Token strings by id (vocabulary[0] = "<pad>", vocabulary[1] = "<unk>"). */
  readonly vocabulary: readonly string[];
}

export type Dataset = ImageDataset | TextDataset;

/** A dataset's training part and (where the source defines one) its test part. */
export interface DatasetSplits<D extends Dataset = Dataset> {
  readonly train: D;
  readonly test?: D;
}

/** Number of samples of a dataset. */
export function datasetSize(dataset: Dataset): number {
  return dataset.labels.length;
}

/** Number of values of one sample (C·H·W for images, L for text). */
export function sampleSize(dataset: Dataset): number {
  return dataset.shape.reduce((a: number, b: number) => a * b, 1);
}

/**
 * Build an image dataset, checking that `images` holds N·C·H·W values, every label lies in [0, classes) and
 * `classNames` (if given) has one entry per class.
 */
export function imageDataset(fields: Omit<ImageDataset, 'kind'>): ImageDataset {
  const [c, h, w] = fields.shape;
  for (const [i, d] of fields.shape.entries()) requireNumber(`shape[${i}]`, d, { integer: true, min: 1 });
  const n = fields.labels.length;
  if (!(fields.images instanceof Float32Array)) invalidArgument('images', 'a Float32Array', describe(fields.images));
  if (fields.images.length !== n * c * h * w) invalidArgument('images', `${n} × ${c} × ${h} × ${w} = ${n * c * h * w} values (one image per label)`, `${fields.images.length} values`);
  checkLabels(fields.labels, fields.classes, fields.classNames);
  return { kind: 'image', ...fields };
}

/** Build a text dataset, checking the token array length, token ids and labels. */
export function textDataset(fields: Omit<TextDataset, 'kind'>): TextDataset {
  const l = requireNumber('shape[0]', fields.shape[0], { integer: true, min: 1 });
  const n = fields.labels.length;
  if (fields.tokens.length !== n * l) invalidArgument('tokens', `${n} × ${l} = ${n * l} ids`, `${fields.tokens.length} ids`);
  const v = fields.vocabulary.length;
  for (let i = 0; i < fields.tokens.length; i++) {
    const t = fields.tokens[i]!;
    if (t < 0 || t >= v) invalidArgument(`tokens[${i}]`, `a token id in [0, ${v})`, String(t));
  }
  checkLabels(fields.labels, fields.classes, fields.classNames);
  return { kind: 'text', ...fields };
}

function checkLabels(labels: Int32Array, classes: number, classNames: readonly string[] | undefined): void {
  if (!(labels instanceof Int32Array)) invalidArgument('labels', 'an Int32Array', describe(labels));
  requireNumber('classes', classes, { integer: true, min: 1 });
  for (let i = 0; i < labels.length; i++) {
    const y = labels[i]!;
    if (y < 0 || y >= classes) invalidArgument(`labels[${i}]`, `a class index in [0, ${classes})`, String(y));
  }
  if (classNames !== undefined && classNames.length !== classes) invalidArgument('classNames', `${classes} names (one per class)`, `${classNames.length}`);
}

/** Check that `indices` are integers in [0, n); returns them. */
export function checkIndices(argument: string, indices: ArrayLike<number>, n: number): ArrayLike<number> {
  for (let i = 0; i < indices.length; i++) {
    const k = indices[i]!;
    if (!Number.isInteger(k) || k < 0 || k >= n) invalidArgument(`${argument}[${i}]`, `an index in [0, ${n})`, describe(k));
  }
  return indices;
}

/**
 * Copy the samples `indices` (in that order; repeats allowed) into a new dataset of the same kind.
 * `name` defaults to the source name.
 */
export function subset<D extends Dataset>(dataset: D, indices: ArrayLike<number>, name?: string): D {
  const n = datasetSize(dataset);
  checkIndices('indices', indices, n);
  const size = sampleSize(dataset);
  const labels = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) labels[i] = dataset.labels[indices[i]!]!;
  if (dataset.kind === 'image') {
    const images = gatherRows(dataset.images, size, indices, new Float32Array(indices.length * size));
    return { ...dataset, name: name ?? dataset.name, images, labels };
  }
  const tokens = gatherRows(dataset.tokens, size, indices, new Int32Array(indices.length * size));
  return { ...dataset, name: name ?? dataset.name, tokens, labels };
}

/**
 * Keep the samples `indices` (strictly increasing) of a dataset whose arrays the caller owns, in place: sample
 * indices[i] moves to position i of the same arrays (a forward move, since indices[i] ≥ i, so no source row is
 * overwritten before it is read), and the result's arrays are views of their first indices.length rows. No new
 * sample memory: a hold-out's 54,000-row rest of Fashion-MNIST is a 170 MB copy otherwise, most of whose cost on a
 * VM is the first touch of fresh pages. The source dataset must not be used afterwards (its rows are overwritten).
 */
export function compactInPlace<D extends Dataset>(dataset: D, indices: ArrayLike<number>, name?: string): D {
  const n = datasetSize(dataset);
  checkIndices('indices', indices, n);
  for (let i = 1; i < indices.length; i++) {
    if (!(indices[i]! > indices[i - 1]!)) invalidArgument(`indices[${i}]`, `an index above indices[${i - 1}] = ${indices[i - 1]} (strictly increasing)`, String(indices[i]));
  }
  const size = sampleSize(dataset);
  const labels = dataset.labels;
  for (let i = 0; i < indices.length; i++) labels[i] = labels[indices[i]!]!;
  const keptLabels = labels.subarray(0, indices.length);
  if (dataset.kind === 'image') {
    const images = compactRows(dataset.images, size, indices);
    return { ...dataset, name: name ?? dataset.name, images, labels: keptLabels };
  }
  const tokens = compactRows(dataset.tokens, size, indices);
  return { ...dataset, name: name ?? dataset.name, tokens, labels: keptLabels };
}

/** Move rows `indices` (increasing) of a row-major array to its front (row i ← row indices[i]); the view of those rows. */
function compactRows<T extends Float32Array | Int32Array>(rows: T, rowSize: number, indices: ArrayLike<number>): T {
  for (let i = 0; i < indices.length; i++) {
    const from = indices[i]!;
    if (from !== i) rows.copyWithin(i * rowSize, from * rowSize, (from + 1) * rowSize);
  }
  return rows.subarray(0, indices.length * rowSize) as T;
}

/**
 * Copy rows `indices` of a row-major array with rows of `rowSize` values into `out` (row i ← row indices[i]).
 * Shapes: source [N, rowSize], out [indices.length, rowSize]. Indices are not validated here (hot path).
 */
export function gatherRows<T extends Float32Array | Float64Array | Int32Array | Uint8Array>(source: T, rowSize: number, indices: ArrayLike<number>, out: T): T {
  if (out.length < indices.length * rowSize) invalidArgument('out', `room for ${indices.length} × ${rowSize} values`, `${out.length}`);
  for (let i = 0; i < indices.length; i++) {
    const start = indices[i]! * rowSize;
    out.set(source.subarray(start, start + rowSize), i * rowSize);
  }
  return out;
}

/** Concatenate datasets of the same kind, shape and classes (in order). */
export function concatDatasets<D extends Dataset>(parts: readonly D[], name?: string): D {
  if (parts.length === 0) invalidArgument('parts', 'at least one dataset', 'none');
  const first = parts[0]!;
  for (const [i, p] of parts.entries()) {
    if (p.kind !== first.kind || p.shape.join() !== first.shape.join() || p.classes !== first.classes)
      invalidArgument(`parts[${i}]`, `a ${first.kind} dataset of shape [${first.shape}] with ${first.classes} classes`, `${p.kind} [${p.shape}] with ${p.classes} classes`);
    if (p.kind === 'text' && first.kind === 'text' && p.vocabulary.join('\n') !== first.vocabulary.join('\n'))
      invalidArgument(`parts[${i}]`, 'a text dataset with the same vocabulary as parts[0]', 'a different vocabulary');
  }
  const n = parts.reduce((a, p) => a + datasetSize(p), 0);
  const labels = concatInto(
    new Int32Array(n),
    parts.map((p) => p.labels),
  );
  if (first.kind === 'image') {
    const images = concatInto(
      new Float32Array(n * sampleSize(first)),
      (parts as readonly ImageDataset[]).map((p) => p.images),
    );
    return { ...first, name: name ?? first.name, images, labels };
  }
  const tokens = concatInto(
    new Int32Array(n * sampleSize(first)),
    (parts as readonly TextDataset[]).map((p) => p.tokens),
  );
  return { ...first, name: name ?? first.name, tokens, labels };
}

/** Copy `arrays` one after the other into `out` (which holds exactly their total length); returns `out`. */
function concatInto<T extends Float32Array | Int32Array>(out: T, arrays: readonly ArrayLike<number>[]): T {
  let offset = 0;
  for (const a of arrays) {
    out.set(a, offset);
    offset += a.length;
  }
  return out;
}

/** Number of samples of each class: counts[k] = #{i : labels[i] = k}. */
export function classCounts(labels: Int32Array, classes: number): Int32Array {
  const counts = new Int32Array(classes);
  for (let i = 0; i < labels.length; i++) counts[labels[i]!]!++;
  return counts;
}
