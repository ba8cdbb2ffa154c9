import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argmaxRow } from '../../src/util/argmax.js';

test('argmaxRow: index of the largest value of a row, relative to the offset, first one on ties', () => {
  const rows = new Float64Array([0.1, 0.7, 0.2, /* row 1 */ 3, -1, 3, /* row 2 */ -5, -2, -2]);
  assert.deepEqual(
    [0, 1, 2].map((i) => argmaxRow(rows, 3 * i, 3)),
    [1, 0, 1],
  );
  assert.equal(argmaxRow(new Float32Array([-Infinity, -Infinity]), 0, 2), 0);
  assert.equal(argmaxRow([-0, 0], 0, 2), 0); // −0 and +0 tie
  assert.equal(argmaxRow([1, NaN, 2], 0, 3), 2); // NaN never wins after position 0
  assert.equal(argmaxRow([NaN, 1, 2], 0, 3), 0);
  assert.equal(argmaxRow([4], 0, 1), 0);
});
