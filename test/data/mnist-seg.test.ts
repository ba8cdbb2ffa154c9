import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageDataset } from '../../src/data/dataset.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { digitMask, isSegmentationDataset, segmentationSubset, withDigitMasks } from '../../src/data/datasets/mnist-seg.js';

test('digitMask: background below 0.1, digit + 1 from 0.5, 255 (ignored) in between, on a hand-made 3×3 image', () => {
  const pixels = [0, 0.05, 0.0999, 0.1, 0.3, 0.4999, 0.5, 0.8, 1];
  assert.deepEqual(Array.from(digitMask(pixels, 7)), [0, 0, 0, 255, 255, 255, 8, 8, 8]);
  assert.deepEqual(Array.from(digitMask([0, 1], 0)), [0, 1]);
  assert.throws(() => digitMask([0], 10), /digit/);
  assert.throws(() => digitMask([0, 1], 3, new Int32Array(3)), /out: expected 2 values/);
});

test('withDigitMasks and segmentationSubset keep images, labels and masks aligned', () => {
  const d = imageDataset({ name: 't', images: Float32Array.from([0, 0.6, 0.2, 1, 0.9, 0, 0.05, 0.5]), labels: Int32Array.from([2, 5]), shape: [1, 2, 2], classes: 10 });
  const s = withDigitMasks(d);
  assert.ok(isSegmentationDataset(s));
  assert.deepEqual(Array.from(s.masks), [0, 3, 255, 3, 6, 0, 0, 6]);
  assert.equal(s.maskClasses, 11);
  const sub = segmentationSubset(s, [1]);
  assert.deepEqual(Array.from(sub.masks), [6, 0, 0, 6]);
  assert.deepEqual(Array.from(sub.labels), [5]);
  assert.deepEqual(Array.from(sub.images), [0.9, 0, 0.05, 0.5].map(Math.fround));
});

test("loadDataset('mnist-seg'): the embedded digits with [N, 28, 28] masks in {0, …, 10, 255}", async () => {
  const { train, test: t } = await loadDataset('mnist-seg', { testSize: 1000 });
  assert.ok(isSegmentationDataset(train) && isSegmentationDataset(t));
  assert.equal(train.labels.length, 9000);
  assert.equal(t.masks.length, 1000 * 28 * 28);
  const counts = new Map<number, number>();
  for (const y of t.masks) counts.set(y, (counts.get(y) ?? 0) + 1);
  assert.ok([...counts.keys()].every((y) => (y >= 0 && y <= 10) || y === 255));
  // background dominates, the void band is a minority
  assert.ok(counts.get(0)! > 0.7 * t.masks.length && counts.get(255)! < 0.1 * t.masks.length, JSON.stringify([...counts]));
  // each image's foreground pixels carry its own digit
  for (let n = 0; n < 50; n++)
    for (let j = 0; j < 784; j++) {
      const y: number = t.masks[n * 784 + j]!;
      if (y !== 0 && y !== 255) assert.equal(y, t.labels[n]! + 1);
    }
});
