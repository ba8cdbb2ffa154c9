import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drawMixup, featureOnlyMixup, mixRows, mixup } from '../../src/augment/mixup.js';
import { smoothLabels } from '../../src/augment/label-smoothing.js';
import { Random } from '../../src/util/random.js';

test('λ ~ Beta(0.2, 0.2) has mean 1/2 and variance 1/(4(2α + 1)) = 0.1786', () => {
  const rng = new Random(11);
  const n = 40000;
  let s = 0;
  let s2 = 0;
  let extreme = 0;
  for (let i = 0; i < n; i++) {
    const { lambda } = drawMixup(2, 0.2, rng);
    s += lambda;
    s2 += lambda * lambda;
    if (lambda < 0.05 || lambda > 0.95) extreme++;
  }
  const mean = s / n;
  const variance = s2 / n - mean * mean;
  assert.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`);
  assert.ok(Math.abs(variance - 1 / (4 * 1.4)) < 0.005, `variance ${variance}`);
  // U-shaped: P(λ < 0.05 or λ > 0.95) = 2·I_0.05(0.2, 0.2) ≈ 0.5821 (scipy.stats.beta(0.2, 0.2).cdf(0.05) = 0.291025)
  assert.ok(Math.abs(extreme / n - 0.5821) < 0.01, `extreme fraction ${extreme / n}`);
});

test('α = 0 disables mixing without consuming random numbers', () => {
  const rng = new Random(1);
  const state = rng.getState();
  const x = Float32Array.from([1, 2, 3, 4, 5, 6]);
  const out = mixup(x, Int32Array.from([0, 2, 1]), { alpha: 0, rng, classes: 3 });
  assert.equal(out.lambda, 1);
  assert.deepEqual(Array.from(out.perm), [0, 1, 2]);
  assert.deepEqual(out.inputs, x);
  assert.deepEqual(Array.from(out.targets), [1, 0, 0, 0, 0, 1, 0, 1, 0]);
  assert.deepEqual(rng.getState(), state);
});

test('mixed inputs and targets follow x̃ = λx + (1 − λ)x[π] and rows of q̃ sum to 1', () => {
  const b = 16;
  const d = 5;
  const c = 4;
  const rng = new Random(3);
  const x = Float32Array.from({ length: b * d }, () => rng.uniform());
  const labels = Int32Array.from({ length: b }, () => rng.int(c));
  const q = smoothLabels(labels, c, 0.1);
  const out = mixup(x, q, { alpha: 0.4, rng: new Random(8), classes: c });
  const { lambda, perm } = drawMixup(b, 0.4, new Random(8));
  assert.equal(out.lambda, lambda);
  assert.deepEqual(out.perm, perm);
  assert.deepEqual(
    [...perm].sort((u, v) => u - v),
    Array.from({ length: b }, (_, i) => i),
  );
  for (let i = 0; i < b; i++) {
    for (let j = 0; j < d; j++) assert.ok(Math.abs(out.inputs[i * d + j]! - (lambda * x[i * d + j]! + (1 - lambda) * x[perm[i]! * d + j]!)) < 1e-6);
    let sum = 0;
    for (let k = 0; k < c; k++) {
      const expected = lambda * q[i * c + k]! + (1 - lambda) * q[perm[i]! * c + k]!;
      assert.ok(Math.abs(out.targets[i * c + k]! - expected) < 1e-6);
      sum += out.targets[i * c + k]!;
    }
    assert.ok(Math.abs(sum - 1) < 1e-6);
  }
});

test('feature-only mixup keeps the label of the nearer sample', () => {
  const labels = Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
  const x = Float32Array.from({ length: 8 }, (_, i) => i);
  let sawBelow = false;
  let sawAbove = false;
  for (let seed = 0; seed < 40; seed++) {
    const out = featureOnlyMixup(x, labels, { alpha: 1, rng: new Random(seed) });
    const nearer = out.lambda >= 0.5 ? labels : Int32Array.from(out.perm, (p) => labels[p]!);
    assert.deepEqual(out.labels, nearer);
    for (let i = 0; i < 8; i++) assert.ok(Math.abs(out.inputs[i]! - (out.lambda * i + (1 - out.lambda) * out.perm[i]!)) < 1e-5);
    if (out.lambda < 0.5) sawBelow = true;
    else sawAbove = true;
  }
  assert.ok(sawBelow && sawAbove);
});

test('mixup validates its inputs', () => {
  const rng = new Random(0);
  assert.throws(() => mixup(new Float32Array(5), Int32Array.from([0, 1]), { alpha: 0.2, rng, classes: 2 }), /inputs: expected B = 2 samples/);
  assert.throws(() => mixup(new Float32Array(4), Int32Array.from([0, 1]), { alpha: -1, rng, classes: 2 }), /alpha: expected a finite number ≥ 0, got -1/);
  assert.throws(() => mixup(new Float32Array(4), new Float32Array(4), { alpha: 0.2, rng }), /classes: expected an integer, got undefined/);
  assert.throws(() => mixRows(new Float32Array(3), { lambda: 0.5, perm: Int32Array.from([1, 0]) }), /rows: expected a multiple of the batch size 2/);
});
