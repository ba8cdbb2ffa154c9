import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ensembleProbabilities } from '../../src/metrics/ensemble-average.js';
import { matrix } from '../../src/util/matrix.js';

test("the ensemble averages the members' softmax probabilities (by hand), or their probabilities", () => {
  // softmax([0, 0]) = [0.5, 0.5]; softmax([ln 3, 0]) = [0.75, 0.25]; mean [0.625, 0.375].
  const p = ensembleProbabilities([matrix(1, 2, new Float64Array([0, 0])), matrix(1, 2, new Float64Array([Math.log(3), 0]))]);
  assert.ok(Math.abs(p.data[0]! - 0.625) < 1e-15 && Math.abs(p.data[1]! - 0.375) < 1e-15, Array.from(p.data).join());
  const q = ensembleProbabilities([matrix(2, 2, new Float64Array([1, 0, 0.2, 0.8])), matrix(2, 2, new Float64Array([0, 1, 0.4, 0.6]))], 'probabilities');
  assert.deepEqual(
    Array.from(q.data).map((v) => Number(v.toFixed(12))),
    [0.5, 0.5, 0.3, 0.7],
  );
  // Logits of magnitude 1e3 stay finite (max-shifted softmax).
  const big = ensembleProbabilities([matrix(1, 2, new Float32Array([1000, -1000])), matrix(1, 2, new Float32Array([-1000, 1000]))]);
  assert.deepEqual(Array.from(big.data), [0.5, 0.5]);
  assert.throws(() => ensembleProbabilities([]), /members: expected at least one prediction matrix/);
  assert.throws(() => ensembleProbabilities([matrix(1, 2, new Float64Array(2)), matrix(2, 2, new Float64Array(4))]), /members\[1\]: expected a 1 × 2 matrix like members\[0\], got 2 × 2/);
  assert.throws(() => ensembleProbabilities([matrix(1, 2, new Float64Array([1.5, -0.5]))], 'probabilities'), /members\[0\]/);
});
