import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ImageDataset } from '../../src/data/dataset.js';
import { encodeIdx } from '../../src/data/formats/idx.js';
import { KMNIST_FILES, loadKmnist } from '../../src/data/datasets/kmnist.js';
import { DATASET_NAMES, defaultAugmentation, defaultOodDataset, loadDataset } from '../../src/data/load-dataset.js';
import { run } from '../cli/capture.js';
import { md5Of, serveFiles, withTempDir } from './helpers.js';

/** The four KMNIST files with n train / m test 28×28 images; pixel (y, x) of image i is (i + 2y + x) mod 256, label i·7 mod 10. */
function fakeFiles(n: number, m: number): Record<string, Uint8Array> {
  const images = (count: number) =>
    encodeIdx({ type: 'uint8', dims: [count, 28, 28], data: Uint8Array.from({ length: count * 784 }, (_, j) => (Math.floor(j / 784) + 2 * Math.floor((j % 784) / 28) + (j % 28)) % 256) });
  const labels = (count: number) => encodeIdx({ type: 'uint8', dims: [count], data: Uint8Array.from({ length: count }, (_, i) => (i * 7) % 10) });
  return {
    [KMNIST_FILES.trainImages]: gzipSync(images(n)),
    [KMNIST_FILES.trainLabels]: gzipSync(labels(n)),
    [KMNIST_FILES.testImages]: gzipSync(images(m)),
    [KMNIST_FILES.testLabels]: gzipSync(labels(m)),
  };
}

test('kmnist loads from a directory of IDX files: shape, byte/255 pixels, labels and Hiragana class names', async () => {
  await withTempDir(async (dir) => {
    for (const [name, body] of Object.entries(fakeFiles(5, 3))) await writeFile(join(dir, name), body);
    const { train, test: testSet } = await loadDataset('kmnist', { directory: dir });
    assert.equal(train.labels.length, 5);
    assert.equal(testSet!.labels.length, 3);
    assert.deepEqual(train.shape, [1, 28, 28]);
    assert.deepEqual(train.classNames, ['o', 'ki', 'su', 'tsu', 'na', 'ha', 'ma', 'ya', 're', 'wo']);
    assert.deepEqual(Array.from(testSet!.labels), [0, 7, 4]);
    // image 3, row 2, column 5: (3 + 4 + 5) / 255
    assert.equal((train as ImageDataset).images[3 * 784 + 2 * 28 + 5], Math.fround(12 / 255));
  });
});

test('kmnist is registered with its OOD partner mnist and no default augmentation; a typo is caught with a hint', async () => {
  assert.ok(DATASET_NAMES.includes('kmnist'));
  assert.equal(defaultOodDataset('kmnist'), 'mnist');
  assert.equal(defaultAugmentation('kmnist'), 'none');
  await assert.rejects(loadDataset('kmnsit' as never), /\(did you mean kmnist, mnist\?\), got "kmnsit"$/);
  await assert.rejects(loadDataset('kmnist', { dirctory: '/x' } as never), /kmnist options\.dirctory: expected one of directory, download, cacheDirectory, baseUrl, md5 \(did you mean directory\?\)/);
});

test('missing kmnist files fail with the file names and how to get them', async () => {
  await withTempDir(async (dir) => {
    await assert.rejects(loadKmnist({ directory: dir }), /kmnist: train-images-idx3-ubyte\.gz, .* not found in .*--data-opt directory=DIR.*--data-opt download=true/);
  });
});

test('kmnist downloads the four files from a local server with MD5 checks, then loads from the directory without downloading again', async () => {
  const files = fakeFiles(4, 2);
  const log: string[] = [];
  const { server, base } = await serveFiles(files, log);
  try {
    await withTempDir(async (dir) => {
      const md5 = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, md5Of(v)]));
      const first = await loadKmnist({ directory: dir, download: true, baseUrl: base, md5 });
      assert.equal(first.train.labels.length, 4);
      assert.deepEqual((await readdir(dir)).sort(), Object.keys(files).sort());
      for (const [name, body] of Object.entries(files)) assert.deepEqual(new Uint8Array(await readFile(join(dir, name))), new Uint8Array(body));
      await loadKmnist({ directory: dir, download: true, baseUrl: base });
      assert.equal(log.length, 4, 'a second load does not download again');
      await withTempDir(async (other) => {
        await assert.rejects(loadKmnist({ directory: other, download: true, baseUrl: base, md5: { ...md5, [KMNIST_FILES.trainLabels]: '0'.repeat(32) } }), /expected 0{32}/);
      });
    });
  } finally {
    server.close();
  }
});

test('calib train --dataset kmnist --data-opt directory=… trains one tiny epoch from the files', async () => {
  await withTempDir(async (dir) => {
    const data = join(dir, 'kmnist');
    await (await import('node:fs/promises')).mkdir(data);
    for (const [name, body] of Object.entries(fakeFiles(40, 20))) await writeFile(join(data, name), body);
    const out = join(dir, 'run');
    const r = await run(['train', '--dataset', 'kmnist', '--data-opt', `directory=${data}`, '--model-opt', 'hidden=[8]', '--epochs', '1', '--batch', '16', '--progress', 'none', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^test \(20 samples\): accuracy [\d.]+%/m);
    const config = JSON.parse(await readFile(join(out, 'config.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(config['dataset'], 'kmnist');
    assert.deepEqual(config['datasetOptions'], { directory: data });
  });
});
