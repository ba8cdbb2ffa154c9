import { join } from 'node:path';
import { DatasetNotFoundError } from '../dataset-not-found.js';
import { cacheRoot } from '../download.js';
import type { DatasetSplits, ImageDataset } from '../dataset.js';
import { downloadIdxFiles, IDX_SPLIT_FILES, idxSplitSizes, missingIdxFiles, readIdxSplits } from '../formats/idx-directory.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * Kuzushiji-MNIST (Clanuwat et al. 2018, "Deep Learning for Classical Japanese Literature", arXiv:1812.01718):
 * 60,000 training and 10,000 test grayscale 28×28 images of 10 cursive Hiragana characters, in the IDX format of
 * MNIST (a drop-in replacement for it). Shape [1, 28, 28], values byte/255.
 */
export const KMNIST_CLASS_NAMES: readonly string[] = ['o', 'ki', 'su', 'tsu', 'na', 'ha', 'ma', 'ya', 're', 'wo'];

/** The four official files (each may also be present uncompressed, without ".gz"): MNIST's names. */
export const KMNIST_FILES = IDX_SPLIT_FILES;

/** MD5 of the official .gz files, as torchvision's `datasets.KMNIST.resources` lists them (github.com/pytorch/vision). */
export const KMNIST_MD5: Readonly<Record<string, string>> = {
  'train-images-idx3-ubyte.gz': 'bdb82020997e1d708af4cf47b453dcf7',
  'train-labels-idx1-ubyte.gz': 'e144d726b3acfaa3e44228e80efcd344',
  't10k-images-idx3-ubyte.gz': '5c965bf0a639b31b8f53240b1b52f4d7',
  't10k-labels-idx1-ubyte.gz': '7320c461ea6c1c855c0b718fb2a4b134',
};

/** The official files (ROIS-DS Center for Open Data in the Humanities; github.com/rois-codh/kmnist links them). */
export const KMNIST_URL = 'https://codh.rois.ac.jp/kmnist/dataset/kmnist/';

/** Options of `loadKmnist`. */
export interface KmnistOptions {
  /** Directory holding the four files; when given, only it is searched (and downloads go there). */
  directory?: string;
  /** Download the files when they are not found (default false). */
  download?: boolean;
  /** Cache directory for downloads when no `directory` is given (default <cacheRoot()>/kmnist). */
  cacheDirectory?: string;
  /** Base URL of the four files (default KMNIST_URL). */
  baseUrl?: string;
  /** Expected MD5 per file name; default KMNIST_MD5 for the official URL, none for another base URL. */
  md5?: Readonly<Record<string, string>>;
}

/**
 * Load KMNIST from `directory`, else from the cache directory; when the four files are in neither and `download` is
 * set, fetch them (MD5-checked) into `directory` if given, else into the cache.
 */
export async function loadKmnist(options: KmnistOptions = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const directory = options.directory ?? options.cacheDirectory ?? join(cacheRoot(), 'kmnist');
  const missing = await missingIdxFiles(directory);
  if (missing.length > 0 && !options.download) {
    throw new DatasetNotFoundError(
      'kmnist',
      `kmnist: ${missing.join(', ')} (gzipped or not) not found in ${directory}. Put the four files from ${KMNIST_URL} in a directory ` +
        `and pass it as the directory option (on the command line: --data-opt directory=DIR), or pass download: true (--data-opt download=true).`,
    );
  }
  const base = options.baseUrl ?? KMNIST_URL;
  await downloadIdxFiles(directory, base, options.md5 ?? (base === KMNIST_URL ? KMNIST_MD5 : {}), missing);
  return readIdxSplits(directory, 'kmnist', KMNIST_CLASS_NAMES);
}

/**
 * The `kmnist` dataset's declaration (load-dataset.ts lists it). Its OOD partner is `mnist`: the same 28×28
 * grayscale format and ten classes but a different script (digits, not Hiragana), so a KMNIST model's AUROC against
 * it measures content shift alone, and mnist is embedded (no files needed). No augmentation, as for the other 28×28 sets.
 */
export const kmnistDefinition = defineDataset({
  name: 'kmnist',
  summary: 'Kuzushiji-MNIST (Clanuwat et al. 2018): 28×28 cursive Hiragana, 10 classes, 60,000 / 10,000, from a directory of IDX files or downloaded',
  task: 'image',
  optionKeys: ['directory', 'download', 'cacheDirectory', 'baseUrl', 'md5'],
  load: (options: KmnistOptions | undefined) => loadKmnist(options ?? {}),
  augmentation: 'none',
  oodPartner: 'mnist',
  sizes: (options: KmnistOptions | undefined) => idxSplitSizes(options?.directory ?? options?.cacheDirectory ?? join(cacheRoot(), 'kmnist')),
});
