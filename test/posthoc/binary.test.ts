import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitBeta } from '../../src/posthoc/scaling/beta.js';
import { logisticObjective } from '../../src/posthoc/scaling/logistic-regression.js';
import { newtonMinimize } from '../../src/posthoc/solvers/newton.js';
import { fitPlatt } from '../../src/posthoc/scaling/platt.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { assertProbabilityRows, lcg, loadReference, mat } from './helpers.js';

/** Two-class logits [0, f] for class-1 logits f. */
function binaryLogits(f: number[]) {
  return mat(
    f.length,
    2,
    f.flatMap((v) => [0, v]),
  );
}

test('the logistic objective gradient and Hessian match central differences', () => {
  const r = lcg(5);
  const n = 40;
  const d = 3;
  const X = Float64Array.from({ length: n * d }, (_, i) => (i % d === d - 1 ? 1 : 4 * (r() - 0.5)));
  const t = Float64Array.from({ length: n }, () => r());
  const rho = Float64Array.of(0.1, 0.2, 0);
  const theta = Float64Array.of(0.3, -0.7, 0.2);
  const g = new Float64Array(d);
  const H = new Float64Array(d * d);
  logisticObjective(X, n, d, t, rho, theta, g, H);
  const h = 1e-6;
  for (let j = 0; j < d; j++) {
    const up = Float64Array.from(theta);
    const down = Float64Array.from(theta);
    up[j] = up[j]! + h;
    down[j] = down[j]! - h;
    const gu = new Float64Array(d);
    const gd = new Float64Array(d);
    const fu = logisticObjective(X, n, d, t, rho, up, gu, new Float64Array(d * d));
    const fd = logisticObjective(X, n, d, t, rho, down, gd, new Float64Array(d * d));
    assert.ok(Math.abs((fu - fd) / (2 * h) - g[j]!) < 1e-8, `gradient ${j}`);
    for (let k = 0; k < d; k++) assert.ok(Math.abs((gu[k]! - gd[k]!) / (2 * h) - H[k * d + j]!) < 1e-7, `Hessian ${k},${j}`);
  }
});

test('damped Newton minimises a convex function with a singular Hessian direction', () => {
  // f(x, y) = (x + y − 1)² + e^{x+y}: flat along x − y; Newton must still converge (with damping).
  const r = newtonMinimize(
    (th, g, H) => {
      const s = th[0]! + th[1]!;
      const v = 2 * (s - 1) + Math.exp(s);
      g[0] = v;
      g[1] = v;
      const hh = 2 + Math.exp(s);
      H.set([hh, hh, hh, hh]);
      return (s - 1) ** 2 + Math.exp(s);
    },
    Float64Array.of(3, -1),
  );
  assert.ok(r.converged);
  // Minimum of (s − 1)² + e^s: 2(s − 1) + e^s = 0 → s ≈ 0.3149.
  const s = r.x[0]! + r.x[1]!;
  assert.ok(Math.abs(2 * (s - 1) + Math.exp(s)) < 1e-10);
});

test('Platt scaling reproduces scikit-learn _sigmoid_calibration (a = −A, b = −B) and the exact optimum', () => {
  for (const ref of loadReference().platt as any[]) {
    const cal = fitPlatt({ logits: binaryLogits(ref.f) }, Int32Array.from(ref.labels));
    assert.ok(Math.abs(cal.a - ref.tight.a) < 1e-9 && Math.abs(cal.b - ref.tight.b) < 1e-9, `${cal.a}, ${cal.b} vs ${ref.tight.a}, ${ref.tight.b}`);
    assert.ok(Math.abs(cal.a - ref.sklearn.a) < 1e-5 && Math.abs(cal.b - ref.sklearn.b) < 1e-5);
    // Same fit from probabilities: f = ln p_1 − ln p_0.
    const p = ref.f.flatMap((f: number) => [1 / (1 + Math.exp(f)), 1 / (1 + Math.exp(-f))]);
    const fromP = fitPlatt({ probabilities: mat(ref.f.length, 2, p) }, Int32Array.from(ref.labels));
    assert.ok(Math.abs(fromP.a - cal.a) < 1e-9 && Math.abs(fromP.b - cal.b) < 1e-9);
    const out = cal.apply({ logits: binaryLogits([0, 2]) });
    assert.ok(Math.abs(out.data[1]! - 1 / (1 + Math.exp(-cal.b))) < 1e-15);
    assert.ok(Math.abs(out.data[3]! - 1 / (1 + Math.exp(-(2 * cal.a + cal.b)))) < 1e-15);
  }
});

test('beta calibration reproduces betacal (abm) fitted with scikit-learn, including the refit when a < 0', () => {
  const refs = loadReference().beta as any[];
  assert.ok(refs[1].tight.firstFit[0] < 0 && refs[1].sklearn.firstFit[0] < 0, 'the second case exercises the refit');
  for (const ref of refs) {
    const probs = mat(
      ref.p1.length,
      2,
      ref.p1.flatMap((p: number) => [1 - p, p]),
    );
    const cal = fitBeta({ probabilities: probs }, Int32Array.from(ref.labels));
    for (const key of ['a', 'b', 'c'] as const) {
      // Exact optimum to 1e-8; scikit-learn's lbfgs (as betacal calls it) stops within ~1e-5 of it.
      assert.ok(Math.abs(cal[key] - ref.tight[key]) < 1e-8 * Math.max(1, Math.abs(ref.tight[key])), `${key}: ${cal[key]} vs ${ref.tight[key]}`);
      assert.ok(Math.abs(cal[key] - ref.sklearn[key]) < 1e-4 * Math.max(1, Math.abs(ref.sklearn[key])), `${key} vs sklearn`);
    }
    assert.ok(cal.a >= 0 && cal.b >= 0);
    const out = cal.apply({ probabilities: mat(1, 2, [0.7, 0.3]) });
    const s = cal.a * Math.log(0.3) - cal.b * Math.log(0.7) + cal.c;
    assert.ok(Math.abs(out.data[1]! - 1 / (1 + Math.exp(-s))) < 1e-15);
  }
});

test('binary calibrators require two classes and handle logits ±1e3 and probabilities 0 and 1', () => {
  const three = { logits: mat(2, 3, [0, 1, 2, 2, 1, 0]) };
  for (const fit of [fitPlatt, fitBeta]) {
    assert.throws(
      () => fit(three, Int32Array.of(0, 1)),
      (e: unknown) => e instanceof InvalidArgumentError && /input\.logits\.cols: expected 2 classes/.test(e.message),
    );
  }
  const labels = Int32Array.of(0, 1, 1, 0, 1, 0);
  const logits = { logits: binaryLogits([-1000, 1000, 3, -2, 0.5, 1]) };
  const probs = { probabilities: mat(6, 2, [1, 0, 0, 1, 0.1, 0.9, 0.8, 0.2, 0.4, 0.6, 0.3, 0.7]) };
  for (const input of [logits, probs]) {
    for (const cal of [fitPlatt(input, labels), fitBeta(input, labels)]) {
      assertProbabilityRows(cal.apply(input), cal.kind);
      assertProbabilityRows(cal.apply(logits), cal.kind);
      for (const v of cal.applyLogits(probs).data) assert.ok(Number.isFinite(v));
    }
  }
});
