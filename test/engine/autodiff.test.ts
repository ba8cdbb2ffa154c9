import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as E from '../../src/engine/index.js';

const f64 = (...shape: number[]) => ({ dtype: 'float64', shape }) as const;
const run = (g: E.Graph, feeds: Record<string, number[]>) => Object.fromEntries(Object.entries(E.evaluate(g, feeds)).map(([k, v]) => [k, Array.from(v.data)]));

test('gradients accumulate over every use of a tensor (fan-out)', () => {
  // L = Σ x² + 3 Σ x → dL/dx = 2x + 3.
  const g = E.trace(({ x }) => E.grad(x.mul(x).sum().add(x.mul(3).sum()), [x])[0]!, { x: f64(3) });
  assert.deepEqual(run(g, { x: [1, -2, 0.5] }).output, [5, -1, 4]);
});

test('broadcast operands receive gradients summed back to their own shape', () => {
  // y = a [2,3] + b [3]; L = Σ y·w with w = [[1,2,3],[4,5,6]] → dL/db = [5, 7, 9], dL/da = w.
  const g = E.trace(
    ({ a, b }) => {
      const w = E.constant([1, 2, 3, 4, 5, 6], { shape: [2, 3], dtype: 'float64' });
      const [da, db] = E.grad(a.add(b).mul(w).sum(), [a, b]);
      return { da: da!, db: db! };
    },
    { a: f64(2, 3), b: f64(3) },
  );
  const out = run(g, { a: [0, 0, 0, 0, 0, 0], b: [0, 0, 0] });
  assert.deepEqual(out.db, [5, 7, 9]);
  assert.deepEqual(out.da, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(g.outputs[1]!.tensor.shape, [3]);
});

test('stopGradient blocks gradient flow while leaving the forward value unchanged', () => {
  // L = Σ x · sg(x): forward Σ x², gradient sg(x) = x (not 2x).
  const g = E.trace(
    ({ x }) => {
      const L = x.mul(x.stopGradient()).sum();
      return { L, d: E.grad(L, [x])[0]! };
    },
    { x: f64(3) },
  );
  const out = run(g, { x: [1, 2, 3] });
  assert.deepEqual(out.L, [14]);
  assert.deepEqual(out.d, [1, 2, 3]);
});

test('inputs that do not influence the loss get zero gradients, and integer paths carry none', () => {
  const g = E.trace(
    ({ x, y, i }) => {
      const L = x.mul(i.cast('float64')).sum();
      const [dx, dy] = E.grad(L, [x, y]);
      return { dx: dx!, dy: dy! };
    },
    { x: f64(2), y: f64(2), i: { dtype: 'int32', shape: [2] } },
  );
  const out = run(g, { x: [1, 1], y: [5, 5], i: [3, 4] });
  assert.deepEqual(out.dx, [3, 4]);
  assert.deepEqual(out.dy, [0, 0]);
});

test('vjp with an explicit cotangent equals the gradient of the weighted sum', () => {
  const g = E.trace(
    ({ x }) => {
      const y = x.exp();
      const u = E.constant([1, -2], { dtype: 'float64' });
      const [a] = E.vjp([y], [u], [x]);
      const [b] = E.grad(y.mul(u).sum(), [x]);
      return { a: a!, b: b! };
    },
    { x: f64(2) },
  );
  const out = run(g, { x: [0.3, -0.7] });
  assert.deepEqual(out.a, out.b);
  assert.ok(Math.abs(out.a![0]! - Math.exp(0.3)) < 1e-15);
});

test('gradient with respect to an intermediate value treats it as a leaf', () => {
  const g = E.trace(
    ({ x }) => {
      const h = x.mul(2);
      return E.grad(h.mul(h).sum(), [h])[0]!;
    },
    { x: f64(2) },
  );
  assert.deepEqual(run(g, { x: [1, 3] }).output, [4, 12]);
});

test('checkGradients catches a wrong gradient rule', () => {
  // A deliberately wrong "square" whose gradient is off by a factor (built with stopGradient): d/dx x·sg(x) = x ≠ 2x.
  const report = E.checkGradients(({ x }) => x!.mul(x!.stopGradient()), { x: { shape: [3], data: [0.5, -1, 2] } });
  assert.equal(report.ok, false);
  const good = E.checkGradients(({ x }) => x!.mul(x!), { x: { shape: [3], data: [0.5, -1, 2] } });
  assert.equal(good.ok, true);
  assert.deepEqual(Array.from(good.gradients.x!).length, 3);
  assert.throws(() => E.assertGradients(({ x }) => x!.mul(x!.stopGradient()), { x: { shape: [3], data: [0.5, -1, 2] } }), /gradient check failed/);
});
