import { describe, invalidArgument } from '../util/errors.js';
import { loadCifar10, loadCifar100, type Cifar100Options, type CifarOptions } from './cifar.js';
import type { DatasetSplits } from './dataset.js';
import { loadFashionMnist, type FashionMnistOptions } from './fashion-mnist.js';
import { loadMnist, type MnistOptions } from './mnist.js';
import { loadNpyDataset, type NpyDatasetOptions } from './npy-dataset.js';
import { loadSvhn, type SvhnOptions } from './svhn.js';
import { loadTextDataset, type TextDatasetOptions } from './text.js';

/** Options of each dataset `loadDataset` knows. */
export interface DatasetOptionsByName {
  mnist: MnistOptions;
  'fashion-mnist': FashionMnistOptions;
  cifar10: CifarOptions;
  cifar100: Cifar100Options;
  svhn: SvhnOptions;
  npy: NpyDatasetOptions;
  text: TextDatasetOptions;
}

export type DatasetName = keyof DatasetOptionsByName;

export const DATASET_NAMES: readonly DatasetName[] = ['mnist', 'fashion-mnist', 'cifar10', 'cifar100', 'svhn', 'npy', 'text'];

/**
 * Load a dataset by name: mnist (embedded, no files needed), fashion-mnist, cifar10, cifar100, svhn, npy (needs
 * images/labels paths), text (needs a train path). Returns its train split and, where defined, its test split.
 */
export async function loadDataset<K extends DatasetName>(name: K, options?: DatasetOptionsByName[K]): Promise<DatasetSplits> {
  switch (name) {
    case 'mnist':
      return loadMnist((options ?? {}) as MnistOptions);
    case 'fashion-mnist':
      return loadFashionMnist((options ?? {}) as FashionMnistOptions);
    case 'cifar10':
      return loadCifar10((options ?? {}) as CifarOptions);
    case 'cifar100':
      return loadCifar100((options ?? {}) as Cifar100Options);
    case 'svhn':
      return loadSvhn((options ?? {}) as SvhnOptions);
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
