import { describe, InvalidArgumentError, invalidArgument } from '../util/errors.js';
import { loadCifar10, loadCifar100, type Cifar100Options, type CifarOptions } from './cifar.js';
import type { DatasetSplits } from './dataset.js';
import { loadFashionMnist, type FashionMnistOptions } from './fashion-mnist.js';
import { loadMnist, type MnistOptions } from './mnist.js';
import { loadMnistSegmentation } from './mnist-seg.js';
import { loadNpyDataset, type NpyDatasetOptions } from './npy-dataset.js';
import { loadStl10, type Stl10Options } from './stl10.js';
import { loadSvhn, type SvhnOptions } from './svhn.js';
import { loadTextDataset, type TextDatasetOptions } from './text.js';
import { loadTinyImageNet, type TinyImageNetOptions } from './tiny-imagenet.js';
import { loadNewsgroups, type NewsgroupsOptions } from './newsgroups.js';
import { loadDebianPackages, type DebianPackagesOptions } from './debian-packages.js';

/** Options of each dataset `loadDataset` knows. */
export interface DatasetOptionsByName {
  mnist: MnistOptions;
  'mnist-seg': MnistOptions;
  'fashion-mnist': FashionMnistOptions;
  cifar10: CifarOptions;
  cifar100: Cifar100Options;
  svhn: SvhnOptions;
  stl10: Stl10Options;
  'tiny-imagenet': TinyImageNetOptions;
  newsgroups: NewsgroupsOptions;
  'debian-packages': DebianPackagesOptions;
  npy: NpyDatasetOptions;
  text: TextDatasetOptions;
}

export type DatasetName = keyof DatasetOptionsByName;

export const DATASET_NAMES: readonly DatasetName[] = ['mnist', 'mnist-seg', 'fashion-mnist', 'cifar10', 'cifar100', 'svhn', 'stl10', 'tiny-imagenet', 'newsgroups', 'debian-packages', 'npy', 'text'];

/**
 * What `loadDataset` returns: the splits and, for sets that change over time (debian-packages: the list files, their
 * Release date, package counts), where the data came from; runs copy `source` into summary.json's data.source.
 */
export type LoadedSplits = DatasetSplits & { readonly source?: Readonly<Record<string, string | number>> };

/** The datasets whose samples are token ids (text-cnn models, embedding mixup). */
export const TEXT_DATASET_NAMES: readonly DatasetName[] = ['text', 'newsgroups', 'debian-packages'];

/** Whether `name` is a text dataset (see TEXT_DATASET_NAMES). */
export const isTextDataset = (name: string): boolean => (TEXT_DATASET_NAMES as readonly string[]).includes(name);

/** The option keys each dataset's loader reads; any other key is a typo and fails loudly (`checkDatasetOptions`). */
const OPTION_KEYS = {
  mnist: ['testSize', 'seed', 'directory'],
  'mnist-seg': ['testSize', 'seed', 'directory'],
  'fashion-mnist': ['directory', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  cifar10: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  cifar100: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5', 'labels'],
  svhn: ['directory', 'extra', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  stl10: ['path', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  'tiny-imagenet': ['path', 'perClass', 'cacheDirectory'],
  newsgroups: ['path', 'stripHeaders', 'download', 'cacheDirectory', 'baseUrl', 'md5', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
  'debian-packages': ['listsDirectory', 'sections', 'minTokens', 'testFraction', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
  npy: ['images', 'labels', 'testImages', 'testLabels', 'layout', 'classes', 'classNames', 'name'],
  text: ['train', 'test', 'format', 'delimiter', 'textField', 'labelField', 'maxLength', 'minFrequency', 'maxVocabulary', 'name'],
} as const;

/** Option keys of a loader's options type missing from its list (a missing key would refuse a valid option). */
type UnlistedOptionKey = { [K in DatasetName]: Exclude<keyof DatasetOptionsByName[K] & string, (typeof OPTION_KEYS)[K][number]> }[DatasetName];
/** Compile-time completeness check of OPTION_KEYS: fails to compile naming any unlisted key. */
const everyOptionKeyListed: [UnlistedOptionKey] extends [never] ? true : UnlistedOptionKey = true;
void everyOptionKeyListed;

export const DATASET_OPTION_KEYS: { readonly [K in DatasetName]: readonly (keyof DatasetOptionsByName[K] & string)[] } = OPTION_KEYS;

/** Reject option keys the loader of `name` does not read (error names `<name> options.<key>` and the known keys). */
export function checkDatasetOptions(name: DatasetName, options: unknown): void {
  const known: readonly string[] | undefined = Object.hasOwn(DATASET_OPTION_KEYS, name) ? DATASET_OPTION_KEYS[name] : undefined;
  if (known === undefined || options === undefined || options === null) return;
  if (typeof options !== 'object' || Array.isArray(options)) invalidArgument(`${name} options`, 'an object', describe(options));
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw new InvalidArgumentError(`${name} options.${key}`, `one of ${known.join(', ')}`, 'an unknown option');
  }
}

/**
 * Load a dataset by name: mnist (embedded, no files needed), mnist-seg (the same digits with per-pixel masks, mnist-seg.ts), fashion-mnist, cifar10, cifar100, svhn, stl10, tiny-imagenet (the extracted
 * tiny-imagenet-200 folder), newsgroups (20 Newsgroups bydate), debian-packages (package descriptions by Section,
 * from apt's lists), npy (needs
 * images/labels paths), text (needs a train path). Unknown option keys are errors. Returns its train split and, where defined, its test split.
 */
export async function loadDataset<K extends DatasetName>(name: K, options?: DatasetOptionsByName[K]): Promise<LoadedSplits> {
  checkDatasetOptions(name, options);
  switch (name) {
    case 'mnist':
      return loadMnist((options ?? {}) as MnistOptions);
    case 'mnist-seg':
      return loadMnistSegmentation((options ?? {}) as MnistOptions);
    case 'fashion-mnist':
      return loadFashionMnist((options ?? {}) as FashionMnistOptions);
    case 'cifar10':
      return loadCifar10((options ?? {}) as CifarOptions);
    case 'cifar100':
      return loadCifar100((options ?? {}) as Cifar100Options);
    case 'svhn':
      return loadSvhn((options ?? {}) as SvhnOptions);
    case 'stl10':
      return loadStl10((options ?? {}) as Stl10Options);
    case 'tiny-imagenet':
      return loadTinyImageNet((options ?? {}) as TinyImageNetOptions);
    case 'newsgroups': {
      const { train, test } = await loadNewsgroups((options ?? {}) as NewsgroupsOptions);
      return { train, test };
    }
    case 'debian-packages': {
      const { train, test, source } = await loadDebianPackages((options ?? {}) as DebianPackagesOptions);
      return { train, test, source };
    }
    case 'npy':
      if (options === undefined) invalidArgument('options', '{ images, labels } paths for the npy dataset', 'undefined');
      return loadNpyDataset(options as NpyDatasetOptions);
    case 'text': {
      if (options === undefined) invalidArgument('options', '{ train } path for the text dataset', 'undefined');
      const { train, test } = await loadTextDataset(options as TextDatasetOptions);
      return test === undefined ? { train } : { train, test };
    }
    default:
      return invalidArgument('name', `one of ${DATASET_NAMES.join(', ')}`, describe(name));
  }
}

/** The datasets with per-pixel masks (`calib train` runs them through the segmentation path, train/segmentation-run.ts). */
export const SEGMENTATION_DATASET_NAMES: readonly DatasetName[] = ['mnist-seg'];

/** Whether `name` is a segmentation dataset (see SEGMENTATION_DATASET_NAMES). */
export const isSegmentationDatasetName = (name: string): boolean => (SEGMENTATION_DATASET_NAMES as readonly string[]).includes(name);
