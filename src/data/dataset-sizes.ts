/**
 * How many samples a dataset's train and test splits hold, found as cheaply as each dataset allows, so settings such
 * as `subset` can be checked against the data before anything trains (a suite checks every run first): a dataset
 * whose declaration has `sizes` answers from it (the embedded MNIST from its known size and `testSize`, the IDX
 * sets from their label files' headers); any other dataset is loaded once (what its first run would do anyway).
 * `test` is null for a dataset without a test split (a run then holds 20 % of train out as test: trainer-data.ts).
 */
import { datasetSize } from './dataset.js';
import { DATASETS, loadDataset, type DatasetName } from './load-dataset.js';

export interface DatasetSizes {
  readonly train: number;
  readonly test: number | null;
}

export async function datasetSizes(name: DatasetName, options: Readonly<Record<string, unknown>>): Promise<DatasetSizes> {
  const sizes = await DATASETS.get('dataset', name).sizes?.(options as never);
  if (sizes) return sizes;
  const splits = await loadDataset(name, options as never);
  return { train: datasetSize(splits.train), test: splits.test ? datasetSize(splits.test) : null };
}
