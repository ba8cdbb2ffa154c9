import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { classCounts } from '../../src/data/dataset.js';
import { downloadFile } from '../../src/data/download.js';
import { DEBIAN_FASHION_MNIST_DIRECTORY, FASHION_MNIST_FILES, loadFashionMnist } from '../../src/data/datasets/fashion-mnist.js';
import { encodeIdx } from '../../src/data/formats/idx.js';
import { md5Of, serveFiles, withTempDir } from './helpers.js';

/** Four Fashion-MNIST-format files with n train / m test images of 28×28 whose pixel (y, x) of image i is (i + y + x) mod 256. */
function fakeFiles(n: number, m: number): Record<string, Uint8Array> {
  const images = (count: number) =>
    encodeIdx({ type: 'uint8', dims: [count, 28, 28], data: Uint8Array.from({ length: count * 784 }, (_, j) => (Math.floor(j / 784) + Math.floor((j % 784) / 28) + (j % 28)) % 256) });
  const labels = (count: number) => encodeIdx({ type: 'uint8', dims: [count], data: Uint8Array.from({ length: count }, (_, i) => (i * 3) % 10) });
  return {
    [FASHION_MNIST_FILES.trainImages]: gzipSync(images(n)),
    [FASHION_MNIST_FILES.trainLabels]: gzipSync(labels(n)),
    [FASHION_MNIST_FILES.testImages]: gzipSync(images(m)),
    [FASHION_MNIST_FILES.testLabels]: gzipSync(labels(m)),
  };
}

test('Fashion-MNIST loads from a directory of gzipped and plain IDX files', async () => {
  await withTempDir(async (dir) => {
    const files = fakeFiles(5, 3);
    for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
    // one file stored uncompressed under its name without .gz
    const { gunzipSync } = await import('node:zlib');
    await writeFile(join(dir, 't10k-labels-idx1-ubyte'), gunzipSync(files[FASHION_MNIST_FILES.testLabels]!));
    await (await import('node:fs/promises')).rm(join(dir, FASHION_MNIST_FILES.testLabels));
    const { train, test: testSet } = await loadFashionMnist({ directory: dir });
    assert.equal(train.labels.length, 5);
    assert.equal(testSet.labels.length, 3);
    assert.deepEqual(train.shape, [1, 28, 28]);
    assert.equal(train.classNames?.[9], 'Ankle boot');
    assert.deepEqual(Array.from(testSet.labels), [0, 3, 6]);
    // image 2, row 1, column 4: (2 + 1 + 4) / 255
    assert.equal(train.images[2 * 784 + 1 * 28 + 4], Math.fround(7 / 255));
  });
});

test('a missing Fashion-MNIST directory fails with instructions for getting the files', async () => {
  await withTempDir(async (dir) => {
    await assert.rejects(loadFashionMnist({ directory: dir }), (e: Error) => {
      assert.match(e.message, /train-images-idx3-ubyte\.gz/);
      assert.match(e.message, /apt-get install dataset-fashion-mnist/);
      assert.match(e.message, /download: true/);
      return true;
    });
  });
});

test('Fashion-MNIST downloads the four files from a local server, verifies MD5 and then loads from the cache', async () => {
  const files = fakeFiles(4, 2);
  const log: string[] = [];
  const { server, base } = await serveFiles(files, log);
  try {
    await withTempDir(async (dir) => {
      const cache = join(dir, 'cache');
      const sums = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, md5Of(v)]));
      const first = await loadFashionMnist({ directory: cache, download: true, baseUrl: base, md5: sums });
      assert.equal(first.train.labels.length, 4);
      assert.deepEqual((await readdir(cache)).sort(), Object.keys(files).sort());
      for (const [name, body] of Object.entries(files)) assert.deepEqual(new Uint8Array(await readFile(join(cache, name))), new Uint8Array(body));
      assert.equal(log.length, 4);
      const again = await loadFashionMnist({ directory: cache, download: true, baseUrl: base });
      assert.equal(log.length, 4, 'a second load does not download again');
      assert.deepEqual(again.test.images, first.test.images);
    });
  } finally {
    server.close();
  }
});

test('a download with a wrong checksum or an HTTP error leaves no file behind', async () => {
  const files = { 'a.bin': Uint8Array.from([1, 2, 3]) };
  const { server, base } = await serveFiles(files, []);
  try {
    await withTempDir(async (dir) => {
      const dest = join(dir, 'a.bin');
      await assert.rejects(downloadFile(base + 'a.bin', dest, { md5: '0'.repeat(32) }), /has MD5 5289df737df57326fcdd22597afb1fac, expected 0{32}/);
      assert.deepEqual(await readdir(dir), []);
      await assert.rejects(downloadFile(base + 'missing.bin', join(dir, 'm.bin')), /answered HTTP 404/);
      assert.deepEqual(await readdir(dir), []);
      await downloadFile(base + 'a.bin', dest, { md5: md5Of(files['a.bin']) });
      assert.deepEqual(Array.from(await readFile(dest)), [1, 2, 3]);
    });
  } finally {
    server.close();
  }
});

const debian = existsSync(join(DEBIAN_FASHION_MNIST_DIRECTORY, FASHION_MNIST_FILES.trainImages));
test(
  'the Debian Fashion-MNIST package loads with 60,000 + 10,000 images, 6,000 / 1,000 per class',
  { skip: debian ? false : `${DEBIAN_FASHION_MNIST_DIRECTORY} is absent (apt-get install dataset-fashion-mnist)` },
  async () => {
    const { train, test: testSet } = await loadFashionMnist({ directory: DEBIAN_FASHION_MNIST_DIRECTORY });
    assert.equal(train.labels.length + testSet.labels.length, 70000);
    assert.equal(testSet.labels.length, 10000);
    assert.deepEqual(Array.from(classCounts(train.labels, 10)), new Array(10).fill(6000));
    assert.deepEqual(Array.from(classCounts(testSet.labels, 10)), new Array(10).fill(1000));
    let max = 0;
    for (let i = 0; i < 784 * 100; i++) max = Math.max(max, testSet.images[i]!);
    assert.ok(max <= 1 && max > 0.9);
  },
);
