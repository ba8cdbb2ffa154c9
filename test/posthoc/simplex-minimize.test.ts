import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minimizeOnSimplex, type SimplexObjective } from '../../src/posthoc/solvers/simplex-minimize.js';
import { assertClose, lcg } from './helpers.js';

/** f(w) = |w − c|²: its minimiser on the simplex is the Euclidean projection of c. */
function distanceTo(c: readonly number[]): SimplexObjective {
  return (w, g, h) => {
    let f = 0;
    h.fill(0);
    for (let j = 0; j < c.length; j++) {
      f += (w[j]! - c[j]!) ** 2;
      g[j] = 2 * (w[j]! - c[j]!);
      h[j * c.length + j] = 2;
    }
    return f;
  };
}

/** Projection onto the simplex by sorting (Held, Wolfe & Crowder 1974), written independently. */
function naiveProjection(c: readonly number[]): number[] {
  const u = [...c].sort((a, b) => b - a);
  let sum = 0;
  let theta = 0;
  for (let j = 0; j < u.length; j++) {
    sum += u[j]!;
    const t = (sum - 1) / (j + 1);
    if (u[j]! - t > 0) theta = t;
  }
  return c.map((v) => Math.max(v - theta, 0));
}

test('projections onto the 2-simplex worked by hand: edge, vertex and interior optima', () => {
  // c = (0.5, 0.8, −0.3): the two largest shifted by θ = (0.5 + 0.8 − 1)/2 = 0.15 → (0.35, 0.65, 0).
  let r = minimizeOnSimplex(distanceTo([0.5, 0.8, -0.3]), 3);
  assertClose(r.weights, [0.35, 0.65, 0], 1e-15, 0, 'edge');
  assert.ok(Object.is(r.weights[2], 0), 'the inactive weight is exactly 0');
  assert.ok(Math.abs(r.value - (0.15 ** 2 * 2 + 0.3 ** 2)) < 1e-15);
  // c = (2, 0, 0) → the vertex (1, 0, 0), exactly.
  r = minimizeOnSimplex(distanceTo([2, 0, 0]), 3);
  assert.deepEqual(Array.from(r.weights), [1, 0, 0]);
  // c already on the simplex → itself.
  r = minimizeOnSimplex(distanceTo([0.5, 0.3, 0.2]), 3);
  assertClose(r.weights, [0.5, 0.3, 0.2], 1e-15, 0, 'interior');
});

test('random projections in 3 and 5 dimensions match the sorting algorithm', () => {
  const rand = lcg(7);
  for (const d of [3, 5]) {
    for (let trial = 0; trial < 40; trial++) {
      const c = Array.from({ length: d }, () => 3 * rand() - 1);
      const r = minimizeOnSimplex(distanceTo(c), d);
      assertClose(r.weights, naiveProjection(c), 1e-13, 0, `d = ${d}, c = ${c.map((v) => v.toFixed(3))}`);
      let sum = 0;
      for (const v of r.weights) {
        assert.ok(v >= 0);
        sum += v;
      }
      assert.ok(Math.abs(sum - 1) <= 1e-15);
    }
  }
});

test('a log objective that is unbounded outside the simplex and infinite on part of its boundary', () => {
  // f(w) = −½ log(w₀ + 2 w₂) − ½ log(w₀): unbounded below on the plane Σw = 1 (w₀ → ∞), +∞ where w₀ = 0.
  // On the simplex: w₁ = 0, f = −½ log(1 + w₂) − ½ log(1 − w₂) is minimised at w₂ = 0 → the vertex (1, 0, 0).
  const f: SimplexObjective = (w, g, h) => {
    const a = w[0]! + 2 * w[2]!;
    const b = w[0]!;
    if (!(a > 0 && b > 0)) return Infinity;
    g[0] = -0.5 / a - 0.5 / b;
    g[1] = 0;
    g[2] = -1 / a;
    h.fill(0);
    h[0] = 0.5 / a ** 2 + 0.5 / b ** 2;
    h[2] = h[6] = 1 / a ** 2;
    h[8] = 2 / a ** 2;
    return -0.5 * Math.log(a) - 0.5 * Math.log(b);
  };
  const r = minimizeOnSimplex(f, 3);
  assert.deepEqual(Array.from(r.weights), [1, 0, 0]);
  assert.ok(r.value === 0);
});

test('dimensions outside 1 … 8 are refused', () => {
  assert.throws(() => minimizeOnSimplex(distanceTo([]), 0), RangeError);
  assert.throws(() => minimizeOnSimplex(distanceTo([]), 9), RangeError);
});
