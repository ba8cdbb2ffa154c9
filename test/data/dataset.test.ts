import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classCounts, compactInPlace, concatDatasets, imageDataset, subset, textDataset } from '../../src/data/dataset.js';
import { checkDatasetOptions, DATASET_NAMES, DATASET_OPTION_KEYS, loadDataset } from '../../src/data/load-dataset.js';

const toy = () => imageDataset({ name: 'toy', images: Float32Array.from({ length: 8 }, (_, j) => j), labels: Int32Array.from([0, 1, 1, 0]), shape: [1, 1, 2], classes: 2 });

test('image datasets check their sizes, labels and class names', () => {
  assert.throws(() => imageDataset({ name: 'x', images: new Float32Array(7), labels: new Int32Array(4), shape: [1, 1, 2], classes: 2 }), /images: expected 4 × 1 × 1 × 2 = 8 values/);
  assert.throws(
    () => imageDataset({ name: 'x', images: new Float32Array(8), labels: Int32Array.from([0, 0, 2, 0]), shape: [1, 1, 2], classes: 2 }),
    /labels\[2\]: expected a class index in \[0, 2\), got 2/,
  );
  assert.throws(() => imageDataset({ name: 'x', images: new Float32Array(8), labels: new Int32Array(4), shape: [1, 1, 2], classes: 2, classNames: ['a'] }), /classNames: expected 2 names/);
});

test('subset copies rows in the given order and concat restores the whole', () => {
  const ds = toy();
  const s = subset(ds, [3, 0]);
  assert.deepEqual(Array.from(s.images), [6, 7, 0, 1]);
  assert.deepEqual(Array.from(s.labels), [0, 0]);
  s.images[0] = -1;
  assert.equal(ds.images[6], 6);
  const whole = concatDatasets([subset(ds, [0, 1]), subset(ds, [2, 3])]);
  assert.deepEqual(whole.images, ds.images);
  assert.deepEqual(Array.from(classCounts(whole.labels, 2)), [2, 2]);
  assert.throws(() => subset(ds, [4]), /indices\[0\]: expected an index in \[0, 4\), got 4/);
});

test('compactInPlace keeps the same samples as subset, in the source arrays, and refuses unordered indices', () => {
  const images = Float32Array.from({ length: 6 * 3 }, (_, j) => j + 0.5);
  const labels = Int32Array.from([0, 1, 2, 0, 1, 2]);
  const make = () => imageDataset({ name: 'six', images: images.slice(), labels: labels.slice(), shape: [1, 1, 3], classes: 3 });
  for (const keep of [[0, 1, 2, 3, 4, 5], [1, 2, 4], [0, 5], [5], [0, 2, 3]]) {
    const copy = subset(make(), keep, 'kept');
    const source = make();
    const inPlace = compactInPlace(source, keep, 'kept');
    assert.deepEqual(inPlace.images, copy.images, `images of [${keep}]`);
    assert.deepEqual(inPlace.labels, copy.labels, `labels of [${keep}]`);
    assert.equal(inPlace.name, 'kept');
    assert.equal(inPlace.images.buffer, source.images.buffer, 'no new sample memory');
    assert.equal(inPlace.labels.buffer, source.labels.buffer);
  }
  const text = textDataset({
    name: 't',
    tokens: Int32Array.from([2, 3, 4, 5, 6, 7]),
    labels: Int32Array.from([0, 1, 0]),
    shape: [2],
    classes: 2,
    vocabulary: ['<pad>', '<unk>', 'a', 'b', 'c', 'd', 'e', 'f'],
  });
  const kept = compactInPlace(text, [0, 2]);
  assert.deepEqual(Array.from(kept.tokens), [2, 3, 6, 7]);
  assert.deepEqual(Array.from(kept.labels), [0, 0]);
  assert.throws(() => compactInPlace(make(), [2, 1]), /indices\[1\]: expected an index above indices\[0\] = 2 \(strictly increasing\), got 1/);
  assert.throws(() => compactInPlace(make(), [1, 1]), /strictly increasing/);
  assert.throws(() => compactInPlace(make(), [6]), /indices\[0\]: expected an index in \[0, 6\), got 6/);
});

test('loadDataset dispatches by name and refuses unknown names', async () => {
  // The built-in datasets stay listed (a new dataset file adds to the list without editing this test).
  for (const name of ['mnist', 'mnist-seg', 'fashion-mnist', 'cifar10', 'cifar100', 'svhn', 'stl10', 'tiny-imagenet', 'newsgroups', 'debian-packages', 'npy', 'text'])
    assert.ok(DATASET_NAMES.includes(name as never), name);
  assert.equal(new Set(DATASET_NAMES).size, DATASET_NAMES.length, 'names are unique');
  const { train, test: testSet } = await loadDataset('mnist', { testSize: 1000 });
  assert.equal(train.labels.length, 9000);
  assert.equal(testSet?.labels.length, 1000);
  await assert.rejects(loadDataset('imagenet' as 'mnist'), /^InvalidArgumentError: dataset: expected one of mnist, mnist-seg, fashion-mnist/);
  await assert.rejects(loadDataset('npy'), /options: expected \{ images, labels \} paths/);
});

test('loadDataset refuses option keys its loader does not read, naming the dataset and the known keys', async () => {
  await assert.rejects(
    loadDataset('fashion-mnist', { dirctory: '/x' } as never),
    /fashion-mnist options\.dirctory: expected one of directory, download, cacheDirectory, baseUrl, md5 \(did you mean directory\?\), got an unknown option/,
  );
  await assert.rejects(loadDataset('cifar10', { labels: 'fine' } as never), /cifar10 options\.labels: expected one of path, download/);
  assert.throws(() => checkDatasetOptions('mnist', 'testSize=10'), /mnist options: expected an object, got/);
  for (const name of DATASET_NAMES) assert.ok(DATASET_OPTION_KEYS[name].length > 0, name);
  checkDatasetOptions('cifar100', { labels: 'coarse', path: '/x' });
});

test('every option a loader reads passes the key check (md5 of a download mirror included)', () => {
  checkDatasetOptions('fashion-mnist', { baseUrl: 'https://mirror.example/', md5: { 'train-images-idx3-ubyte.gz': '0' } });
  checkDatasetOptions('cifar10', { baseUrl: 'https://mirror.example/', md5: '0' });
  checkDatasetOptions('cifar100', { baseUrl: 'https://mirror.example/', md5: '0', labels: 'fine' });
  checkDatasetOptions('svhn', { baseUrl: 'https://mirror.example/', md5: { 'train_32x32.mat': '0' } });
  // A name that is not a dataset (e.g. an Object.prototype key from JavaScript) is left to loadDataset's own check.
  checkDatasetOptions('toString' as never, { x: 1 });
});
