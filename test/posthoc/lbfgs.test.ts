import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lbfgs, type Objective } from '../../src/posthoc/solvers/lbfgs.js';

/** Extended Rosenbrock: Σ 100 (x_{2i+1} − x_{2i}²)² + (1 − x_{2i})², minimum 0 at all ones. */
const rosenbrock: Objective = (x, g) => {
  let f = 0;
  g.fill(0);
  for (let i = 0; i + 1 < x.length; i += 2) {
    const a = x[i]!;
    const b = x[i + 1]!;
    const t = b - a * a;
    f += 100 * t * t + (1 - a) * (1 - a);
    g[i] = -400 * t * a - 2 * (1 - a);
    g[i + 1] = 200 * t;
  }
  return f;
};

test('L-BFGS finds the minimum of the 2-D and 20-D Rosenbrock functions', () => {
  for (const n of [2, 20]) {
    const x0 = new Float64Array(n);
    for (let i = 0; i < n; i += 2) {
      x0[i] = -1.2;
      x0[i + 1] = 1;
    }
    const r = lbfgs(rosenbrock, x0, { maxIterations: 2000 });
    assert.ok(r.converged, `n = ${n}: ${r.reason}`);
    for (const v of r.x) assert.ok(Math.abs(v - 1) < 1e-6, `n = ${n}: x = ${Array.from(r.x)}`);
    assert.ok(r.f < 1e-12);
    assert.equal(x0[0], -1.2, 'the start point is not modified');
  }
});

test('L-BFGS solves an ill-conditioned quadratic to its exact minimiser', () => {
  // f(x) = ½ Σ_i λ_i (x_i − c_i)², λ from 1 to 1e4.
  const n = 30;
  const lambda = Float64Array.from({ length: n }, (_, i) => Math.pow(10, (4 * i) / (n - 1)));
  const c = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
  const quad: Objective = (x, g) => {
    let f = 0;
    for (let i = 0; i < n; i++) {
      const r = x[i]! - c[i]!;
      f += 0.5 * lambda[i]! * r * r;
      g[i] = lambda[i]! * r;
    }
    return f;
  };
  const r = lbfgs(quad, new Float64Array(n), { gradientTolerance: 1e-10, relativeTolerance: 0, maxIterations: 5000 });
  assert.equal(r.reason, 'gradient');
  assert.ok(r.converged, r.reason);
  for (let i = 0; i < n; i++) assert.ok(Math.abs(r.x[i]! - c[i]!) < 1e-10);
});

test('L-BFGS is deterministic and reports the iteration cap when it is reached', () => {
  const x0 = Float64Array.from([-1.2, 1]);
  const a = lbfgs(rosenbrock, x0);
  const b = lbfgs(rosenbrock, x0);
  assert.deepEqual(Array.from(a.x), Array.from(b.x));
  assert.equal(a.evaluations, b.evaluations);
  const capped = lbfgs(rosenbrock, x0, { maxIterations: 3 });
  assert.equal(capped.converged, false);
  assert.equal(capped.reason, 'max-iterations');
  assert.equal(capped.iterations, 3);
});

test('L-BFGS steps back from regions where the objective is not finite', () => {
  // f = x − log(x) on x > 0 (minimum at 1), +∞ elsewhere; a full first step from 0.1 would leave the domain.
  const f: Objective = (x, g) => {
    const v = x[0]!;
    g[0] = 1 - 1 / v;
    return v > 0 ? v - Math.log(v) : NaN;
  };
  const r = lbfgs(f, Float64Array.from([0.01]));
  assert.ok(r.converged, r.reason);
  assert.ok(Math.abs(r.x[0]! - 1) < 1e-8);
});
