import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { loadNpyDataset } from '../../src/data/datasets/npy-dataset.js';
import { withTempDir } from './helpers.js';

test('NHWC uint8 images and int64 labels load as NCHW images scaled by 1/255', async () => {
  await withTempDir(async (dir) => {
    const n = 2,
      h = 2,
      w = 3,
      c = 3;
    const pixels = Uint8Array.from({ length: n * h * w * c }, (_, j) => j * 5);
    await writeNpy(join(dir, 'x.npy'), pixels, [n, h, w, c]);
    await writeNpy(join(dir, 'y.npy'), BigInt64Array.from([2n, 0n]), [n]);
    const { train, test: testSet } = await loadNpyDataset({ images: join(dir, 'x.npy'), labels: join(dir, 'y.npy') });
    assert.equal(testSet, undefined);
    assert.deepEqual(train.shape, [3, 2, 3]);
    assert.equal(train.classes, 3);
    assert.deepEqual(Array.from(train.labels), [2, 0]);
    // NCHW (i, k, y, x) ← NHWC (i, y, x, k)
    for (const [i, k, y, x] of [
      [0, 0, 0, 0],
      [1, 2, 1, 2],
      [0, 1, 1, 0],
    ] as const)
      assert.equal(train.images[((i * c + k) * h + y) * w + x], Math.fround(pixels[((i * h + y) * w + x) * c + k]! / 255));
  });
});

test('float feature vectors [N, D] load unscaled as [D, 1, 1], with a test pair sharing the class count', async () => {
  await withTempDir(async (dir) => {
    await writeNpy(join(dir, 'x.npy'), Float32Array.from([-1.5, 2, 3, 40]), [2, 2]);
    await writeNpy(join(dir, 'y.npy'), Int32Array.from([0, 4]), [2, 1]);
    await writeNpy(join(dir, 'tx.npy'), Float32Array.from([7, 8]), [1, 2]);
    await writeNpy(join(dir, 'ty.npy'), Int32Array.from([1]), [1]);
    const { train, test: testSet } = await loadNpyDataset({
      images: join(dir, 'x.npy'),
      labels: join(dir, 'y.npy'),
      testImages: join(dir, 'tx.npy'),
      testLabels: join(dir, 'ty.npy'),
    });
    assert.deepEqual(train.shape, [2, 1, 1]);
    assert.deepEqual(Array.from(train.images), [-1.5, 2, 3, 40]);
    assert.equal(testSet!.classes, 5);
    assert.equal(testSet!.name, 'npy/test');
    await writeNpy(join(dir, 'bad.npy'), Int32Array.from([0, 1, 2]), [3]);
    await assert.rejects(loadNpyDataset({ images: join(dir, 'x.npy'), labels: join(dir, 'bad.npy') }), /labels: expected 2 labels \(one per image\), got 3/);
    await assert.rejects(loadNpyDataset({ images: join(dir, 'x.npy'), labels: join(dir, 'y.npy'), testImages: join(dir, 'tx.npy') }), /testImages\/testLabels: expected both or neither/);
  });
});
