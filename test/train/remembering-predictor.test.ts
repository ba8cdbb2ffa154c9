import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rememberingPredictor, type RunPredictor } from '../../src/train/run/run-predictor.js';

test('rememberingPredictor computes each listed (weights, inputs) pair once and recomputes everything else', () => {
  const calls: string[] = [];
  let disposed = 0;
  const inner: RunPredictor = {
    logits: (weights, inputs) => {
      calls.push(`${weights.params[0]}:${inputs.length}`);
      return Float32Array.from(inputs, (v) => v * weights.params[0]!);
    },
    mcDropout: { passes: 3, rate: 0.3, seed: 1 },
    dispose: () => disposed++,
  };
  const w1 = { params: Float32Array.of(2), buffers: new Float32Array(0) };
  const w2 = { params: Float32Array.of(3), buffers: new Float32Array(0) };
  const test = Float32Array.of(1, 2, 3);
  const validation = Float32Array.of(4, 5);
  const p = rememberingPredictor(inner, [test]);
  const first = p.logits(w1, test);
  assert.deepEqual(Array.from(first), [2, 4, 6]);
  assert.equal(p.logits(w1, test), first, 'the same pair again: the same array, not recomputed');
  assert.deepEqual(Array.from(p.logits(w1, validation)), [8, 10]);
  assert.deepEqual(Array.from(p.logits(w2, test)), [3, 6, 9], 'other weights: recomputed');
  assert.deepEqual(Array.from(p.logits(w1, Float32Array.of(1, 2, 3))), [2, 4, 6]);
  // An unlisted array reused with new contents (the OOD evaluation's corrupted sets) is computed every time.
  const scratch = Float32Array.of(1, 1);
  assert.deepEqual(Array.from(p.logits(w1, scratch)), [2, 2]);
  scratch.fill(5);
  assert.deepEqual(Array.from(p.logits(w1, scratch)), [10, 10]);
  assert.deepEqual(Array.from(p.logits(w1, validation)), [8, 10]);
  assert.deepEqual(calls, ['2:3', '2:2', '3:3', '2:3', '2:2', '2:2', '2:2'], 'equal contents in another array are computed again (identity, not contents)');
  assert.deepEqual(p.mcDropout, inner.mcDropout);
  p.dispose();
  assert.equal(disposed, 1);
});
