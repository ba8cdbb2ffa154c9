import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { datasetSizes } from '../../src/data/dataset-sizes.js';
import { encodeIdx } from '../../src/data/formats/idx.js';
import { IDX_SPLIT_FILES } from '../../src/data/formats/idx-directory.js';
import { DATASETS } from '../../src/data/load-dataset.js';
import { withTempDir } from './helpers.js';

/** The four MNIST-layout files with n train / m test images; the image files hold one byte per image only (the sizes read the labels alone). */
async function writeIdxDirectory(dir: string, n: number, m: number, withImages = true): Promise<void> {
  const labels = (count: number) => gzipSync(encodeIdx({ type: 'uint8', dims: [count], data: new Uint8Array(count) }));
  const images = (count: number) => gzipSync(encodeIdx({ type: 'uint8', dims: [count, 1, 1], data: new Uint8Array(count) }));
  await writeFile(join(dir, IDX_SPLIT_FILES.trainLabels), labels(n));
  await writeFile(join(dir, IDX_SPLIT_FILES.testLabels), labels(m));
  if (withImages) {
    await writeFile(join(dir, IDX_SPLIT_FILES.trainImages), images(n));
    await writeFile(join(dir, IDX_SPLIT_FILES.testImages), images(m));
  }
}

test('the embedded MNIST (and mnist-seg) answer from the package size and testSize, without loading', async () => {
  assert.deepEqual(await datasetSizes('mnist', {}), { train: 8000, test: 2000 });
  assert.deepEqual(await datasetSizes('mnist', { testSize: 1500 }), { train: 8500, test: 1500 });
  assert.deepEqual(await datasetSizes('mnist-seg', { testSize: 1000 }), { train: 9000, test: 1000 });
});

test('fashion-mnist and kmnist answer from the label files of a directory (their declarations carry `sizes`)', async () => {
  await withTempDir(async (dir) => {
    await writeIdxDirectory(dir, 37, 11);
    assert.deepEqual(await datasetSizes('fashion-mnist', { directory: dir }), { train: 37, test: 11 });
    assert.deepEqual(await datasetSizes('kmnist', { directory: dir }), { train: 37, test: 11 });
  });
});

test('without the files, the sizes are unknown and the dataset is loaded, which names what is missing', async () => {
  await withTempDir(async (dir) => {
    await writeIdxDirectory(dir, 5, 3, false);
    assert.equal(await DATASETS.get('dataset', 'kmnist').sizes!({ directory: dir }), null);
    await assert.rejects(datasetSizes('kmnist', { directory: dir }), /kmnist: train-images-idx3-ubyte\.gz, t10k-images-idx3-ubyte\.gz \(gzipped or not\) not found/);
  });
});
