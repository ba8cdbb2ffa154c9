import { invalidArgument, requireNumber } from '../util/errors.js';
import { Random } from '../util/random.js';
import { datasetSize, gatherRows, sampleSize, type Dataset, type ImageDataset, type TextDataset } from './dataset.js';

/**
 * Epochs and mini-batches, reproducible and resumable.
 *
 * The order of epoch e is a permutation drawn from its own generator, Random(epochSeed(seed, e)), so any
 * (epoch, batch) position can be recomputed without replaying earlier epochs: a run that crashed after
 * batch b of epoch e resumes with `start: { epoch: e, batch: b + 1 }` and sees exactly the batches it would
 * have seen. Batch b of an epoch is order[b·B, min((b+1)·B, n)); the last, partial batch is kept unless
 * `dropLast` (then every batch has exactly B samples and the n mod B leftovers of each epoch are skipped —
 * different samples each epoch when shuffling).
 */
export interface BatchOptions {
  /** Batch size B (≥ 1). */
  batchSize: number;
  /** Seed of the shuffles. */
  seed: number;
  /** Shuffle each epoch (default true); false keeps 0..n−1 order. */
  shuffle?: boolean;
  /** Drop the last partial batch of each epoch (default false). */
  dropLast?: boolean;
}

/** A position in the batch stream. */
export interface BatchPosition {
  readonly epoch: number;
  readonly batch: number;
}

/** Seed of epoch e's generator: a 32-bit mix (murmur3 finaliser) of the run seed and the epoch number. */
export function epochSeed(seed: number, epoch: number): number {
  let h = fmix32((seed >>> 0) ^ 0x5bd1e995);
  h = fmix32((h ^ Math.imul(epoch + 1, 0x9e3779b1)) >>> 0);
  return h;
}

function fmix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** The sample order of one epoch: a permutation of 0..n−1 (identity when not shuffling). */
export function epochOrder(n: number, epoch: number, options: Pick<BatchOptions, 'seed' | 'shuffle'>): Int32Array {
  requireNumber('n', n, { integer: true, min: 0 });
  requireNumber('epoch', epoch, { integer: true, min: 0 });
  requireNumber('seed', options.seed, { integer: true });
  if (options.shuffle === false) return Int32Array.from({ length: n }, (_, i) => i);
  return new Random(epochSeed(options.seed, epoch)).permutation(n);
}

/** Number of batches in one epoch: ⌈n/B⌉, or ⌊n/B⌋ with dropLast. */
export function batchesPerEpoch(n: number, options: Pick<BatchOptions, 'batchSize' | 'dropLast'>): number {
  requireNumber('n', n, { integer: true, min: 0 });
  const b = requireNumber('batchSize', options.batchSize, { integer: true, min: 1 });
  return options.dropLast ? Math.floor(n / b) : Math.ceil(n / b);
}

/** Options of `batchPositions` / `iterateBatches`. */
export interface IterateOptions extends BatchOptions {
  /** First position to produce (default epoch 0, batch 0); a batch index past the epoch's end starts the next epoch. */
  start?: BatchPosition;
  /** Stop before this epoch (exclusive); default: never stop. */
  endEpoch?: number;
}

/** One batch of sample indices. */
export interface IndexBatch extends BatchPosition {
  /** Indices into the dataset, length B (or less for a last partial batch). */
  readonly indices: Int32Array;
}

/** Generate the (epoch, batch, indices) stream over n samples from `start` until `endEpoch`. */
export function* batchPositions(n: number, options: IterateOptions): Generator<IndexBatch> {
  const perEpoch = batchesPerEpoch(n, options);
  const b = options.batchSize;
  let epoch = requireNumber('start.epoch', options.start?.epoch ?? 0, { integer: true, min: 0 });
  let batch = requireNumber('start.batch', options.start?.batch ?? 0, { integer: true, min: 0 });
  const end = options.endEpoch === undefined ? Infinity : requireNumber('endEpoch', options.endEpoch, { integer: true, min: 0 });
  if (perEpoch === 0) {
    if (end === Infinity) invalidArgument('batchSize', `at most n = ${n} with dropLast (or an endEpoch)`, String(b));
    return;
  }
  while (epoch < end) {
    if (batch >= perEpoch) {
      epoch++;
      batch = 0;
      continue;
    }
    const order = epochOrder(n, epoch, options);
    for (; batch < perEpoch; batch++) {
      yield { epoch, batch, indices: order.slice(batch * b, Math.min((batch + 1) * b, n)) };
    }
    epoch++;
    batch = 0;
  }
}

/** A batch of images: [B, C, H, W] values and B labels. */
export interface ImageBatch extends IndexBatch {
  readonly kind: 'image';
  readonly images: Float32Array;
  readonly labels: Int32Array;
  /** [B, C, H, W]. */
  readonly shape: readonly [number, number, number, number];
}

/** A batch of token sequences: [B, L] ids and B labels. */
export interface TextBatch extends IndexBatch {
  readonly kind: 'text';
  readonly tokens: Int32Array;
  readonly labels: Int32Array;
  /** [B, L]. */
  readonly shape: readonly [number, number];
}

/**
 * Reusable storage for the values of successive batches (`gatherBatch(…, scratch)`): a batch gathered into it is
 * overwritten by the next one, so use it only where each batch is consumed before the next is gathered (the train
 * loop). Every batch in fresh memory costs page faults on machines where first touches are slow (a 400 KB
 * Fashion-MNIST batch: ≈ 0.1 ms gathered into reused memory, 0.3–2 ms into a new array; src/engine/README.md, round six).
 */
export class BatchScratch {
  private floats = new Float32Array(0);
  private ints = new Int32Array(0);

  /** A Float32Array of length n, reused while n stays the same. */
  float32(n: number): Float32Array {
    if (this.floats.length !== n) this.floats = new Float32Array(n);
    return this.floats;
  }

  /** An Int32Array of length n, reused while n stays the same. */
  int32(n: number): Int32Array {
    if (this.ints.length !== n) this.ints = new Int32Array(n);
    return this.ints;
  }
}

/**
 * Copy the samples `indices` of a dataset into a batch (values are copied; the dataset is untouched): into fresh
 * arrays, or into `scratch`'s storage for the values (labels are always fresh).
 */
export function gatherBatch(dataset: ImageDataset, position: IndexBatch, scratch?: BatchScratch): ImageBatch;
export function gatherBatch(dataset: TextDataset, position: IndexBatch, scratch?: BatchScratch): TextBatch;
export function gatherBatch(dataset: Dataset, position: IndexBatch, scratch?: BatchScratch): ImageBatch | TextBatch;
export function gatherBatch(dataset: Dataset, position: IndexBatch, scratch?: BatchScratch): ImageBatch | TextBatch {
  const { indices } = position;
  const size = sampleSize(dataset);
  const labels = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) labels[i] = dataset.labels[indices[i]!]!;
  if (dataset.kind === 'image') {
    const [c, h, w] = dataset.shape;
    const n = indices.length * size;
    const images = gatherRows(dataset.images, size, indices, scratch ? scratch.float32(n) : new Float32Array(n));
    return { kind: 'image', epoch: position.epoch, batch: position.batch, indices, images, labels, shape: [indices.length, c, h, w] };
  }
  const n = indices.length * size;
  const tokens = gatherRows(dataset.tokens, size, indices, scratch ? scratch.int32(n) : new Int32Array(n));
  return { kind: 'text', epoch: position.epoch, batch: position.batch, indices, tokens, labels, shape: [indices.length, size] };
}

/** Iterate over batches of a dataset (see `batchPositions` for the order and resuming). */
export function iterateBatches(dataset: ImageDataset, options: IterateOptions): Generator<ImageBatch>;
export function iterateBatches(dataset: TextDataset, options: IterateOptions): Generator<TextBatch>;
export function iterateBatches(dataset: Dataset, options: IterateOptions): Generator<ImageBatch | TextBatch>;
export function* iterateBatches(dataset: Dataset, options: IterateOptions): Generator<ImageBatch | TextBatch> {
  for (const position of batchPositions(datasetSize(dataset), options)) yield gatherBatch(dataset, position);
}
