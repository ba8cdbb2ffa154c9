import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertGradients, type Tensor } from '../../src/engine/index.js';
import { LOSSES, LOSS_NAMES, type LossName } from '../../src/losses/index.js';
import { assertAllClose, assertClose, evalLoss, randomCase, toRows } from './helpers.js';
import * as naive from './naive.js';

// Finite-difference gradient checks in float64 (the engine's checker: random tangent and cotangent, central
// differences) for every loss, on classification and dense-with-ignore inputs; then the analytic gradient forms the
// papers state.

const CLS = randomCase(21, [6, 4], 2);
const DENSE = (() => {
  const c = randomCase(22, [2, 3, 2, 2], 2);
  const labels = Int32Array.from(c.labels);
  labels[2] = 255;
  return { ...c, labels };
})();
const COUNTS = [2, 0, 1, 3, 1, 2];

/** Options that make every term active on these inputs (small margins, a wide AvUC threshold). */
const OPTIONS: Partial<Record<LossName, Record<string, unknown>>> = {
  mbls: { margin: 0.5, alpha: 0.7 },
  acls: { margin: 0.5, alpha: 0.7 },
  arc: { version: 'v1', bins: [3, 5] },
  avuc: { kappa: 1.0 },
  'avuc-gs': { kappa: 1.0 },
  'sb-ece-bin': { temperature: 0.05 },
  'sb-ece-lb': { temperature: 0.05 },
};

function checkLoss(name: LossName, c: { logits: Float64Array; labels: Int32Array; shape: readonly number[] }, extra: Record<string, unknown> = {}): void {
  const labelShape = [c.shape[0]!, ...c.shape.slice(2)];
  const fn = ({ z, y, h }: Readonly<Record<string, Tensor>>) => {
    const targets = name === 'crl' ? { labels: y!, history: { counts: h!, epochs: 3 } } : y!;
    return LOSSES[name].apply(z!, targets, { ...OPTIONS[name], ...extra } as never).loss;
  };
  assertGradients(
    fn,
    {
      z: { shape: c.shape, data: c.logits },
      y: { shape: labelShape, data: c.labels, dtype: 'int32' },
      h: { shape: [c.shape[0]!], data: COUNTS.slice(0, c.shape[0]) },
    },
    { wrt: ['z'], directions: 3, rtol: 1e-6, atol: 1e-9 },
  );
}

// Not here, by design: ACLS (its negative part detaches the max) and AvUC-GS (stops the confidences' gradient) do not
// have the true gradient; their stated gradients are checked in the dedicated tests below.
const NOT_TRUE_GRADIENT: ReadonlySet<LossName> = new Set(['acls', 'avuc-gs']);

for (const name of LOSS_NAMES) {
  if (name === 'soft-ce' || NOT_TRUE_GRADIENT.has(name)) continue; // soft-ce: checked below
  test(`${name}: the reverse-mode gradient matches central finite differences in float64`, () => {
    checkLoss(name, CLS);
    if (name !== 'crl' && name !== 'mmce' && name !== 'mmce-weighted') checkLoss(name, DENSE, { ignoreIndex: 255 });
  });
}

test("mmce-weighted with normalisation 'kumar' (the ARC code's MMCE): the reverse-mode gradient matches central finite differences in float64", () => {
  checkLoss('mmce-weighted', CLS, { normalisation: 'kumar' });
});

test('every loss that takes soft targets (from the registry): its gradient on soft targets matches finite differences', () => {
  const [n, k] = CLS.shape as [number, number];
  const q = Float64Array.from({ length: n * k }, (_, i) => ((i * 7) % 5) + 1);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < k; j++) s += q[i * k + j]!;
    for (let j = 0; j < k; j++) q[i * k + j]! /= s;
  }
  const soft = LOSS_NAMES.filter((name) => LOSSES[name].targets === 'labels-or-soft' && !NOT_TRUE_GRADIENT.has(name));
  assert.ok(soft.includes('soft-ce') && soft.length >= 15, soft.join(', '));
  for (const name of soft) {
    assertGradients(
      ({ z, q, h }) => LOSSES[name].apply(z!, name === 'crl' ? { soft: q!, history: { counts: h!, epochs: 3 } } : { soft: q! }, OPTIONS[name] as never).loss,
      { z: { shape: CLS.shape, data: CLS.logits }, q: { shape: CLS.shape, data: q }, h: { shape: [n], data: COUNTS.slice(0, n) } },
      { wrt: ['z'], directions: 2 },
    );
  }
});

test("ACLS: the regulariser's gradient is eq. 12 of the paper (2λ1 ReLU(z_ŷ − m)/N on ŷ, −2λ2 ReLU(z_ŷ − z_j − m)/(N(C−1)) elsewhere)", () => {
  const c = randomCase(23, [5, 4], 4);
  const [n, k] = c.shape as [number, number];
  const o = { margin: 1, alpha: 1, lambda1: 0.7, lambda2: 0.3 };
  for (const positive of ['code', 'paper'] as const) {
    const reg = evalLoss((z, t) => {
      const r = LOSSES.acls.apply(z, t, { ...o, positive });
      return { loss: r.terms['reg']!, terms: {} };
    }, c).grad;
    const expected = new Float64Array(n * k);
    toRows(c.logits, k).forEach((z, i) => {
      const m = Math.max(...z);
      const yHat = z.indexOf(m);
      const base = positive === 'code' ? m : m - Math.min(...z);
      z.forEach((v, j) => {
        expected[i * k + j] = j === yHat ? (2 * o.lambda1 * Math.max(base - o.margin, 0)) / n : (-2 * o.lambda2 * Math.max(m - v - o.margin, 0)) / (n * (k - 1));
      });
    });
    assertAllClose(reg, expected, 1e-12, `acls ${positive}`, 1e-15);
    // the whole objective: CE gradient + α·(eq. 12)
    const total = evalLoss((z, t) => LOSSES.acls.apply(z, t, { ...o, alpha: 0.5, positive }), c).grad;
    const ceGrad = evalLoss((z, t) => LOSSES.ce.apply(z, t), c).grad;
    assertAllClose(
      total,
      ceGrad.map((g, i) => g + 0.5 * expected[i]!),
      1e-12,
      `acls ${positive} total`,
      1e-15,
    );
  }
});

test("ACLS ablations (Table 5): 'ar-only' has gradient 2λ(x) for every margin excess x (no indicator), 'cr-only' λ·1[x > 0] (constant smoothing)", () => {
  const c = randomCase(29, [6, 5], 5);
  const [n, k] = c.shape as [number, number];
  const o = { margin: 0.8, alpha: 1, lambda1: 0.6, lambda2: 0.4 };
  for (const variant of ['ar-only', 'cr-only'] as const) {
    const reg = evalLoss((z, t) => {
      const r = LOSSES.acls.apply(z, t, { ...o, variant });
      return { loss: r.terms['reg']!, terms: {} };
    }, c).grad;
    const expected = new Float64Array(n * k);
    const slope = (x: number) => (variant === 'ar-only' ? 2 * x : x > 0 ? 1 : 0);
    toRows(c.logits, k).forEach((z, i) => {
      const m = Math.max(...z);
      const yHat = z.indexOf(m);
      z.forEach((v, j) => {
        expected[i * k + j] = j === yHat ? (o.lambda1 * slope(m - o.margin)) / n : (-o.lambda2 * slope(m - v - o.margin)) / (n * (k - 1));
      });
    });
    assertAllClose(reg, expected, 1e-12, `acls ${variant}`, 1e-15);
  }
  // AR only penalises gaps below the margin too, so it differs from ACLS even where every ReLU is inactive
  const z = [[0.3, 0.1, -0.2]];
  const r = (variant: 'acls' | 'ar-only' | 'cr-only') =>
    evalLoss((t, y) => LOSSES.acls.apply(t, y, { margin: 5, variant }), { logits: Float64Array.from(z.flat()), shape: [1, 3], labels: Int32Array.of(0) }).loss;
  assert.equal(r('acls'), r('cr-only')); // both only CE here
  assert.ok(r('ar-only') > r('acls'));
});

test('AvUC: the default threshold is 0.5·ln C nats (scales with the classes); an explicit κ is used as given', () => {
  for (const [shape, seed] of [
    [[6, 3], 41],
    [[6, 10], 42],
  ] as const) {
    const c = randomCase(seed, shape, 1.5);
    const k = shape[1];
    for (const name of ['avuc', 'avuc-gs'] as const) {
      const byDefault = evalLoss((z, t) => LOSSES[name].apply(z, t), c).loss;
      assertClose(byDefault, evalLoss((z, t) => LOSSES[name].apply(z, t, { kappa: 0.5 * Math.log(k) }), c).loss, 1e-15, `${name} C = ${k}`);
      assertClose(byDefault, naive.avuc(toRows(c.logits, k), Array.from(c.labels), 0.5 * Math.log(k)), 1e-12, `${name} naive`);
    }
  }
});

test('MbLS: the margin gradient is −α/(NC) on every active non-max logit and +α·(#active)/(NC) on the max (max not detached)', () => {
  const c = randomCase(24, [5, 6], 3);
  const [n, k] = c.shape as [number, number];
  const margin = 1.5;
  const got = evalLoss((z, t) => ({ loss: LOSSES.mbls.apply(z, t, { margin, alpha: 1 }).terms['margin']!, terms: {} }), c).grad;
  const expected = new Float64Array(n * k);
  toRows(c.logits, k).forEach((z, i) => {
    const m = Math.max(...z);
    const yHat = z.indexOf(m);
    let active = 0;
    z.forEach((v, j) => {
      if (m - v - margin > 0) {
        expected[i * k + j] = -1 / (n * k);
        active++;
      }
    });
    expected[i * k + yHat] = active / (n * k);
  });
  assertAllClose(got, expected, 1e-12, 'mbls margin gradient', 1e-15);
});

test('LS = (1 − ε)·CE + ε·(KL(u‖p) + log C), and its gradient is p − q′ with q′ = (1 − ε) q + ε/C (ACLS eq. 5)', () => {
  const c = randomCase(25, [4, 5], 2);
  const [n, k] = c.shape as [number, number];
  const eps = 0.2;
  const r = evalLoss((z, t) => LOSSES.ls.apply(z, t, { epsilon: eps }), c);
  const rows = toRows(c.logits, k);
  const kl = rows.map((z) => {
    const lp = naive.logSoftmax(z);
    return lp.reduce((s, l) => s + (1 / k) * (Math.log(1 / k) - l), 0);
  });
  const klMean = kl.reduce((a, b) => a + b, 0) / n;
  assertClose(r.loss, (1 - eps) * naive.ce(rows, Array.from(c.labels)) + eps * (klMean + Math.log(k)), 1e-13, 'decomposition');
  assertClose(r.terms['smoothing']!, klMean + Math.log(k), 1e-13, 'smoothing term = KL(u‖p) + log C');
  const expected = new Float64Array(n * k);
  rows.forEach((z, i) => naive.softmax(z).forEach((p, j) => (expected[i * k + j] = (p - ((j === c.labels[i] ? 1 - eps : 0) + eps / k)) / n)));
  assertAllClose(r.grad, expected, 1e-12, 'ls gradient', 1e-15);
});

test('AvUC-GS stops the gradient of the confidences: its gradient equals finite differences with c frozen, and differs from AvUC', () => {
  const c = randomCase(26, [8, 3], 1.5);
  const [n, k] = c.shape as [number, number];
  const kappa = 0.9;
  const gs = evalLoss((z, t) => LOSSES['avuc-gs'].apply(z, t, { kappa }), c);
  const full = evalLoss((z, t) => LOSSES.avuc.apply(z, t, { kappa }), c);
  assertClose(gs.loss, full.loss, 1e-15, 'same value');
  const rows0 = toRows(c.logits, k);
  const frozen = naive.confidences(rows0);
  const y = Array.from(c.labels);
  const f = (logits: Float64Array): number => {
    const rows = toRows(logits, k);
    const a = naive.correctness(rows, y);
    let nAC = 0,
      nAU = 0,
      nIC = 0,
      nIU = 0;
    rows.forEach((z, i) => {
      const p = naive.softmax(z).map((v) => (1 - 1e-5) * v + 1e-5 / k);
      const u = -p.reduce((s, v) => s + v * Math.log(v), 0);
      const th = Math.tanh(u);
      const certain = u < kappa;
      const ci = frozen[i]!;
      if (a[i] === 1) certain ? (nAC += ci * (1 - th)) : (nAU += ci * th);
      else certain ? (nIC += (1 - ci) * (1 - th)) : (nIU += (1 - ci) * th);
    });
    return Math.log(1 + (nAU + nIC) / Math.max(nAC + nIU, 1e-5));
  };
  const h = 1e-6;
  const numeric = Float64Array.from({ length: n * k }, (_, i) => {
    const plus = Float64Array.from(c.logits);
    const minus = Float64Array.from(c.logits);
    plus[i]! += h;
    minus[i]! -= h;
    return (f(plus) - f(minus)) / (2 * h);
  });
  assertAllClose(gs.grad, numeric, 1e-6, 'avuc-gs gradient', 1e-9);
  const differs = full.grad.some((v, i) => Math.abs(v - gs.grad[i]!) > 1e-6);
  assert.ok(differs, 'AvUC (no stop-gradient) has a different gradient');
});

test('FLSD-53: γ is chosen from the detached p_y (its gradient is the focal gradient at the fixed per-sample γ)', () => {
  const c = randomCase(27, [9, 4], 2);
  const k = 4;
  const flsd = evalLoss((z, t) => LOSSES.flsd53.apply(z, t), c).grad;
  const rows = toRows(c.logits, k);
  const gammas = rows.map((z, i) => naive.flsdGamma(3)(naive.softmax(z)[c.labels[i]!]!));
  assert.ok(new Set(gammas).size >= 2, 'the case exercises several γ');
  // per-sample focal with the constant γ_i, differentiated numerically row by row
  const h = 1e-6;
  const numeric = Float64Array.from({ length: c.logits.length }, (_, j) => {
    const row = Math.floor(j / k);
    const value = (logits: Float64Array) => {
      const z = toRows(logits, k)[row]!;
      const lp = naive.logSoftmax(z)[c.labels[row]!]!;
      return (-Math.pow(1 - Math.exp(lp), gammas[row]!) * lp) / rows.length;
    };
    const plus = Float64Array.from(c.logits);
    const minus = Float64Array.from(c.logits);
    plus[j]! += h;
    minus[j]! -= h;
    return (value(plus) - value(minus)) / (2 * h);
  });
  assertAllClose(flsd, numeric, 1e-6, 'flsd gradient', 1e-9);
});
