import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOG_CLIP, checkPredictions, logProbabilitiesOf, logitsOf, normalizeRowsInPlace, probabilitiesOf } from '../../src/posthoc/predictions.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { mat } from './helpers.js';

test('log-probabilities of logits are the exact log-softmax, even for logits of magnitude 1e3', () => {
  const lp = logProbabilitiesOf(checkPredictions('input', { logits: mat(2, 3, [1000, -1000, 0, 1, 2, 3]) }));
  assert.deepEqual(Array.from(lp.subarray(0, 3)), [0, -2000, -1000]);
  const s = Math.log(Math.exp(1) + Math.exp(2) + Math.exp(3));
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(lp[3 + k]! - (k + 1 - s)) < 1e-15);
});

test('probabilities of 0 become log 2.2e-308 = −708.4 when logits or log-probabilities are needed', () => {
  const input = checkPredictions('input', { probabilities: mat(1, 3, [1, 0, 0]) });
  assert.deepEqual(Array.from(logitsOf(input)), [0, Math.log(LOG_CLIP), Math.log(LOG_CLIP)]);
  assert.ok(Math.abs(Math.log(LOG_CLIP) + 708.3964185322641) < 1e-9);
  assert.deepEqual(Array.from(logProbabilitiesOf(input)), [0, Math.log(LOG_CLIP), Math.log(LOG_CLIP)]);
  assert.deepEqual(Array.from(probabilitiesOf(input)), [1, 0, 0]);
});

test('softmax of logits is stable and normalising a zero row gives the uniform distribution', () => {
  const p = probabilitiesOf(checkPredictions('input', { logits: { rows: 1, cols: 2, data: Float32Array.of(1000, -1000) } }));
  assert.deepEqual(Array.from(p), [1, 0]);
  assert.deepEqual(Array.from(normalizeRowsInPlace(Float64Array.of(0, 0, 0, 1, 3, 0), 2, 3)), [1 / 3, 1 / 3, 1 / 3, 0.25, 0.75, 0]);
});

test('malformed predictions are rejected with the argument named', () => {
  const named = (pattern: RegExp) => (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message);
  assert.throws(() => checkPredictions('input', mat(1, 2, [0, 1])), named(/^input: expected exactly one key/));
  assert.throws(() => checkPredictions('input', { logits: mat(1, 1, [0]) }), named(/^input\.logits\.cols: expected an integer ≥ 2/));
  assert.throws(() => checkPredictions('input', { logits: { rows: 2, cols: 2, data: new Float64Array(3) } }), named(/^input\.logits\.data: expected length rows × cols = 4/));
  assert.throws(() => checkPredictions('input', { logits: { rows: 1, cols: 2, data: [0, 1] } }), named(/^input\.logits\.data: expected a Float32Array or Float64Array/));
  assert.throws(() => checkPredictions('input', { probabilities: mat(1, 2, [-0.1, 1.1]) }), named(/^input\.probabilities: expected non-negative probabilities/));
  assert.throws(() => checkPredictions('input', { logits: mat(0, 2, []) }), named(/^input\.logits\.rows: expected an integer ≥ 1/));
});
