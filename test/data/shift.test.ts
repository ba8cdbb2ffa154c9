import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageDataset } from '../../src/data/dataset.js';
import { gaussianNoiseDataset, gaussianNoiseImages, imageStatistics } from '../../src/data/shift.js';
import { Random } from '../../src/util/random.js';
import { moments, smoothImages } from './helpers.js';

const reference = imageDataset({
  name: 'ref',
  images: smoothImages(50, 2, 4, 4, 3),
  labels: new Int32Array(50),
  shape: [2, 4, 4],
  classes: 1,
});

test('per-pixel and per-channel statistics equal the naive mean and variance', () => {
  const px = imageStatistics(reference, 'pixel');
  const ch = imageStatistics(reference, 'channel');
  assert.equal(px.mean.length, 32);
  assert.equal(ch.mean.length, 2);
  const at = 21; // channel 1, row 1, column 1
  const m = moments(Array.from({ length: 50 }, (_, i) => reference.images[i * 32 + at]!));
  assert.ok(Math.abs(px.mean[at]! - m.mean) < 1e-12 && Math.abs(px.variance[at]! - m.variance) < 1e-12);
  const c1 = moments(Array.from({ length: 50 * 16 }, (_, j) => reference.images[Math.floor(j / 16) * 32 + 16 + (j % 16)]!));
  assert.ok(Math.abs(ch.mean[1]! - c1.mean) < 1e-12 && Math.abs(ch.variance[1]! - c1.variance) < 1e-12);
});

test('unclipped noise images have the requested per-pixel mean and variance', () => {
  const stats = imageStatistics(reference, 'pixel');
  const count = 20000;
  const noise = gaussianNoiseImages(stats, count, new Random(1), { clip: false });
  for (const j of [0, 7, 21, 31]) {
    const m = moments(Array.from({ length: count }, (_, i) => noise[i * 32 + j]!));
    const sd = Math.sqrt(stats.variance[j]!);
    assert.ok(Math.abs(m.mean - stats.mean[j]!) < (5 * sd) / Math.sqrt(count), `pixel ${j} mean`);
    assert.ok(Math.abs(m.variance / stats.variance[j]! - 1) < 0.05, `pixel ${j} variance`);
  }
});

test('per-channel noise matches each channel and clipping keeps values in [0, 1]', () => {
  const wide = { mode: 'channel' as const, shape: [2, 4, 4] as const, mean: Float64Array.from([0.5, 0.2]), variance: Float64Array.from([0.01, 0.09]) };
  const count = 5000;
  const free = gaussianNoiseImages(wide, count, new Random(2), { clip: false });
  const ch0 = moments(Array.from({ length: count * 16 }, (_, j) => free[Math.floor(j / 16) * 32 + (j % 16)]!));
  assert.ok(Math.abs(ch0.mean - 0.5) < 0.002 && Math.abs(ch0.variance - 0.01) < 0.0005);
  const clipped = gaussianNoiseImages(wide, count, new Random(2));
  assert.ok(clipped.every((v) => v >= 0 && v <= 1));
  assert.ok(
    clipped.some((v) => v === 0),
    'channel 1 (mean 0.2, sd 0.3) is clipped at 0',
  );
  const ds = gaussianNoiseDataset(reference, { count: 10, seed: 4 });
  assert.equal(ds.name, 'ref/gaussian-noise');
  assert.equal(ds.images.length, 10 * 32);
  assert.deepEqual(ds.images, gaussianNoiseDataset(reference, { count: 10, seed: 4 }).images);
});
