import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import jpeg from 'jpeg-js';
import { DatasetNotFoundError, loadDataset, loadTinyImageNet } from '../../src/data/index.js';
import { withTempDir } from './helpers.js';

/** A 64 × 64 JPEG, left half colour `a`, right half colour `b` (RGB bytes); quality 100. */
function jpegOf(a: readonly number[], b: readonly number[], side = 64): Uint8Array {
  const data = Buffer.alloc(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const c = x < side / 2 ? a : b;
      data.set([c[0]!, c[1]!, c[2]!, 255], (y * side + x) * 4);
    }
  }
  return new Uint8Array(jpeg.encode({ data, width: side, height: side }, 100).data);
}

const WNIDS = ['n02', 'n01', 'n03']; // wnids.txt is not sorted in the release; classes follow the sorted order
/** Colour of training image i of class wnid (distinct per image). */
const colour = (k: number, i: number): number[] => [40 * k + 20, 30 * i + 50, 200 - 50 * k];

/** Write the release layout under dir/tiny-imagenet-200; class n03 has 3 training images, the others 2. */
async function writeRelease(dir: string): Promise<string> {
  const root = join(dir, 'tiny-imagenet-200');
  await mkdir(join(root, 'val', 'images'), { recursive: true });
  await mkdir(join(root, 'test', 'images'), { recursive: true });
  await writeFile(join(root, 'wnids.txt'), WNIDS.join('\n') + '\n');
  await writeFile(join(root, 'words.txt'), 'n00\tentity\nn01\tgoldfish, Carassius auratus\nn02\tbullfrog\nn03\ttailed frog\n');
  for (const wnid of WNIDS) {
    const k = [...WNIDS].sort().indexOf(wnid);
    await mkdir(join(root, 'train', wnid, 'images'), { recursive: true });
    await writeFile(join(root, 'train', wnid, `${wnid}_boxes.txt`), 'ignored\n');
    const count = wnid === 'n03' ? 3 : 2;
    for (let i = 0; i < count; i++) await writeFile(join(root, 'train', wnid, 'images', `${wnid}_${i}.JPEG`), jpegOf(colour(k, i), [0, 0, 0]));
  }
  // val: files listed out of order in the annotations; loaded in sorted file order
  const val = [
    ['val_2.JPEG', 'n01'],
    ['val_0.JPEG', 'n03'],
    ['val_1.JPEG', 'n02'],
  ] as const;
  await writeFile(join(root, 'val', 'val_annotations.txt'), val.map(([f, w]) => `${f}\t${w}\t0\t0\t63\t63`).join('\n') + '\n');
  for (const [f, w] of val) await writeFile(join(root, 'val', 'images', f), jpegOf([255, 255, 255], [10 * Number(w.slice(-1)), 0, 0]));
  await writeFile(join(root, 'test', 'images', 'test_0.JPEG'), jpegOf([1, 2, 3], [4, 5, 6]));
  return root;
}

test('Tiny-ImageNet release layout: sorted wnids as classes, words.txt names, val as the labelled test split', async () => {
  await withTempDir(async (dir) => {
    const root = await writeRelease(dir);
    for (const path of [root, dir]) {
      const d = await loadTinyImageNet({ path });
      assert.deepEqual(d.train.shape, [3, 64, 64]);
      assert.equal(d.train.classes, 3);
      assert.deepEqual(d.train.classNames, ['goldfish, Carassius auratus', 'bullfrog', 'tailed frog']);
      assert.deepEqual(Array.from(d.train.labels), [0, 0, 1, 1, 2, 2, 2]);
      assert.deepEqual(Array.from(d.test.labels), [2, 1, 0]); // val_0 → n03, val_1 → n02, val_2 → n01
      // pixel values: the decoded JPEG of a flat colour is that colour within JPEG error (quality 100)
      const px = (images: Float32Array, n: number, c: number, y: number, x: number) => images[((n * 3 + c) * 64 + y) * 64 + x]!;
      for (const [n, k, i] of [
        [0, 0, 0],
        [3, 1, 1],
        [6, 2, 2],
      ] as const) {
        for (let c = 0; c < 3; c++) assert.ok(Math.abs(px(d.train.images, n, c, 10, 5) * 255 - colour(k, i)[c]!) <= 3, `train ${n} channel ${c}`);
        assert.ok(px(d.train.images, n, 0, 10, 60) * 255 <= 3, 'right half black');
      }
      assert.ok(Math.abs(px(d.test.images, 2, 0, 30, 50) * 255 - 10) <= 3); // val_2 (n01): red 10 on the right
      // exact agreement with jpeg-js decoding the same file
      const raw = jpeg.decode(jpegOf(colour(1, 1), [0, 0, 0]), { useTArray: true, formatAsRGBA: true });
      for (const [y, x] of [
        [0, 0],
        [31, 31],
        [32, 32],
        [63, 63],
      ] as const)
        for (let c = 0; c < 3; c++) assert.equal(px(d.train.images, 3, c, y, x), Math.fround(raw.data[(y * 64 + x) * 4 + c]! / 255));
    }
    const limited = await loadDataset('tiny-imagenet', { path: root, perClass: 1 }); // calib train --dataset tiny-imagenet --data-opt perClass=1
    assert.deepEqual(Array.from(limited.train.labels), [0, 1, 2]);
    await assert.rejects(loadDataset('tiny-imagenet', { path: root, perclass: 1 } as never), /tiny-imagenet options\.perclass: expected one of path, perClass/);
    await assert.rejects(loadTinyImageNet({ path: root, perClass: 0 }), /perClass/);
  });
});

test('Tiny-ImageNet: a missing release names the official zip; a missing class folder or a wrong image size is named', async () => {
  await withTempDir(async (dir) => {
    await assert.rejects(loadTinyImageNet({ path: dir }), (e: unknown) => e instanceof DatasetNotFoundError && /tiny-imagenet-200\.zip/.test((e as Error).message));
    await assert.rejects(loadTinyImageNet({ cacheDirectory: dir }), DatasetNotFoundError);
    const root = await writeRelease(dir);
    await writeFile(join(root, 'train', 'n01', 'images', 'n01_9.JPEG'), jpegOf([0, 0, 0], [0, 0, 0], 32));
    await assert.rejects(loadTinyImageNet({ path: root }), /n01_9\.JPEG: expected a 64 × 64 image, got 32 × 32/);
    await writeFile(join(root, 'wnids.txt'), 'n01\nn02\nn03\nn04\n');
    await assert.rejects(loadTinyImageNet({ path: root }), /train\/n04\/images is missing/);
  });
});
