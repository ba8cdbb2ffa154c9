import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DATASETS,
  DATASET_NAMES,
  defaultAugmentation,
  defaultOodDataset,
  isSegmentationDatasetName,
  isTextDataset,
  loadDataset,
  SEGMENTATION_DATASET_NAMES,
  TEXT_DATASET_NAMES,
} from '../../src/data/load-dataset.js';
import { declaredNames } from '../util/declared-names.js';

test('every file of src/data that declares a dataset is in the DATASETS registry', () => {
  assert.deepEqual([...DATASET_NAMES].sort(), declaredNames(new URL('../../../src/data/', import.meta.url), 'defineDataset'));
});

test('the record holds what was spread over four files: task, default augmentation and OOD partner (behaviour unchanged)', () => {
  assert.deepEqual(TEXT_DATASET_NAMES, ['newsgroups', 'debian-packages', 'text']);
  assert.deepEqual(SEGMENTATION_DATASET_NAMES, ['mnist-seg']);
  assert.equal(isTextDataset('newsgroups'), true);
  assert.equal(isTextDataset('nonsense'), false);
  assert.equal(isSegmentationDatasetName('mnist-seg'), true);
  const auto = Object.fromEntries(DATASET_NAMES.map((n) => [n, defaultAugmentation(n)]));
  assert.deepEqual(
    Object.entries(auto).filter(([, a]) => a !== 'none'),
    [
      ['cifar10', 'crop-flip'],
      ['cifar100', 'crop-flip'],
      ['svhn', 'crop'],
    ],
  );
  const pairs = Object.fromEntries(DATASET_NAMES.map((n) => [n, defaultOodDataset(n)]).filter(([, p]) => p !== null));
  // The built-in pairs stay (a new dataset's own partner needs no edit here: the loop below checks every partner).
  for (const [name, partner] of Object.entries({ mnist: 'fashion-mnist', 'fashion-mnist': 'mnist', cifar10: 'svhn', cifar100: 'svhn', svhn: 'cifar10' })) assert.equal(pairs[name], partner, name);
  for (const name of ['mnist-seg', 'stl10', 'tiny-imagenet', 'newsgroups', 'debian-packages', 'npy', 'text']) assert.equal(pairs[name], undefined, `${name} has no default OOD partner`);
  for (const d of DATASETS.definitions) {
    if (d.oodPartner === null) continue;
    assert.equal(DATASETS.get('partner', d.oodPartner).task, 'image', `${d.name}'s OOD partner is an image dataset`);
  }
});

test('loadDataset refuses an unknown name naming the argument and the closest name', async () => {
  await assert.rejects(loadDataset('fashion-mnsit' as never), /^InvalidArgumentError: dataset: expected one of mnist, .* \(did you mean fashion-mnist\?\), got "fashion-mnsit"$/);
  await assert.rejects(loadDataset('svnh' as never, undefined, 'config.oodDataset'), /^InvalidArgumentError: config\.oodDataset: .*did you mean svhn\?/);
  await assert.rejects(loadDataset('mnist', { testSise: 10 } as never), /mnist options\.testSise: expected one of testSize, seed, directory \(did you mean testSize\?\)/);
});
