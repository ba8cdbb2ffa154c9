import { test } from 'node:test';
import assert from 'node:assert/strict';
import { smoothEce, SmoothEceEvaluator } from '../../src/metrics/smooth/smooth-ece.js';
import { reflectedConvolve } from '../../src/metrics/smooth/reflected-gaussian-smoother.js';
import { Random } from '../../src/util/random.js';

test('reflected convolution keeps the total mass of a grid away from the edges and reflects it at the edges', () => {
  const g = new Float64Array(1001);
  g[500] = 1;
  const out = reflectedConvolve(g, 0.05);
  const mass = out.reduce((s, v) => s + v, 0) / 1000; // Riemann sum of the kernel
  assert.ok(Math.abs(mass - 1) < 1e-6, `mass ${mass}`);
  const edge = new Float64Array(1001);
  edge[0] = 1;
  const reflected = reflectedConvolve(edge, 0.05);
  assert.ok(Math.abs(reflected.reduce((s, v) => s + v, 0) / 1000 - 0.5) < 0.01); // ½ plus the half grid step at the edge
});

test('smooth ECE: 0-residual data gives ≈ 0, a constant offset gives ≈ the offset, σ* is its fixed point', () => {
  const rng = new Random(2);
  const n = 20000;
  const f = Float64Array.from({ length: n }, () => 0.3 + 0.4 * rng.uniform());
  const y = Uint8Array.from(f, (p) => (rng.uniform() < p - 0.2 ? 1 : 0));
  const r = smoothEce(f, y);
  assert.ok(Math.abs(r.value - 0.2) < 0.02, `smECE ${r.value}`);
  const e = new SmoothEceEvaluator(f, y);
  assert.ok(r.bandwidth >= e.at(r.bandwidth) - 1e-12, 'σ* ≥ smECE(σ*)');
  assert.ok(r.bandwidth - 1 / 1024 < e.at(r.bandwidth - 1 / 1024) + 1e-12, 'σ* − 2^-10 < smECE');
  const calibrated = Uint8Array.from(f, (p) => (rng.uniform() < p ? 1 : 0));
  assert.ok(smoothEce(f, calibrated).value < 0.02);
  // Confidences of exactly 0 and 1 are on the grid's ends.
  const ends = smoothEce(Float64Array.from([0, 1, 1, 0]), Uint8Array.from([0, 1, 1, 0]));
  assert.ok(ends.value < 1e-3, `${ends.value}`);
});
