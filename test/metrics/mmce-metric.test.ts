import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mmce } from '../../src/metrics/smooth/mmce.js';
import { Random } from '../../src/util/random.js';
import { close } from './helpers.js';

function naiveMmce(c: Float64Array, a: Uint8Array, w = 0.4): number {
  let s = 0;
  for (let i = 0; i < c.length; i++) for (let j = 0; j < c.length; j++) s += (a[i]! - c[i]!) * (a[j]! - c[j]!) * Math.exp(-Math.abs(c[i]! - c[j]!) / w);
  return Math.sqrt(Math.max(0, s)) / c.length;
}

test('MMCE of one sample is |a − c|', () => {
  close(mmce(Float64Array.from([0.8]), Uint8Array.from([0])), 0.8, 1e-15);
});

test('MMCE (O(N) recursion over sorted confidences) equals the O(N²) double sum, with ties', () => {
  const rng = new Random(3);
  for (const n of [2, 7, 300]) {
    const c = Float64Array.from({ length: n }, () => Math.round(rng.uniform() * 20) / 20);
    const a = Uint8Array.from({ length: n }, (_, i) => (rng.uniform() < c[i]! ? 1 : 0));
    close(mmce(c, a), naiveMmce(c, a), 1e-13, `n=${n}`);
    close(mmce(c, a, 0.1), naiveMmce(c, a, 0.1), 1e-13, `n=${n}, w=0.1`);
  }
});

test('MMCE is 0 for exact 0/1 confidences that are right, and survives confidences of exactly 0 and 1', () => {
  assert.equal(mmce(Float64Array.from([1, 0, 1]), Uint8Array.from([1, 0, 1])), 0);
  assert.ok(mmce(Float64Array.from([1, 1]), Uint8Array.from([0, 0])) > 0.99);
});
