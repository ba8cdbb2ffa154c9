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
 * Every split uses the fixed seed SPLIT_SEED, independent of the training seed, so runs with different seeds (or
 * losses) are compared on the same validation and test samples. Images stay in [0, 1] (no normalisation): the
 * exported model takes the same inputs as the toolkit's datasets.
 */
import { defaultAugmentation, loadDataset, type DatasetName, type LoadedSplits } from '../../data/load-dataset.js';
import { datasetSize, type Dataset } from '../../data/dataset.js';
import { holdOut } from '../../data/splits.js';
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

/** Take a stratified hold-out of `size` (fraction < 1 or count) from `d`, naming the argument on failure. */
function split<D extends Dataset>(d: D, size: number, argument: string): { rest: D; heldOut: D } {
  const n = datasetSize(d);
  const m = size < 1 ? Math.round(size * n) : size;
  if (!(m >= 1 && m < n)) invalidArgument(argument, `a fraction or count leaving samples on both sides of ${n}`, `${size} (→ ${m} of ${n})`);
  const { rest, heldOut } = holdOut(d, { size: m, seed: SPLIT_SEED });
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
  return size < n ? split(d, size, argument).heldOut : d;
}

/** Carve the run's splits out of loaded dataset splits (see the module comment). */
export function runSplits(splits: LoadedSplits, config: TrainConfig): RunData {
  let train: Dataset = splits.train;
  let test: Dataset;
  if (splits.test) test = splits.test;
  else {
    const s = split(train, 0.2, 'dataset (no test split: 20 % of train held out)');
    train = s.rest;
    test = s.heldOut;
  }
  if (config.subset !== undefined) train = subsetOf(train, config.subset, 'config.subset', `training samples of ${config.dataset}`);
  const v = split(train, config.validation, 'config.validation');
  train = v.rest;
  let heldOut: Dataset | undefined;
  const fraction = config.interleaved ?? (config.arcPlacement === 'holdout' ? config.holdout : undefined);
  if (fraction !== undefined) {
    const h = split(train, fraction, config.interleaved !== undefined ? 'config.interleaved' : 'config.holdout');
    train = h.rest;
    heldOut = h.heldOut;
  }
  if (config.testSubset !== undefined) test = subsetOf(test, config.testSubset, 'config.testSubset', `test samples of ${config.dataset}`);
  return { train, validation: v.heldOut, test, ...(heldOut ? { heldOut } : {}), classes: splits.train.classes, ...(splits.source ? { source: splits.source } : {}) };
}

/** Load the dataset of `config` and carve its splits. */
export async function loadRunData(config: TrainConfig): Promise<RunData> {
  const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
  return runSplits(splits, config);
}

/** The augmentation 'auto' stands for: the dataset's declared default (crop + flip for CIFAR, crop for SVHN, else none). */
export function resolveAugmentation(augment: Augmentation, dataset: string): Exclude<Augmentation, 'auto'> {
  return augment !== 'auto' ? augment : defaultAugmentation(dataset);
}
