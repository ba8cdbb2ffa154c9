import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchScratch, batchPositions, batchesPerEpoch, epochOrder, gatherBatch, iterateBatches } from '../../src/data/batching.js';
import { imageDataset } from '../../src/data/dataset.js';

test('every index appears exactly once per epoch, with a partial last batch', () => {
  const n = 103;
  const batches = [...batchPositions(n, { batchSize: 10, seed: 1, endEpoch: 3 })];
  assert.equal(batches.length, 3 * 11);
  for (let e = 0; e < 3; e++) {
    const epoch = batches.filter((b) => b.epoch === e);
    assert.deepEqual(
      epoch.map((b) => b.indices.length),
      [...new Array(10).fill(10), 3],
    );
    const all = epoch.flatMap((b) => Array.from(b.indices)).sort((a, b) => a - b);
    assert.deepEqual(
      all,
      Array.from({ length: n }, (_, i) => i),
    );
  }
  const orders = [0, 1, 2].map((e) => batches.filter((b) => b.epoch === e).flatMap((b) => Array.from(b.indices)));
  assert.notDeepEqual(orders[0], orders[1], 'each epoch has its own shuffle');
});

test('drop-last gives only full batches and skips the n mod B leftovers', () => {
  assert.equal(batchesPerEpoch(103, { batchSize: 10, dropLast: true }), 10);
  const batches = [...batchPositions(103, { batchSize: 10, seed: 1, dropLast: true, endEpoch: 1 })];
  assert.equal(batches.length, 10);
  assert.ok(batches.every((b) => b.indices.length === 10));
  const used = new Set(batches.flatMap((b) => Array.from(b.indices)));
  assert.equal(used.size, 100);
});

test('without shuffling the batches follow 0..n−1', () => {
  const batches = [...batchPositions(5, { batchSize: 2, seed: 0, shuffle: false, endEpoch: 1 })];
  assert.deepEqual(
    batches.map((b) => Array.from(b.indices)),
    [[0, 1], [2, 3], [4]],
  );
});

test('resuming at (epoch, batch) reproduces the uninterrupted stream exactly', () => {
  const options = { batchSize: 7, seed: 42, endEpoch: 4 };
  const full = [...batchPositions(50, options)];
  const stop = full.findIndex((b) => b.epoch === 2 && b.batch === 3);
  const resumed = [...batchPositions(50, { ...options, start: { epoch: 2, batch: 4 } })];
  assert.deepEqual(resumed, full.slice(stop + 1));
  // a batch index past the end of an epoch continues with the next epoch
  const past = [...batchPositions(50, { ...options, start: { epoch: 1, batch: 99 } })];
  assert.deepEqual(
    past,
    full.filter((b) => b.epoch >= 2),
  );
  // the order of an epoch does not depend on the epochs before it
  assert.deepEqual(epochOrder(50, 3, options), epochOrder(50, 3, { seed: 42 }));
});

test('image batches copy the selected images and labels', () => {
  const n = 6;
  const ds = imageDataset({
    name: 'toy',
    images: Float32Array.from({ length: n * 4 }, (_, j) => j),
    labels: Int32Array.from({ length: n }, (_, i) => i % 3),
    shape: [1, 2, 2],
    classes: 3,
  });
  for (const batch of iterateBatches(ds, { batchSize: 4, seed: 3, endEpoch: 2 })) {
    assert.deepEqual(batch.shape, [batch.indices.length, 1, 2, 2]);
    batch.indices.forEach((idx, i) => {
      assert.equal(batch.labels[i], idx % 3);
      assert.deepEqual(Array.from(batch.images.subarray(4 * i, 4 * i + 4)), [4 * idx, 4 * idx + 1, 4 * idx + 2, 4 * idx + 3]);
    });
    batch.images.fill(-1);
  }
  assert.equal(ds.images[0], 0, 'the dataset is not modified through a batch');
});

test('batches gathered into a BatchScratch equal fresh ones and reuse its memory while the batch size stays', () => {
  const n = 7;
  const ds = imageDataset({
    name: 'toy',
    images: Float32Array.from({ length: n * 4 }, (_, j) => j + 0.5),
    labels: Int32Array.from({ length: n }, (_, i) => i % 3),
    shape: [1, 2, 2],
    classes: 3,
  });
  const scratch = new BatchScratch();
  const seen: Float32Array[] = [];
  for (const position of batchPositions(n, { batchSize: 3, seed: 5, endEpoch: 2 })) {
    const fresh = gatherBatch(ds, position);
    const reused = gatherBatch(ds, position, scratch);
    assert.deepEqual(Array.from(reused.images), Array.from(fresh.images));
    assert.deepEqual(Array.from(reused.labels), Array.from(fresh.labels));
    assert.notEqual(reused.labels, fresh.labels, 'labels stay fresh arrays');
    seen.push(reused.images);
    reused.images.fill(-1);
  }
  // Batches of 3, 3, 1 per epoch: one buffer for the full batches, a new one whenever the size changes.
  assert.equal(seen[0], seen[1]);
  assert.notEqual(seen[1], seen[2]);
  assert.equal(seen[2]!.length, 4);
  assert.notEqual(seen[2], seen[3]);
  assert.equal(seen[3], seen[4]);
  assert.ok(
    ds.images.every((v) => v >= 0),
    'the dataset is not modified through a reused batch',
  );
});
