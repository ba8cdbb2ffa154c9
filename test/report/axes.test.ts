import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linearScale, niceTicks, unitTicks } from '../../src/report/axes.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

test('niceTicks picks a 1/2/2.5/5 × 10^k step and the first multiple at or above the maximum', () => {
  assert.deepEqual(niceTicks(0.5), [0, 0.1, 0.2, 0.3, 0.4, 0.5]);
  assert.deepEqual(niceTicks(0.57), [0, 0.2, 0.4, 0.6]);
  assert.deepEqual(niceTicks(0.16), [0, 0.05, 0.1, 0.15, 0.2]);
  assert.deepEqual(niceTicks(1, 5, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  // raw step 0.0128/5 = 0.00256 > 0.0025, so the step is 0.005
  assert.deepEqual(niceTicks(0.0128), [0, 0.005, 0.01, 0.015]);
  assert.deepEqual(niceTicks(0.012), [0, 0.0025, 0.005, 0.0075, 0.01, 0.0125]);
  assert.deepEqual(niceTicks(7, 4), [0, 2, 4, 6, 8]);
});

test('niceTicks never exceeds the cap and always ends at the limit', () => {
  for (const max of [0.01, 0.123, 0.33, 0.51, 0.77, 0.99, 1]) {
    const t = niceTicks(max, 5, 1);
    assert.ok(t[t.length - 1]! >= max - 1e-12 && t[t.length - 1]! <= 1, `max ${max}: ${t}`);
    assert.ok(t.length <= 7);
  }
  assert.throws(() => niceTicks(0), InvalidArgumentError);
  assert.throws(() => niceTicks(Number.NaN), InvalidArgumentError);
});

test('linearScale maps the domain ends to the range ends, including inverted pixel ranges', () => {
  const y = linearScale(0, 1, 300, 100);
  assert.equal(y(0), 300);
  assert.equal(y(1), 100);
  assert.equal(y(0.25), 250);
  assert.throws(() => linearScale(1, 1, 0, 1), InvalidArgumentError);
  assert.deepEqual(unitTicks(4), [0, 0.25, 0.5, 0.75, 1]);
});
