import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageDataset, type ImageDataset } from '../../src/data/dataset.js';
import type { LoadedSplits } from '../../src/data/dataset-definition.js';
import { resolveTrainConfig, type TrainConfig } from '../../src/train/train-config.js';
import { runSplits, type RunData } from '../../src/train/run/trainer-data.js';

/** A 3-class image set of `n` 2×2 images whose pixels encode the image's index (so every row is distinct). */
function images(name: string, n: number, offset: number): ImageDataset {
  return imageDataset({
    name,
    images: Float32Array.from({ length: n * 4 }, (_, j) => offset + Math.floor(j / 4) + (j % 4) / 8),
    labels: Int32Array.from({ length: n }, (_, i) => (i * 7) % 3),
    shape: [1, 2, 2],
    classes: 3,
  });
}
const loaded = (withTest: boolean): LoadedSplits => ({ train: images('toy/train', 300, 0), ...(withTest ? { test: images('toy/test', 90, 1000) } : {}) });
const config = (extra: Record<string, unknown>): TrainConfig => resolveTrainConfig({ dataset: 'mnist', validation: 30, out: '-', ...extra });

function same(a: RunData, b: RunData, what: string): void {
  for (const part of ['train', 'validation', 'test', 'heldOut'] as const) {
    const x = a[part] as ImageDataset | undefined;
    const y = b[part] as ImageDataset | undefined;
    assert.equal(x === undefined, y === undefined, `${what}: ${part} present in one only`);
    if (!x || !y) continue;
    assert.deepEqual(y.images, x.images, `${what}: ${part} images`);
    assert.deepEqual(y.labels, x.labels, `${what}: ${part} labels`);
    assert.equal(y.name, x.name, `${what}: ${part} name`);
  }
}

test('owned splits (each rest compacted in the loaded arrays) hold the same samples as copied splits', () => {
  const cases: [string, boolean, Record<string, unknown>][] = [
    ['plain', true, {}],
    ['fraction', true, { validation: 0.2 }],
    ['subset', true, { subset: 120 }],
    ['subset of every sample', true, { subset: 300 }],
    ['interleaved', true, { interleaved: 0.25, secondary: 'mmce' }],
    ['test subset', true, { testSubset: 40 }],
    ['no test split (20 % held out)', false, { subset: 200, testSubset: 30 }],
  ];
  for (const [what, withTest, extra] of cases) {
    const c = config(extra);
    const copied = runSplits(loaded(withTest), c);
    const source = loaded(withTest);
    const trainBefore = (source.train as ImageDataset).images.slice();
    const owned = runSplits(source, c, { owned: true });
    same(copied, owned, what);
    if (extra['subset'] === undefined && withTest) {
      assert.equal((owned.train as ImageDataset).images.buffer, (source.train as ImageDataset).images.buffer, `${what}: the rest lives in the loaded array`);
      assert.notDeepEqual((source.train as ImageDataset).images, trainBefore, `${what}: the loaded array was consumed`);
    }
  }
});

test('copied splits leave the loaded splits untouched', () => {
  const source = loaded(true);
  const before = { images: source.train.kind === 'image' ? source.train.images.slice() : null, labels: source.train.labels.slice() };
  runSplits(source, config({ interleaved: 0.25, secondary: 'mmce' }));
  assert.deepEqual((source.train as ImageDataset).images, before.images);
  assert.deepEqual(source.train.labels, before.labels);
});
