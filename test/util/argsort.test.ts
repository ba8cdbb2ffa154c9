import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argsortFloat64 } from '../../src/util/argsort.js';
import { Random } from '../../src/util/random.js';

test('argsortFloat64: the stable ascending order of a comparator sort, negatives, ties, zeros and extremes included', () => {
  const rng = new Random(7);
  const special = [0, -0, 1, -1, 5e-324, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, 1e-15, 0.5, 0.5];
  for (const n of [0, 1, 2, 13, 1000, 70_000]) {
    const x = Float64Array.from({ length: n }, (_, i) =>
      i < special.length && n < 1000 ? special[i]! : rng.uniform() < 0.3 ? Math.round(rng.normal() * 3) : rng.normal() * 10 ** Math.round(rng.normal() * 5),
    );
    const expected = Array.from({ length: n }, (_, i) => i).sort(
      (i, j) => x[i]! - x[j]! || (Object.is(x[i], -0) && Object.is(x[j], 0) ? -1 : Object.is(x[i], 0) && Object.is(x[j], -0) ? 1 : 0) || i - j,
    );
    assert.deepEqual(Array.from(argsortFloat64(x)), expected, `n = ${n}`);
  }
  // All equal: identity (stable).
  assert.deepEqual(Array.from(argsortFloat64(new Float64Array(5).fill(0.25))), [0, 1, 2, 3, 4]);
});
