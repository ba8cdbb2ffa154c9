import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMat, readMat } from '../../src/data/formats/mat.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { loadSvhn, SVHN_MD5 } from '../../src/data/datasets/svhn.js';
import { FIXTURES, md5Of, serveFiles, withTempDir } from './helpers.js';

/** X[r, c, k, n] as written by test/fixtures/scripts/make-svhn-mat-fixtures.py. */
const pixel = (r: number, c: number, k: number, n: number) => (7 * r + 13 * c + 29 * k + 31 * n) % 256;

test('MAT-files written by scipy.io.savemat, compressed or not, give the same arrays', async () => {
  for (const file of ['svhn-tiny-compressed.mat', 'svhn-tiny-plain.mat']) {
    const vars = await readMat(join(FIXTURES, file));
    const x = vars.get('X')!;
    assert.equal(x.class, 'uint8');
    assert.deepEqual(x.dims, [32, 32, 3, 5]);
    // column-major: (r, c, k, n) at r + 32c + 1024k + 3072n
    for (const [r, c, k, n] of [
      [0, 0, 0, 0],
      [5, 17, 2, 4],
      [31, 1, 1, 3],
    ] as const)
      assert.equal(x.data[r + 32 * c + 1024 * k + 3072 * n], pixel(r, c, k, n), `${file} X(${r},${c},${k},${n})`);
    const y = vars.get('y')!;
    assert.equal(y.class, 'double');
    assert.deepEqual(Array.from(y.data), [1, 10, 3, 10, 7]);
    const small = vars.get('small')!;
    assert.equal(small.class, 'int16');
    assert.deepEqual(small.dims, [2, 3]);
    assert.deepEqual(Array.from(small.data), [1, 4, -2, 5, 3, -6]);
    const z = vars.get('z')!;
    assert.deepEqual(Array.from(z.data), [1, 3]);
    assert.deepEqual(Array.from(z.imag!), [2, -4]);
    assert.equal(vars.has('note'), false, 'char arrays are skipped');
    assert.equal(vars.has('cells'), false, 'cell arrays are skipped');
    assert.equal(vars.has('info'), false, 'structs are skipped');
  }
});

test('a big-endian MAT-file ("MI") with a small-element name and a narrowed storage type decodes', () => {
  // header
  const header = new Uint8Array(128).fill(0x20);
  header.set(new TextEncoder().encode('MATLAB 5.0 MAT-file, hand-made'), 0);
  header.set([0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x00, 0x4d, 0x49], 116);
  const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  const sub = [
    ...be32(6),
    ...be32(8),
    ...be32(6),
    ...be32(0), // flags: miUINT32, class double (6)
    ...be32(5),
    ...be32(8),
    ...be32(1),
    ...be32(3), // dims int32 [1, 3]
    0x00,
    0x01,
    0x00,
    0x01,
    0x79,
    0,
    0,
    0, // small element: miINT8 (1), 1 byte, "y"
    ...be32(2),
    ...be32(3),
    10,
    1,
    200,
    0,
    0,
    0,
    0,
    0, // real part stored as miUINT8 [10, 1, 200], padded
  ];
  const file = Uint8Array.from([...header, ...be32(14), ...be32(sub.length), ...sub]);
  const y = parseMat(file, 'hand.mat').get('y')!;
  assert.equal(y.class, 'double');
  assert.ok(y.data instanceof Float64Array);
  assert.deepEqual(Array.from(y.data), [10, 1, 200]);
});

test('MAT inputs that are not level 5 are refused with the reason', () => {
  const v73 = new Uint8Array(512);
  v73.set(new TextEncoder().encode('MATLAB 7.3 MAT-file, Platform: GLNXA64'), 0);
  assert.throws(() => parseMat(v73, 'big.mat'), /big\.mat: expected a level-5 MAT-file .* got a MATLAB 7\.3 \(HDF5\) file/);
  assert.throws(() => parseMat(new Uint8Array(200), 'zero.mat'), /endian indicator/);
});

test('SVHN loads X [32, 32, 3, N] as NCHW images and maps label 10 to the digit 0', async () => {
  await withTempDir(async (dir) => {
    await copyFile(join(FIXTURES, 'svhn-tiny-compressed.mat'), join(dir, 'train_32x32.mat'));
    await copyFile(join(FIXTURES, 'svhn-tiny-plain.mat'), join(dir, 'test_32x32.mat'));
    const { train, test: testSet } = await loadSvhn({ directory: dir });
    assert.deepEqual(train.shape, [3, 32, 32]);
    assert.equal(train.labels.length, 5);
    assert.deepEqual(Array.from(train.labels), [1, 0, 3, 0, 7]);
    assert.deepEqual(train.images, testSet.images);
    for (const [n, k, row, col] of [
      [0, 0, 0, 0],
      [4, 2, 5, 17],
      [3, 1, 31, 0],
      [1, 0, 10, 31],
    ] as const) {
      const at = ((n * 3 + k) * 32 + row) * 32 + col;
      assert.equal(train.images[at], Math.fround(pixel(row, col, k, n) / 255), `image ${n} channel ${k} (${row}, ${col})`);
    }
  });
});

test('SVHN reports a missing file with its download address', async () => {
  await withTempDir(async (dir) => {
    await assert.rejects(loadSvhn({ directory: dir }), /svhn: .*train_32x32\.mat not found\. Download http:\/\/ufldl\.stanford\.edu\/housenumbers\/train_32x32\.mat.*--data-opt download=true/);
  });
});

test("the official SVHN checksums are torchvision's", () => {
  assert.deepEqual(SVHN_MD5, {
    'train_32x32.mat': 'e26dedcc434d2e4c54c9b2d4a06d8373',
    'test_32x32.mat': 'eb5a983be6a315427106f1b164d9cef3',
    'extra_32x32.mat': 'a93ce644f1a588dc4d68dda5feec44a7',
  });
});

test('SVHN with download: true fetches the missing files from a local server into the cache, checks MD5, then loads from the cache', async () => {
  const files: Record<string, Uint8Array> = {
    'train_32x32.mat': new Uint8Array(await readFile(join(FIXTURES, 'svhn-tiny-compressed.mat'))),
    'test_32x32.mat': new Uint8Array(await readFile(join(FIXTURES, 'svhn-tiny-plain.mat'))),
    'extra_32x32.mat': new Uint8Array(await readFile(join(FIXTURES, 'svhn-tiny-plain.mat'))),
  };
  const sums = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, md5Of(v)]));
  const log: string[] = [];
  const { server, base } = await serveFiles(files, log);
  try {
    await withTempDir(async (dir) => {
      const cache = join(dir, 'cache');
      const first = await loadSvhn({ cacheDirectory: cache, download: true, baseUrl: base, md5: sums });
      assert.deepEqual(log, ['train_32x32.mat', 'test_32x32.mat']);
      assert.deepEqual((await readdir(cache)).sort(), ['test_32x32.mat', 'train_32x32.mat']);
      for (const name of ['train_32x32.mat', 'test_32x32.mat']) assert.deepEqual(new Uint8Array(await readFile(join(cache, name))), files[name]);
      assert.deepEqual(Array.from(first.train.labels), [1, 0, 3, 0, 7]);
      const withExtra = await loadSvhn({ cacheDirectory: cache, download: true, baseUrl: base, extra: true });
      assert.deepEqual(log, ['train_32x32.mat', 'test_32x32.mat', 'extra_32x32.mat'], 'only the missing extra file is fetched');
      assert.deepEqual(withExtra.extra!.images, first.test.images);
      // the options as the command line passes them (--data-opt download=true cacheDirectory=… baseUrl=…)
      const again = await loadDataset('svhn', { download: true, cacheDirectory: cache, baseUrl: base });
      assert.equal(log.length, 3, 'a later load does not download again');
      assert.deepEqual(again.train.labels, first.train.labels);
    });
  } finally {
    server.close();
  }
});

test('an SVHN download with a wrong checksum or an HTTP error leaves nothing behind', async () => {
  const body = new Uint8Array(await readFile(join(FIXTURES, 'svhn-tiny-plain.mat')));
  const { server, base } = await serveFiles({ 'train_32x32.mat': body }, []);
  try {
    await withTempDir(async (dir) => {
      const target = join(dir, 'svhn');
      await assert.rejects(loadSvhn({ directory: target, download: true, baseUrl: base, md5: { 'train_32x32.mat': 'f'.repeat(32) } }), new RegExp(`has MD5 ${md5Of(body)}, expected f{32}`));
      assert.deepEqual(await readdir(target), []);
      await assert.rejects(loadSvhn({ directory: target, download: true, baseUrl: base }), /test_32x32\.mat answered HTTP 404/);
      assert.deepEqual(await readdir(target), ['train_32x32.mat'], 'the good file stays, the failed one leaves nothing');
    });
  } finally {
    server.close();
  }
});
