import { DatasetNotFoundError } from '../dataset-not-found.js';
import { join } from 'node:path';
import { cacheRoot } from '../download.js';
import type { DatasetSplits, ImageDataset } from '../dataset.js';
import { downloadIdxFiles, IDX_SPLIT_FILES, idxSplitSizes, missingIdxFiles, readIdxSplits } from '../formats/idx-directory.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Fashion-MNIST (Xiao, Rasul & Vollgraf 2017): 60,000 training and 10,000 test grayscale 28×28 images of
 * 10 clothing classes, in the IDX format of MNIST. Shape [1, 28, 28], values byte/255.
 */
export const FASHION_MNIST_CLASS_NAMES: readonly string[] = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot'];

/** The four official files (each may also be present uncompressed, without ".gz"): MNIST's names. */
export const FASHION_MNIST_FILES = IDX_SPLIT_FILES;

/** MD5 of the official .gz files (as published by Zalando Research and used by torchvision). */
export const FASHION_MNIST_MD5: Readonly<Record<string, string>> = {
  'train-images-idx3-ubyte.gz': '8d4fb7e6c68d591d4c3dfef9ec88bf0d',
  'train-labels-idx1-ubyte.gz': '25c81989df183df01b3e8a0aad5dffbe',
  't10k-images-idx3-ubyte.gz': 'bef4ecab320f06d8554ea6380940ec79',
  't10k-labels-idx1-ubyte.gz': 'bb300cfdad3c16e7a12a480ee83cd310',
};

/** The official files over https (Zalando Research's repository). */
export const FASHION_MNIST_URL = 'https://raw.githubusercontent.com/zalandoresearch/fashion-mnist/master/data/fashion/';

/** Where Debian's package dataset-fashion-mnist installs the files. */
export const DEBIAN_FASHION_MNIST_DIRECTORY = '/usr/share/datasets/fashion-mnist';

/** Options of `loadFashionMnist`. */
export interface FashionMnistOptions {
  /** Directory holding the four files; when given, only it is searched. */
  directory?: string;
  /** Download the files into the cache when they are not found (default false). */
  download?: boolean;
  /** Cache directory for downloads (default <cacheRoot()>/fashion-mnist). */
  cacheDirectory?: string;
  /** Base URL of the four files (default FASHION_MNIST_URL). */
  baseUrl?: string;
  /** Expected MD5 per file name; default FASHION_MNIST_MD5 for the official URL, none for another base URL. */
  md5?: Readonly<Record<string, string>>;
}

async function hasAll(directory: string): Promise<boolean> {
  return (await missingIdxFiles(directory)).length === 0;
}

/** Download the four files into `cacheDirectory` (skipping those present); returns the directory. */
export async function downloadFashionMnist(options: Pick<FashionMnistOptions, 'cacheDirectory' | 'baseUrl' | 'md5'> = {}): Promise<string> {
  const directory = options.cacheDirectory ?? join(cacheRoot(), 'fashion-mnist');
  const base = options.baseUrl ?? FASHION_MNIST_URL;
  await downloadIdxFiles(directory, base, options.md5 ?? (base === FASHION_MNIST_URL ? FASHION_MNIST_MD5 : {}), await missingIdxFiles(directory));
  return directory;
}

/**
 * The sizes of Fashion-MNIST's train and test splits from its two label files alone (a few kB each, instead of the
 * 47 MB of images), searched for as `loadFashionMnist` does; null when the files are not there (yet).
 */
export async function fashionMnistSizes(options: FashionMnistOptions = {}): Promise<{ train: number; test: number } | null> {
  const cache = options.directory ?? options.cacheDirectory ?? join(cacheRoot(), 'fashion-mnist');
  for (const c of options.directory !== undefined ? [options.directory] : [DEBIAN_FASHION_MNIST_DIRECTORY, cache]) {
    const sizes = await idxSplitSizes(c);
    if (sizes) return sizes;
  }
  return null;
}

/**
 * Load Fashion-MNIST. Search order: `directory` if given; else Debian's /usr/share/datasets/fashion-mnist, then
 * the cache directory; if none holds the four files and `download` is set, fetch them into `directory` if given,
 * else into the cache.
 */
export async function loadFashionMnist(options: FashionMnistOptions = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const cache = options.directory ?? options.cacheDirectory ?? join(cacheRoot(), 'fashion-mnist');
  const candidates = options.directory !== undefined ? [options.directory] : [DEBIAN_FASHION_MNIST_DIRECTORY, cache];
  let directory: string | undefined;
  for (const c of candidates) {
    if (await hasAll(c)) {
      directory = c;
      break;
    }
  }
  if (directory === undefined) {
    if (!options.download) {
      throw new DatasetNotFoundError(
        'fashion-mnist',
        `fashion-mnist: the files ${Object.values(FASHION_MNIST_FILES).join(', ')} (gzipped or not) were not found in ${candidates.join(' or ')}. ` +
          `Install Debian's package (apt-get install dataset-fashion-mnist), put the four files from ${FASHION_MNIST_URL} in a directory ` +
          `and pass it as the directory option, or pass download: true (on the command line: --data-opt download=true) to fetch them into ${cache}.`,
      );
    }
    directory = await downloadFashionMnist({ ...options, cacheDirectory: cache });
  }
  return readIdxSplits(directory, 'fashion-mnist', FASHION_MNIST_CLASS_NAMES);
}

/** The `fashion-mnist` dataset's declaration (load-dataset.ts lists it). */
export const fashionMnistDefinition = defineDataset({
  name: 'fashion-mnist',
  summary: 'Fashion-MNIST (Xiao et al. 2017): 28×28 clothing images, from a directory of IDX files or downloaded',
  task: 'image',
  optionKeys: ['directory', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  load: (options: FashionMnistOptions | undefined) => loadFashionMnist(options ?? {}),
  augmentation: 'none',
  oodPartner: 'mnist',
  sizes: (options: FashionMnistOptions | undefined) => fashionMnistSizes(options ?? {}),
});
