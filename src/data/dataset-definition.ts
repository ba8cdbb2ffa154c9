/**
 * What a built-in dataset declares about itself, once, beside its loader: `defineDataset({...})`. The `DATASETS`
 * registry (load-dataset.ts) lists the declarations; from it come the dataset names (`DatasetName`,
 * `DATASET_NAMES`, `calib train --dataset` / `--ood-dataset` with their typo hints), `loadDataset`, the option keys
 * each loader reads (`checkDatasetOptions`), which datasets are text or segmentation, the augmentation `auto` stands
 * for, the default OOD partner of `calib train --ood`, and the README's dataset table (`npm run docs`).
 */
import type { DatasetSplits } from './dataset.js';

/**
 * What `loadDataset` returns: the splits and, for sets that change over time (debian-packages: the list files, their
 * Release date, package counts), where the data came from; runs copy `source` into summary.json's data.source.
 */
export type LoadedSplits = DatasetSplits & { readonly source?: Readonly<Record<string, string | number>> };

/** What the samples are: images with one label, token ids (text-cnn models, embedding mixup), or images with per-pixel masks. */
export type DatasetTask = 'image' | 'text' | 'segmentation';

/** The image augmentation `--augment auto` stands for on a dataset. */
export type DefaultAugmentation = 'none' | 'crop' | 'crop-flip';

/** The declaration of one dataset; `O` is its loader's options type, `K` the keys listed in `optionKeys`. */
export interface DatasetDefinition<N extends string = string, O = object, K extends string = string> {
  /** The name (`calib train --dataset`, `loadDataset(name)`, config.json's `dataset`). */
  readonly name: N;
  /** One line for the README: what it holds and where it is read from. */
  readonly summary: string;
  /** What the samples are. */
  readonly task: DatasetTask;
  /** Every option key the loader reads; any other key is a typo and fails loudly (`checkDatasetOptions`). */
  readonly optionKeys: readonly K[];
  /** Load the splits (options not yet checked against `optionKeys`; `loadDataset` does that). */
  readonly load: (options: O | undefined) => Promise<LoadedSplits>;
  /** The augmentation `--augment auto` stands for (crop + flip for CIFAR, crop for SVHN: digits must not flip). */
  readonly augmentation: DefaultAugmentation;
  /** The second dataset of `calib train --ood`'s AUROC when none is given (a registered name), or null. */
  readonly oodPartner: string | null;
  /**
   * The train / test sizes without loading the samples (label-file headers, a known embedded size), or null when that
   * is not possible for these options; absent: `datasetSizes` loads the dataset once.
   */
  readonly sizes?: (options: O | undefined) => Promise<{ readonly train: number; readonly test: number | null } | null>;
}

/** Keys of `O` missing from `K` (a missing key would refuse a valid option). */
type Unlisted<O, K> = Exclude<keyof O & string, K>;

/**
 * Declare a dataset (frozen; the summary must be non-empty). Fails to compile when `optionKeys` misses a key of the
 * loader's options type or lists one it does not have.
 */
export function defineDataset<const N extends string, O, const K extends keyof O & string>(
  definition: DatasetDefinition<N, O, K> & ([Unlisted<O, K>] extends [never] ? unknown : { readonly unlistedOptionKeys: Unlisted<O, K> }),
): DatasetDefinition<N, O, K> {
  if (definition.summary.trim() === '') throw new Error(`dataset ${definition.name}: empty summary`);
  return Object.freeze({ ...definition, optionKeys: Object.freeze([...definition.optionKeys]) });
}
