import { join } from 'node:path';
import { pathExists } from '../../util/path-exists.js';
import type { DatasetSplits, ImageDataset } from '../dataset.js';
import { downloadFile } from '../download.js';
import { idxImageDataset, readIdx } from './idx.js';

/**
 * A directory of the four MNIST-layout IDX files (LeCun et al.'s MNIST file names, used unchanged by Fashion-MNIST
 * and KMNIST): train/test images and labels, each gzipped or not.
 */
export const IDX_SPLIT_FILES = {
  trainImages: 'train-images-idx3-ubyte.gz',
  trainLabels: 'train-labels-idx1-ubyte.gz',
  testImages: 't10k-images-idx3-ubyte.gz',
  testLabels: 't10k-labels-idx1-ubyte.gz',
} as const;

/** The path of `file` (or its uncompressed twin, without ".gz") in `directory`, or undefined. */
export async function findIdxFile(directory: string, file: string): Promise<string | undefined> {
  for (const candidate of [file, file.replace(/\.gz$/, '')]) {
    const path = join(directory, candidate);
    if (await pathExists(path)) return path;
  }
  return undefined;
}

/** The four files that `directory` lacks (gzipped or not); empty when it holds them all. */
export async function missingIdxFiles(directory: string): Promise<string[]> {
  const missing: string[] = [];
  for (const file of Object.values(IDX_SPLIT_FILES)) if ((await findIdxFile(directory, file)) === undefined) missing.push(file);
  return missing;
}

/** Download `files` from `baseUrl` into `directory`, each checked against `md5[file]` when it is listed. */
export async function downloadIdxFiles(directory: string, baseUrl: string, md5: Readonly<Record<string, string>>, files: readonly string[]): Promise<void> {
  for (const file of files) {
    const expected = md5[file];
    await downloadFile(new URL(file, baseUrl.endsWith('/') ? baseUrl : baseUrl + '/').href, join(directory, file), expected ? { md5: expected } : {});
  }
}

/** The train and test splits of a directory holding the four files (see `missingIdxFiles`), named `<name>/train|test`. */
export async function readIdxSplits(directory: string, name: string, classNames: readonly string[]): Promise<Required<DatasetSplits<ImageDataset>>> {
  const read = async (file: string) => readIdx((await findIdxFile(directory, file))!);
  const fields = { classes: classNames.length, classNames };
  const train = idxImageDataset(await read(IDX_SPLIT_FILES.trainImages), await read(IDX_SPLIT_FILES.trainLabels), { name: `${name}/train`, ...fields });
  const test = idxImageDataset(await read(IDX_SPLIT_FILES.testImages), await read(IDX_SPLIT_FILES.testLabels), { name: `${name}/test`, ...fields });
  return { train, test };
}

/** The train / test sizes of a directory holding the four files, from the two label files alone (a few kB); null when a file is missing. */
export async function idxSplitSizes(directory: string): Promise<{ train: number; test: number } | null> {
  if ((await missingIdxFiles(directory)).length > 0) return null;
  const count = async (file: string): Promise<number> => (await readIdx((await findIdxFile(directory, file))!)).data.length;
  return { train: await count(IDX_SPLIT_FILES.trainLabels), test: await count(IDX_SPLIT_FILES.testLabels) };
}
