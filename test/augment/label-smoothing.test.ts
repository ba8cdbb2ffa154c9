import { test } from 'node:test';
import assert from 'node:assert/strict';
import { oneHot, smoothLabels } from '../../src/augment/label-smoothing.js';

test('uniform smoothing puts 1 − ε + ε/C on the label and ε/C elsewhere (hand-worked C = 4, ε = 0.1)', () => {
  const q = smoothLabels(Int32Array.from([2]), 4, 0.1);
  assert.deepEqual(Array.from(q), [0.025, 0.025, 0.925, 0.025].map(Math.fround));
});

test('the MDCA variant puts 1 − ε on the label and ε/(C − 1) elsewhere', () => {
  const q = smoothLabels(Int32Array.from([0, 1]), 3, 0.3, 'others');
  assert.deepEqual(Array.from(q), [0.7, 0.15, 0.15, 0.15, 0.7, 0.15].map(Math.fround));
});

test('ε = 0 gives one-hot targets and every row sums to 1', () => {
  const labels = Int32Array.from([3, 0, 9, 5]);
  assert.deepEqual(smoothLabels(labels, 10, 0), oneHot(labels, 10));
  const q = smoothLabels(labels, 10, 0.37);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(q.subarray(i * 10, i * 10 + 10).reduce((a, b) => a + b, 0) - 1) < 1e-6);
  assert.throws(() => oneHot(Int32Array.from([10]), 10), /labels\[0\]: expected a class index in \[0, 10\), got 10/);
  assert.throws(() => smoothLabels(labels, 10, 1.5), /epsilon: expected a finite number ≤ 1, got 1\.5/);
});
