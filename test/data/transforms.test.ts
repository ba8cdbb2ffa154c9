import { test } from 'node:test';
import assert from 'node:assert/strict';
import { augmentBatch, channelMeanStd, flipImage, normalize, randomCrop, randomHorizontalFlip, shiftImage } from '../../src/data/transforms.js';
import { Random } from '../../src/util/random.js';
import { smoothImages } from './helpers.js';

test('a crop offset shifts the content and fills the border with zeros (hand-worked 3×3)', () => {
  const img = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  shiftImage(img, [1, 1, 3, 3], 0, 1, -1);
  // out[y][x] = in[y + 1][x − 1]
  assert.deepEqual(Array.from(img), [0, 4, 5, 0, 7, 8, 0, 0, 0]);
});

test('random crop with padding 4 moves every pixel by the returned shift', () => {
  const shape = [8, 3, 32, 32] as const;
  const original = smoothImages(8, 3, 32, 32, 1);
  const images = original.slice();
  const shifts = randomCrop(images, shape, 4, new Random(7));
  let nonZeroShift = 0;
  for (let i = 0; i < 8; i++) {
    const dy = shifts[2 * i]!;
    const dx = shifts[2 * i + 1]!;
    assert.ok(Math.abs(dy) <= 4 && Math.abs(dx) <= 4);
    if (dy !== 0 || dx !== 0) nonZeroShift++;
    for (let k = 0; k < 3; k++) {
      for (let y = 0; y < 32; y++) {
        for (let x = 0; x < 32; x++) {
          const sy = y + dy;
          const sx = x + dx;
          const expected = sy >= 0 && sy < 32 && sx >= 0 && sx < 32 ? original[((i * 3 + k) * 32 + sy) * 32 + sx]! : 0;
          assert.equal(images[((i * 3 + k) * 32 + y) * 32 + x], expected);
        }
      }
    }
  }
  assert.ok(nonZeroShift >= 6);
  const again = original.slice();
  assert.deepEqual(randomCrop(again, shape, 4, new Random(7)), shifts, 'same seed, same crops');
  const unpadded = original.slice();
  randomCrop(unpadded, shape, 0, new Random(7));
  assert.deepEqual(unpadded, original, 'padding 0 is the identity');
});

test('random crop offsets cover all 81 positions roughly uniformly', () => {
  const n = 8100;
  const counts = new Map<string, number>();
  const shifts = randomCrop(new Float32Array(n), [n, 1, 1, 1], 4, new Random(3));
  for (let i = 0; i < n; i++) {
    const key = `${shifts[2 * i]},${shifts[2 * i + 1]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  assert.equal(counts.size, 81);
  for (const c of counts.values()) assert.ok(c > 50 && c < 150);
});

test('flipping twice is the identity and a flip mirrors each row', () => {
  const img = Float32Array.from([1, 2, 3, 4, 5, 6]);
  flipImage(img, [1, 1, 2, 3], 0);
  assert.deepEqual(Array.from(img), [3, 2, 1, 6, 5, 4]);
  const original = smoothImages(16, 3, 9, 9, 2);
  const images = original.slice();
  const flags = randomHorizontalFlip(images, [16, 3, 9, 9], new Random(1));
  assert.ok(flags.some((f) => f === 1) && flags.some((f) => f === 0));
  for (let i = 0; i < 16; i++) {
    const same = images.subarray(i * 243, (i + 1) * 243).every((v, j) => v === original[i * 243 + j]);
    assert.equal(same, flags[i] === 0);
  }
  for (let i = 0; i < 16; i++) if (flags[i]) flipImage(images, [16, 3, 9, 9], i);
  assert.deepEqual(images, original);
});

test('normalisation gives each channel zero mean and unit deviation with its own statistics', () => {
  const shape = [10, 3, 8, 8] as const;
  const images = smoothImages(10, 3, 8, 8, 5);
  const copy = images.slice();
  const { mean, std } = channelMeanStd(images, shape);
  // naive statistics of channel 1
  const values: number[] = [];
  for (let i = 0; i < 10; i++) for (let j = 0; j < 64; j++) values.push(copy[(i * 3 + 1) * 64 + j]!);
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  const s = Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / values.length);
  assert.ok(Math.abs(mean[1]! - m) < 1e-12 && Math.abs(std[1]! - s) < 1e-12);
  normalize(images, shape, mean, std);
  const after = channelMeanStd(images, shape);
  after.mean.forEach((v) => assert.ok(Math.abs(v) < 1e-5));
  after.std.forEach((v) => assert.ok(Math.abs(v - 1) < 1e-5));
  assert.ok(Math.abs(images[64 + 5]! - (copy[64 + 5]! - mean[1]!) / std[1]!) < 1e-6);
  assert.throws(() => normalize(images, shape, [0, 0], [1, 1]), /mean: expected 3 values/);
  assert.throws(() => normalize(images, shape, [0, 0, 0], [1, 0, 1]), /std\[1\]: expected a finite number > 0, got 0/);
});

test('augmentBatch is crop, then flip, then normalisation with the same generator', () => {
  const shape = [4, 3, 8, 8] as const;
  const original = smoothImages(4, 3, 8, 8, 6);
  const a = original.slice();
  const mean = [0.5, 0.4, 0.3];
  const std = [0.2, 0.25, 0.3];
  augmentBatch(a, shape, new Random(12), { mean, std });
  const b = original.slice();
  const rng = new Random(12);
  randomCrop(b, shape, 4, rng);
  randomHorizontalFlip(b, shape, rng);
  normalize(b, shape, mean, std);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, original);
  assert.throws(() => augmentBatch(a, shape, rng, { mean }), /mean\/std: expected both or neither, got only mean/);
});
