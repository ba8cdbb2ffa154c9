import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsortStable } from '../../src/metrics/numeric/argsort.js';
import { sortTopLabel } from '../../src/metrics/numeric/sorted-top-label.js';
import { Random } from '../../src/util/random.js';

function naiveArgsort(keys: ArrayLike<number>): number[] {
  const idx = Array.from({ length: keys.length }, (_, i) => i);
  return idx.sort((a, b) => {
    const ka = keys[a]!;
    const kb = keys[b]!;
    if (ka !== kb) return ka < kb ? -1 : 1;
    if (Object.is(ka, -0) !== Object.is(kb, -0)) return Object.is(ka, -0) ? -1 : 1;
    return a - b;
  });
}

test('stable argsort orders mixed-sign floats with ties in input order', () => {
  const keys = Float64Array.from([0.5, -1, 0.5, 3, -1e300, 0, 1e-310, -0, 0.5, Infinity, -Infinity, 2]);
  assert.deepEqual(Array.from(argsortStable(keys)), naiveArgsort(keys));
});

test('stable argsort matches a comparison sort on random keys with many ties, float32 and float64', () => {
  const rng = new Random(11);
  for (const n of [0, 1, 2, 17, 5000]) {
    const a = new Float64Array(n);
    for (let i = 0; i < n; i++) a[i] = rng.uniform() < 0.3 ? rng.int(5) / 4 : (rng.uniform() - 0.3) * 10 ** rng.int(6);
    assert.deepEqual(Array.from(argsortStable(a)), naiveArgsort(a));
    const f = Float32Array.from(a);
    assert.deepEqual(Array.from(argsortStable(f)), naiveArgsort(f));
  }
});

test('sorting top-label pairs keeps each correctness flag with its confidence and ties in input order', () => {
  const rng = new Random(12);
  for (const n of [0, 1, 3, 4000]) {
    const conf = new Float64Array(n);
    const correct = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      conf[i] = i % 3 === 0 ? rng.int(4) / 4 : i % 3 === 1 ? Math.fround(rng.uniform()) : rng.uniform();
      correct[i] = rng.int(2);
    }
    const order = naiveArgsort(conf);
    const sorted = sortTopLabel(conf, correct);
    assert.deepEqual(
      Array.from(sorted.confidence),
      order.map((i) => conf[i]!),
    );
    assert.deepEqual(
      Array.from(sorted.correct),
      order.map((i) => correct[i]!),
    );
    assert.equal(sorted.float32, false);
    assert.equal(sortTopLabel(Float32Array.from(conf), correct).float32, true);
  }
});

test('the float32 sort (32-bit keys inside the result) equals a comparison sort, whichever of its two passes run', () => {
  const rng = new Random(13);
  const cases: [string, (i: number) => number][] = [
    ['random with ties', (i) => (i % 4 === 0 ? rng.int(8) / 8 : rng.uniform())],
    ['low digit constant (only the high pass runs)', () => rng.int(64) / 64],
    ['high digit constant (only the low pass runs)', () => 0.5 + rng.int(60000) * 2 ** -24],
    ['all equal (no pass runs)', () => 0.75],
    ['exactly 0 and 1', (i) => (i % 2 === 0 ? 0 : 1)],
  ];
  for (const [name, value] of cases) {
    for (const n of [0, 1, 2, 3, 3001]) {
      const conf = new Float32Array(n);
      const correct = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        conf[i] = value(i);
        correct[i] = rng.int(2);
      }
      const before = correct.slice();
      const order = naiveArgsort(conf);
      const sorted = sortTopLabel(conf, correct, true);
      assert.equal(sorted.float32, true);
      assert.deepEqual(
        Array.from(sorted.confidence),
        order.map((i) => conf[i]!),
        `${name}, n = ${n}`,
      );
      assert.deepEqual(
        Array.from(sorted.correct),
        order.map((i) => correct[i]!),
        `${name}, n = ${n}: flags`,
      );
      assert.notEqual(sorted.correct, correct, 'a new flag array, not the input');
      assert.deepEqual(correct, before, 'the input flags are untouched');
    }
  }
});
