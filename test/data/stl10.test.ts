import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { DatasetNotFoundError, loadDataset, loadStl10, stl10FromBytes } from '../../src/data/index.js';
import { writeTar } from '../../src/data/formats/tar.js';
import { md5Of, serveFiles, withTempDir } from './helpers.js';

/** Byte of image n, channel k, row r, column c in the generated files. */
const pixel = (n: number, k: number, r: number, c: number) => (3 * r + 7 * c + 11 * k + 17 * n) % 256;

/** X in the release's layout: per image and channel, column-major (byte k·9216 + c·96 + r). */
function makeX(n: number): Uint8Array {
  const x = new Uint8Array(n * 3 * 96 * 96);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) for (let c = 0; c < 96; c++) for (let r = 0; r < 96; r++) x[i * 27648 + k * 9216 + c * 96 + r] = pixel(i, k, r, c);
  return x;
}

const FILES = {
  'train_X.bin': makeX(2),
  'train_y.bin': Uint8Array.of(1, 10),
  'test_X.bin': makeX(3),
  'test_y.bin': Uint8Array.of(3, 2, 5),
  'class_names.txt': new TextEncoder().encode('airplane\nbird\ncar\ncat\ndeer\ndog\nhorse\nmonkey\nship\ntruck\n'),
};

function check(d: Awaited<ReturnType<typeof loadStl10>>): void {
  assert.deepEqual(d.train.shape, [3, 96, 96]);
  assert.deepEqual(Array.from(d.train.labels), [0, 9]);
  assert.deepEqual(Array.from(d.test.labels), [2, 1, 4]);
  assert.equal(d.test.classNames![7], 'monkey');
  for (const [n, k, r, c] of [
    [0, 0, 0, 0],
    [1, 2, 5, 90],
    [0, 1, 95, 3],
  ] as const) {
    assert.equal(d.train.images[((n * 3 + k) * 96 + r) * 96 + c], Math.fround(pixel(n, k, r, c) / 255), `train (${n}, ${k}, ${r}, ${c})`);
  }
  assert.equal(d.test.images[((2 * 3 + 1) * 96 + 40) * 96 + 7], Math.fround(pixel(2, 1, 40, 7) / 255));
}

test('STL-10 binary files: column-major channels become [3, 96, 96] rows, labels 1–10 become 0–9', async () => {
  await withTempDir(async (dir) => {
    const folder = join(dir, 'stl10_binary');
    await mkdir(folder);
    for (const [name, body] of Object.entries(FILES)) await writeFile(join(folder, name), body);
    check(await loadStl10({ path: folder }));
    check(await loadStl10({ path: dir })); // the parent of the extracted folder
    check((await loadDataset('stl10', { path: folder })) as Awaited<ReturnType<typeof loadStl10>>); // calib train --dataset stl10 --data-opt path=…
    await assert.rejects(loadDataset('stl10', { directory: folder } as never), /stl10 options\.directory: expected one of path, download/);
    const archive = join(dir, 'stl10_binary.tar.gz');
    await writeFile(archive, gzipSync(writeTar(Object.entries(FILES).map(([name, data]) => ({ name: `stl10_binary/${name}`, data })))));
    check(await loadStl10({ path: archive }));
  });
});

test('STL-10 downloads the archive (MD5-checked) into the cache, and says how to get it when absent', async () => {
  const archive = gzipSync(writeTar(Object.entries(FILES).map(([name, data]) => ({ name: `stl10_binary/${name}`, data }))));
  const log: string[] = [];
  const { server, base } = await serveFiles({ 'stl10_binary.tar.gz': archive }, log);
  try {
    await withTempDir(async (dir) => {
      await assert.rejects(loadStl10({ cacheDirectory: dir }), (e: unknown) => e instanceof DatasetNotFoundError && /download: true/.test((e as Error).message));
      await assert.rejects(loadStl10({ cacheDirectory: dir, download: true, baseUrl: base, md5: '0'.repeat(32) }), /MD5/);
      check(await loadStl10({ cacheDirectory: dir, download: true, baseUrl: base, md5: md5Of(archive) }));
      check(await loadStl10({ cacheDirectory: dir, download: true, baseUrl: base }));
      assert.deepEqual(log, ['stl10_binary.tar.gz', 'stl10_binary.tar.gz'], 'the second load finds the cached archive');
    });
  } finally {
    server.close();
  }
});

test('STL-10 rejects truncated images and out-of-range labels, naming the file', () => {
  assert.throws(() => stl10FromBytes(new Uint8Array(100), Uint8Array.of(1), 'stl10/x'), /stl10\/x: X: expected a multiple of 27648 bytes/);
  assert.throws(() => stl10FromBytes(makeX(1), Uint8Array.of(11), 'stl10/x'), /stl10\/x: y\[0\]: expected a label in 1\.\.10/);
});
