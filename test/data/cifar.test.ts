import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { CIFAR_MD5, loadCifar10, loadCifar100 } from '../../src/data/datasets/cifar.js';
import { loadDataset } from '../../src/data/load-dataset.js';
import { readTar, writeTar } from '../../src/data/formats/tar.js';
import { FIXTURES, md5Of, serveFiles, withTempDir } from './helpers.js';

test('tar archives written by Python (pax and GNU formats) are read with long names, sizes and contents', () => {
  const longName = 'top/' + 'd'.repeat(60) + '/' + 'f'.repeat(60) + '.bin';
  for (const file of ['pax.tar.gz', 'gnu.tar.gz']) {
    const entries = [...readTar(new Uint8Array(gunzipSync(readFileSync(join(FIXTURES, file)))), file)];
    assert.deepEqual(
      entries.map((e) => [e.name.replace(/\/$/, ''), e.type, e.size]),
      [
        ['top', 'directory', 0],
        ['top/hello.txt', 'file', 10],
        [longName, 'file', 1000],
        ['top/empty.bin', 'file', 0],
      ],
    );
    assert.equal(new TextDecoder().decode(entries[1]!.data), 'hello tar\n');
    assert.deepEqual(
      Array.from(entries[2]!.data),
      Array.from({ length: 1000 }, (_, i) => i % 256),
    );
  }
});

test('a tar archive with a damaged header is rejected as corrupt', () => {
  const tar = writeTar([{ name: 'a.txt', data: new Uint8Array([65]) }]);
  assert.equal([...readTar(tar)].length, 1);
  tar[10] = 120;
  assert.throws(() => [...readTar(tar, 'bad.tar')], /bad\.tar: expected a tar archive with valid header checksums/);
});

/** CIFAR records: label byte(s) then 3,072 pixels; pixel j of record r is (r·7 + j) mod 256. */
function records(labels: number[][], first: number): Uint8Array {
  const size = labels[0]!.length + 3072;
  const out = new Uint8Array(labels.length * size);
  labels.forEach((ls, r) => {
    out.set(ls, r * size);
    for (let j = 0; j < 3072; j++) out[r * size + ls.length + j] = ((first + r) * 7 + j) % 256;
  });
  return out;
}

function cifar10Files(): { name: string; data: Uint8Array }[] {
  const files = [1, 2, 3, 4, 5].map((b) => ({
    name: `cifar-10-batches-bin/data_batch_${b}.bin`,
    data: records([[b], [(b + 5) % 10]], (b - 1) * 2),
  }));
  files.push({ name: 'cifar-10-batches-bin/test_batch.bin', data: records([[9], [0], [4]], 100) });
  files.push({ name: 'cifar-10-batches-bin/batches.meta.txt', data: new TextEncoder().encode('airplane\nautomobile\nbird\ncat\ndeer\ndog\nfrog\nhorse\nship\ntruck\n\n') });
  return files;
}

test('CIFAR-10 loads from the official .tar.gz layout: batches in order, CHW pixels, labels', async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, 'cifar-10-binary.tar.gz');
    await writeFile(path, gzipSync(writeTar(cifar10Files())));
    const { train, test: testSet } = await loadCifar10({ path });
    assert.equal(train.labels.length, 10);
    assert.deepEqual(Array.from(train.labels), [1, 6, 2, 7, 3, 8, 4, 9, 5, 0]);
    assert.deepEqual(Array.from(testSet.labels), [9, 0, 4]);
    assert.deepEqual(train.shape, [3, 32, 32]);
    assert.equal(train.classNames?.[3], 'cat');
    // record 3 (batch 2, second record): channel 1 (green), row 2, column 5 → byte j = 1024 + 64 + 5
    const j = 1024 + 2 * 32 + 5;
    assert.equal(train.images[3 * 3072 + j], Math.fround(((3 * 7 + j) % 256) / 255));
    assert.equal(testSet.images[2 * 3072 + 3071], Math.fround(((102 * 7 + 3071) % 256) / 255));
  });
});

test('CIFAR-10 loads identically from an extracted directory and reports missing batches', async () => {
  await withTempDir(async (dir) => {
    const files = cifar10Files();
    await mkdir(join(dir, 'cifar-10-batches-bin'));
    for (const f of files) await writeFile(join(dir, f.name), f.data);
    const fromDir = await loadCifar10({ path: dir });
    const tarPath = join(dir, 'c.tar');
    await writeFile(tarPath, writeTar(files));
    const fromTar = await loadCifar10({ path: tarPath });
    assert.deepEqual(fromDir.train.images, fromTar.train.images);
    assert.deepEqual(fromDir.test.labels, fromTar.test.labels);
    const partial = join(dir, 'partial.tar.gz');
    await writeFile(partial, gzipSync(writeTar(files.filter((f) => !f.name.endsWith('data_batch_4.bin')))));
    await assert.rejects(loadCifar10({ path: partial }), /lacks data_batch_4\.bin/);
    await assert.rejects(loadCifar10({ path: join(dir, 'nope.tar.gz') }), /cifar-10: not found at .*nope\.tar\.gz.*cs\.toronto\.edu.*--data-opt download=true/);
  });
});

test('CIFAR-100 uses the fine label by default and the coarse label on request', async () => {
  await withTempDir(async (dir) => {
    const fine = Array.from({ length: 100 }, (_, i) => `fine${i}`).join('\n');
    const coarse = Array.from({ length: 20 }, (_, i) => `coarse${i}`).join('\n');
    const path = join(dir, 'cifar-100-binary.tar.gz');
    await writeFile(
      path,
      gzipSync(
        writeTar([
          {
            name: 'cifar-100-binary/train.bin',
            data: records(
              [
                [3, 99],
                [19, 0],
              ],
              0,
            ),
          },
          { name: 'cifar-100-binary/test.bin', data: records([[0, 42]], 50) },
          { name: 'cifar-100-binary/fine_label_names.txt', data: new TextEncoder().encode(fine) },
          { name: 'cifar-100-binary/coarse_label_names.txt', data: new TextEncoder().encode(coarse) },
        ]),
      ),
    );
    const f = await loadCifar100({ path });
    assert.deepEqual(Array.from(f.train.labels), [99, 0]);
    assert.equal(f.train.classes, 100);
    assert.equal(f.train.classNames?.[99], 'fine99');
    assert.equal(f.test.images[0], Math.fround(((50 * 7) % 256) / 255));
    const c = await loadCifar100({ path, labels: 'coarse' });
    assert.deepEqual(Array.from(c.train.labels), [3, 19]);
    assert.equal(c.train.classes, 20);
    assert.deepEqual(c.train.images, f.train.images);
  });
});

test('the official CIFAR archive checksums are the ones published on the CIFAR page', () => {
  assert.deepEqual(CIFAR_MD5, {
    'cifar-10-binary.tar.gz': 'c32a1d4ab5d03f1284b67883e8d87530',
    'cifar-100-binary.tar.gz': '03b5dce01913d631647c71ecec9e9cb8',
  });
});

test('CIFAR-10 with download: true fetches the archive from a local server into the cache, checks MD5, then loads from the cache', async () => {
  const archive = gzipSync(writeTar(cifar10Files()));
  const log: string[] = [];
  const { server, base } = await serveFiles({ 'cifar-10-binary.tar.gz': archive }, log);
  try {
    await withTempDir(async (dir) => {
      const cache = join(dir, 'cache');
      await assert.rejects(loadCifar10({ cacheDirectory: cache, baseUrl: base }), /cifar-10: not found at .*cache.*download: true .*--data-opt download=true/);
      assert.equal(log.length, 0, 'nothing is fetched without download: true');
      const first = await loadCifar10({ cacheDirectory: cache, download: true, baseUrl: base, md5: md5Of(archive) });
      assert.deepEqual(log, ['cifar-10-binary.tar.gz']);
      assert.deepEqual(await readdir(cache), ['cifar-10-binary.tar.gz']);
      assert.deepEqual(new Uint8Array(await readFile(join(cache, 'cifar-10-binary.tar.gz'))), new Uint8Array(archive));
      assert.deepEqual(Array.from(first.train.labels), [1, 6, 2, 7, 3, 8, 4, 9, 5, 0]);
      const direct = join(dir, 'direct.tar.gz');
      await writeFile(direct, archive);
      assert.deepEqual(first.train.images, (await loadCifar10({ path: direct })).train.images);
      // the options as the command line passes them (--data-opt download=true cacheDirectory=… baseUrl=…)
      const again = await loadDataset('cifar10', { download: true, cacheDirectory: cache, baseUrl: base });
      assert.equal(log.length, 1, 'a second load does not download again');
      assert.deepEqual(again.test!.labels, first.test.labels);
    });
  } finally {
    server.close();
  }
});

test('CIFAR download into an explicit path, and a checksum mismatch that leaves nothing behind', async () => {
  const fine = Array.from({ length: 100 }, (_, i) => `fine${i}`).join('\n');
  const archive = gzipSync(
    writeTar([
      {
        name: 'cifar-100-binary/train.bin',
        data: records(
          [
            [3, 99],
            [19, 0],
          ],
          0,
        ),
      },
      { name: 'cifar-100-binary/test.bin', data: records([[0, 42]], 50) },
      { name: 'cifar-100-binary/fine_label_names.txt', data: new TextEncoder().encode(fine) },
    ]),
  );
  const log: string[] = [];
  const { server, base } = await serveFiles({ 'cifar-100-binary.tar.gz': archive }, log);
  try {
    await withTempDir(async (dir) => {
      const cache = join(dir, 'cache');
      await assert.rejects(loadCifar100({ cacheDirectory: cache, download: true, baseUrl: base, md5: '0'.repeat(32) }), new RegExp(`has MD5 ${md5Of(archive)}, expected 0{32}`));
      assert.deepEqual(await readdir(cache), [], 'no partial or corrupt file is left in the cache');
      const path = join(dir, 'mine', 'c100.tar.gz');
      const c = await loadCifar100({ path, download: true, baseUrl: base, labels: 'coarse' });
      assert.deepEqual(Array.from(c.train.labels), [3, 19]);
      assert.deepEqual(new Uint8Array(await readFile(path)), new Uint8Array(archive));
      const intoDir = join(dir, 'folder');
      const f = await loadCifar100({ path: intoDir, download: true, baseUrl: base });
      assert.deepEqual(await readdir(intoDir), ['cifar-100-binary.tar.gz']);
      assert.deepEqual(Array.from(f.test.labels), [42]);
      assert.equal(f.train.classNames?.[7], 'fine7');
      assert.equal(log.length, 3);
      const reloaded = await loadCifar100({ path: intoDir, download: true, baseUrl: base });
      assert.equal(log.length, 3, 'the archive in the folder is read, not fetched again');
      assert.deepEqual(reloaded.train.images, f.train.images);
    });
  } finally {
    server.close();
  }
});
