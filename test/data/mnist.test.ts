import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMnist, loadMnistAll, mnistPackageDirectory } from '../../src/data/datasets/mnist.js';
import { classCounts } from '../../src/data/dataset.js';

test('the embedded MNIST digits load as 10,000 images [1, 28, 28] in [0, 1] with the package class counts', async () => {
  const all = await loadMnistAll();
  assert.equal(all.labels.length, 10000);
  assert.deepEqual(all.shape, [1, 28, 28]);
  assert.equal(all.images.length, 10000 * 784);
  assert.deepEqual(Array.from(classCounts(all.labels, 10)), [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978]);
  let min = Infinity;
  let max = -Infinity;
  for (const v of all.images) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  assert.equal(min, 0);
  assert.equal(max, 1);
});

test('the first MNIST image has the pixel sum computed independently from the package file', async () => {
  const all = await loadMnistAll();
  // 31095 = sum of round(255 v) over the first 784 values of mnist/src/digits/0.json (computed with Python)
  let sum = 0;
  for (let i = 0; i < 784; i++) sum += all.images[i]!;
  assert.ok(Math.abs(sum - 31095 / 255) < 1e-3, `sum ${sum}`);
  const raw = (JSON.parse(readFileSync(join(mnistPackageDirectory(), '0.json'), 'utf8')) as { data: number[] }).data;
  for (let i = 0; i < 784; i++) assert.ok(Math.abs(all.images[i]! - raw[i]!) <= 0.0005 + 1e-7, `pixel ${i}`);
  assert.equal(all.labels[0], 0);
});

test('loadMnist splits deterministically into stratified 8,000 / 2,000 parts', async () => {
  const a = await loadMnist({ seed: 3 });
  const b = await loadMnist({ seed: 3 });
  assert.equal(a.train.labels.length, 8000);
  assert.equal(a.test.labels.length, 2000);
  assert.deepEqual(a.test.labels, b.test.labels);
  assert.deepEqual(a.test.images, b.test.images);
  const counts = classCounts(a.test.labels, 10);
  const full = [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978];
  full.forEach((f, k) => assert.ok(Math.abs(counts[k]! - f / 5) <= 1, `class ${k}: ${counts[k]} vs ${f / 5}`));
  const c = await loadMnist({ seed: 4 });
  assert.notDeepEqual(a.test.images, c.test.images);
});

test('loadMnist rejects a test size that leaves no training data', async () => {
  await assert.rejects(loadMnist({ testSize: 10000 }), /testSize: expected an integer ≤ 9999, got 10000/);
});
