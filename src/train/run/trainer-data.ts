/**
 * The data of a training run, derived deterministically from the configuration:
 *
 *   loadDataset(dataset, datasetOptions) → train (+ test; without a test split, 20 % of train is held out as test)
 *   subset       → a class-stratified subset of train of that size (at most the training samples there are)
 *   validation   → a class-stratified hold-out of train (fraction or count): best-epoch selection, val logits
 *   held-out     → for interleaved training / the 'holdout' secondary placement, a further class-stratified
 *                  hold-out of what remains (fraction of it)
 *   testSubset   → a class-stratified subset of the test split (at most its size)
 *
 * Memory: the held-out parts are copies; the rest of each hold-out is a copy too, or, when the loaded splits are the
 * run's own (`owned`, as `loadRunData` loads them), the kept rows moved to the front of the loaded arrays in place
 * (`compactInPlace`): a 54,000-row Fashion-MNIST rest is then no 170 MB copy. The samples are the same either way.
 *
 * Every split uses the fixed seed SPLIT_SEED, independent of the training seed, so runs with different seeds (or
 * losses) are compared on the same validation and test samples. Images stay in [0, 1] (no normalisation): the
 * exported model takes the same inputs as the toolkit's datasets.
 */
import { defaultAugmentation, loadDataset, type DatasetName, type LoadedSplits } from '../../data/load-dataset.js';
import { compactInPlace, datasetSize, subset, type Dataset } from '../../data/dataset.js';
import { holdOutIndices } from '../../data/splits.js';
import { invalidArgument } from '../../util/errors.js';
import type { Augmentation, TrainConfig } from '../train-config.js';

/** Seed of every data split. */
export const SPLIT_SEED = 0;

/** The splits a run uses. */
export interface RunData {
  /** Samples the primary loss trains on (the majority part under interleaving / 'holdout' placement). */
  readonly train: Dataset;
  readonly validation: Dataset;
  readonly test: Dataset;
  /** Held-out part of the training set for the secondary term (interleaved or 'holdout' placement). */
  readonly heldOut?: Dataset;
  readonly classes: number;
  /** The loaded dataset's provenance, where it records one (DatasetSplits.source). */
  readonly source?: Readonly<Record<string, string | number>>;
}

/** The indices of a stratified hold-out of `size` (fraction < 1 or count) from `d`, naming the argument on failure. */
function splitIndices(d: Dataset, size: number, argument: string): { restIndices: Int32Array; heldOutIndices: Int32Array } {
  const n = datasetSize(d);
  const m = size < 1 ? Math.round(size * n) : size;
  if (!(m >= 1 && m < n)) invalidArgument(argument, `a fraction or count leaving samples on both sides of ${n}`, `${size} (→ ${m} of ${n})`);
  return holdOutIndices(d, { size: m, seed: SPLIT_SEED });
}

/**
 * A stratified hold-out of `size` from `d` (`splitIndices`): the held-out part copied, the rest copied or, when `d`'s
 * arrays are the caller's to consume (`inPlace`), compacted in them (`d` is not usable afterwards).
 */
function split<D extends Dataset>(d: D, size: number, argument: string, inPlace: boolean): { rest: D; heldOut: D } {
  const { restIndices, heldOutIndices } = splitIndices(d, size, argument);
  const heldOut = subset(d, heldOutIndices, `${d.name}[held-out]`);
  const rest = inPlace ? compactInPlace(d, restIndices, `${d.name}[rest]`) : subset(d, restIndices, `${d.name}[rest]`);
  return { rest, heldOut };
}

/**
 * Refuse a subset larger than the samples there are (`subset`, `testSubset`): it would silently train or evaluate on
 * fewer samples than the configuration states.
 */
export function requireWithin(argument: string, requested: number, available: number, what: string): void {
  if (requested > available) invalidArgument(argument, `at most the ${available} ${what}`, String(requested));
}

/**
 * `size` samples of `d`: a stratified hold-out of that size (`split`), or all of `d` when it has exactly `size`;
 * more than it has is refused, naming `argument` and `what` the samples are.
 */
function subsetOf(d: Dataset, size: number, argument: string, what: string): Dataset {
  const n = datasetSize(d);
  requireWithin(argument, size, n, what);
  return size < n ? subset(d, splitIndices(d, size, argument).heldOutIndices, `${d.name}[held-out]`) : d;
}

/** Options of `runSplits`. */
export interface RunSplitsOptions {
  /**
   * The loaded splits are the caller's to consume (default false): each hold-out's rest is compacted in their arrays
   * instead of copied, and `splits` must not be used afterwards.
   */
  readonly owned?: boolean;
}

/** Carve the run's splits out of loaded dataset splits (see the module comment). */
export function runSplits(splits: LoadedSplits, config: TrainConfig, options: RunSplitsOptions = {}): RunData {
  const classes = splits.train.classes;
  const source = splits.source;
  let train: Dataset = splits.train;
  // Whether `train`'s arrays may be overwritten: the loaded ones when owned, and every copy made here.
  let trainOwned = options.owned === true;
  let test: Dataset;
  if (splits.test) test = splits.test;
  else {
    const s = split(train, 0.2, 'dataset (no test split: 20 % of train held out)', trainOwned);
    train = s.rest;
    test = s.heldOut;
    trainOwned = true;
  }
  if (config.subset !== undefined) {
    const before = train;
    train = subsetOf(train, config.subset, 'config.subset', `training samples of ${config.dataset}`);
    if (train !== before) trainOwned = true;
  }
  const v = split(train, config.validation, 'config.validation', trainOwned);
  trainOwned = true;
  train = v.rest;
  let heldOut: Dataset | undefined;
  const fraction = config.interleaved ?? (config.arcPlacement === 'holdout' ? config.holdout : undefined);
  if (fraction !== undefined) {
    const h = split(train, fraction, config.interleaved !== undefined ? 'config.interleaved' : 'config.holdout', trainOwned);
    train = h.rest;
    heldOut = h.heldOut;
  }
  if (config.testSubset !== undefined) test = subsetOf(test, config.testSubset, 'config.testSubset', `test samples of ${config.dataset}`);
  return { train, validation: v.heldOut, test, ...(heldOut ? { heldOut } : {}), classes, ...(source ? { source } : {}) };
}

/** Load the dataset of `config` and carve its splits. */
export async function loadRunData(config: TrainConfig): Promise<RunData> {
  const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
  return runSplits(splits, config, { owned: true });
}

/** The augmentation 'auto' stands for: the dataset's declared default (crop + flip for CIFAR, crop for SVHN, else none). */
export function resolveAugmentation(augment: Augmentation, dataset: string): Exclude<Augmentation, 'auto'> {
  return augment !== 'auto' ? augment : defaultAugmentation(dataset);
}
