import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadCifar10, loadCifar100 } from '../../src/data/cifar.js';
import { readTar, writeTar } from '../../src/data/tar.js';
import { FIXTURES, withTempDir } from './helpers.js';

test('tar archives written by Python (pax and GNU formats) are read with long names, sizes and contents', () => {
  const longName = 'top/' + 'd'.repeat(60) + '/' + 'f'.repeat(60) + '.bin';
  for (const file of ['pax.tar.gz', 'gnu.tar.gz']) {
    const entries = [...readTar(new Uint8Array(gunzipSync(readFileSync(join(FIXTURES, file)))), file)];
    assert.deepEqual(entries.map((e) => [e.name.replace(/\/$/, ''), e.type, e.size]), [
      ['top', 'directory', 0],
      ['top/hello.txt', 'file', 10],
      [longName, 'file', 1000],
      ['top/empty.bin', 'file', 0],
    ]);
    assert.equal(new TextDecoder().decode(entries[1]!.data), 'hello tar\n');
    assert.deepEqual(Array.from(entries[2]!.data), Array.from({ length: 1000 }, (_, i) => i % 256));
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
    await assert.rejects(loadCifar10({ path: join(dir, 'nope.tar.gz') }), /cifar-10: not found at .*nope\.tar\.gz.*cs\.toronto\.edu/);
  });
});

test('CIFAR-100 uses the fine label by default and the coarse label on request', async () => {
  await withTempDir(async (dir) => {
    const fine = Array.from({ length: 100 }, (_, i) => `fine${i}`).join('\n');
    const coarse = Array.from({ length: 20 }, (_, i) => `coarse${i}`).join('\n');
    const path = join(dir, 'cifar-100-binary.tar.gz');
    await writeFile(path, gzipSync(writeTar([
      { name: 'cifar-100-binary/train.bin', data: records([[3, 99], [19, 0]], 0) },
      { name: 'cifar-100-binary/test.bin', data: records([[0, 42]], 50) },
      { name: 'cifar-100-binary/fine_label_names.txt', data: new TextEncoder().encode(fine) },
      { name: 'cifar-100-binary/coarse_label_names.txt', data: new TextEncoder().encode(coarse) },
    ])));
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
