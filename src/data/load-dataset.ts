/**
 * Every built-in dataset, in the order `calib train --help` and the README list them. Each entry is the declaration
 * beside its loader (dataset-definition.ts); from this list come the names (`DatasetName`, `DATASET_NAMES`, the
 * `--dataset` / `--ood-dataset` choices with their typo hints), `loadDataset`, the option keys each loader reads
 * (`checkDatasetOptions`), which datasets are text or segmentation, the augmentation `auto` stands for, the default
 * OOD partner and the README's dataset table (`npm run docs`).
 *
 * ## How to add a dataset (one file plus one test)
 * 1. Write `src/data/<name>.ts`: the loader (returning `DatasetSplits`, data/dataset.ts) with its options type, and
 *    `export const <name>Definition = defineDataset({ name, summary, task, optionKeys, load, augmentation,
 *    oodPartner })` — `optionKeys` must list every key of the options type (checked when compiling).
 * 2. Add the definition to `DATASETS` below, then `npm run docs` to refresh the README table.
 * 3. Write `test/data/<name>.test.ts` on a small fixture (test/fixtures/data); test/data/dataset-registry.test.ts
 *    already checks that every declaring file is listed and that every OOD partner is a registered name.
 */
import { describe, InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { defineRegistry, type NameOf } from '../util/registry.js';
import { didYouMean } from '../util/typo-hint.js';
import { cifar100Definition, cifar10Definition } from './datasets/cifar.js';
import type { DefaultAugmentation, LoadedSplits } from './dataset-definition.js';
import { debianPackagesDefinition } from './datasets/debian-packages.js';
import { fashionMnistDefinition } from './datasets/fashion-mnist.js';
import { kmnistDefinition } from './datasets/kmnist.js';
import { mnistSegmentationDefinition } from './datasets/mnist-seg.js';
import { mnistDefinition } from './datasets/mnist.js';
import { newsgroupsDefinition } from './datasets/newsgroups.js';
import { npyDatasetDefinition } from './datasets/npy-dataset.js';
import { stl10Definition } from './datasets/stl10.js';
import { svhnDefinition } from './datasets/svhn.js';
import { textDatasetDefinition } from './datasets/text.js';
import { tinyImageNetDefinition } from './datasets/tiny-imagenet.js';

export type { LoadedSplits } from './dataset-definition.js';

/** Every dataset's declaration, by name. */
export const DATASETS = defineRegistry('dataset', [
  mnistDefinition,
  mnistSegmentationDefinition,
  fashionMnistDefinition,
  kmnistDefinition,
  cifar10Definition,
  cifar100Definition,
  svhnDefinition,
  stl10Definition,
  tinyImageNetDefinition,
  newsgroupsDefinition,
  debianPackagesDefinition,
  npyDatasetDefinition,
  textDatasetDefinition,
]);

for (const d of DATASETS.definitions) {
  if (d.oodPartner !== null && !DATASETS.has(d.oodPartner)) throw new Error(`dataset ${d.name}: OOD partner ${d.oodPartner} is not a registered dataset`);
}

type Definitions = (typeof DATASETS.definitions)[number];

/** A dataset's name. */
export type DatasetName = NameOf<typeof DATASETS>;

/** Every dataset name, in the registry's order. */
export const DATASET_NAMES: readonly DatasetName[] = DATASETS.names;

/** Options of each dataset `loadDataset` knows (its loader's options type). */
export type DatasetOptionsByName = { [D in Definitions as D['name']]: D['load'] extends (options: infer O) => unknown ? Exclude<O, undefined> : never };

/** The option keys each dataset's loader reads. */
export const DATASET_OPTION_KEYS: { readonly [K in DatasetName]: readonly (keyof DatasetOptionsByName[K] & string)[] } = Object.freeze(
  Object.fromEntries(DATASETS.definitions.map((d) => [d.name, d.optionKeys])),
) as never;

/** The datasets whose samples are token ids (text-cnn models, embedding mixup). */
export const TEXT_DATASET_NAMES: readonly DatasetName[] = DATASET_NAMES.filter((name) => DATASETS.get('dataset', name).task === 'text');

/** Whether `name` is a text dataset (see TEXT_DATASET_NAMES). */
export const isTextDataset = (name: string): boolean => DATASETS.has(name) && DATASETS.get('dataset', name).task === 'text';

/** The datasets with per-pixel masks (`calib train` runs them with the segmentation task, train/tasks/segmentation-task.ts). */
export const SEGMENTATION_DATASET_NAMES: readonly DatasetName[] = DATASET_NAMES.filter((name) => DATASETS.get('dataset', name).task === 'segmentation');

/** Whether `name` is a segmentation dataset (see SEGMENTATION_DATASET_NAMES). */
export const isSegmentationDatasetName = (name: string): boolean => DATASETS.has(name) && DATASETS.get('dataset', name).task === 'segmentation';

/** The default second dataset for OOD AUROC of a dataset (null when there is no natural pair or `name` is unknown). */
export function defaultOodDataset(name: string): DatasetName | null {
  return DATASETS.has(name) ? (DATASETS.get('dataset', name).oodPartner as DatasetName | null) : null;
}

/** The augmentation `--augment auto` stands for on `name` ('none' for an unknown name). */
export function defaultAugmentation(name: string): DefaultAugmentation {
  return DATASETS.has(name) ? DATASETS.get('dataset', name).augmentation : 'none';
}

/** Reject option keys the loader of `name` does not read (error names `<name> options.<key>` and the known keys). */
export function checkDatasetOptions(name: DatasetName, options: unknown): void {
  const known: readonly string[] | undefined = DATASETS.has(name) ? DATASETS.get('dataset', name).optionKeys : undefined;
  if (known === undefined || options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) invalidArgument(`${name} options`, 'an object', describe(options));
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new InvalidArgumentError(`${name} options.${key}`, `one of ${known.join(', ')}${didYouMean(key, known)}`, 'an unknown option');
  }
}

/**
 * Load a dataset by name (see `DATASETS` and the README's dataset table): its train split and, where defined, its
 * test split. Unknown names (error names `argument`, default `dataset`, with the close names) and unknown option keys
 * are errors.
 */
export async function loadDataset<K extends DatasetName>(name: K, options?: DatasetOptionsByName[K], argument = 'dataset'): Promise<LoadedSplits> {
  const definition = DATASETS.get(argument, name);
  checkDatasetOptions(name, options);
  return (definition.load as (options: unknown) => Promise<LoadedSplits>)(options);
}
