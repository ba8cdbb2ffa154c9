import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedCalibrationError, labelBinnedCalibrationError } from '../../src/metrics/index.js';
import { softBinnedEce } from '../../src/posthoc/index.js';
import { calibrationObjective, LOSSES, LOSS_NAMES, type LossName } from '../../src/losses/index.js';
import { assertAllClose, assertClose, evalLoss, randomCase, toRows } from './helpers.js';
import * as naive from './naive.js';

const COUNTS = [2, 0, 1, 3, 1, 2, 0, 3];

/**
 * Evaluate loss `name` on a case: CRL gets a history, soft-ce (which takes soft targets only) the one-hot targets of
 * the labels, every other loss the labels.
 */
function value(
  name: LossName,
  c: { logits: ArrayLike<number>; labels: ArrayLike<number>; shape: readonly number[] },
  options: Record<string, unknown> = {},
  engine?: { engine: 'ort'; dtype: 'float32' | 'float64' },
) {
  const counts = Array.from({ length: c.shape[0]! }, (_, i) => COUNTS[i % COUNTS.length]!);
  if (name === 'soft-ce') {
    const k = c.shape[1]!;
    const soft = new Float64Array(c.labels.length * k);
    Array.from(c.labels).forEach((y, i) => (soft[i * k + y] = 1));
    return evalLoss((z, t) => LOSSES[name].apply(z, { soft: t.soft! }, options as never), { logits: c.logits, shape: c.shape, soft }, engine);
  }
  return evalLoss(
    (z, t) => LOSSES[name].apply(z, name === 'crl' ? { labels: t.labels!, history: { counts: t.counts!, epochs: 3 } } : t.labels!, options as never),
    { ...c, ...(name === 'crl' ? { counts } : {}) },
    engine,
  );
}

test('adding a constant to all logits of a sample leaves every loss and its gradient unchanged (ACLS: only its paper form)', () => {
  const c = randomCase(31, [8, 5], 2);
  const [n, k] = c.shape as [number, number];
  const shifted = Float64Array.from(c.logits, (v, i) => v + [3, -7, 0.5, 100, -40, 12, 1e3, -2][Math.floor(i / k)]!);
  const shiftedCase = { ...c, logits: shifted };
  for (const name of LOSS_NAMES) {
    const options = name === 'acls' ? { positive: 'paper', margin: 1 } : name === 'mbls' ? { margin: 1 } : {};
    const a = value(name, c, options);
    const b = value(name, shiftedCase, options);
    assertClose(b.loss, a.loss, 1e-9, `${name} value`, 1e-12);
    assertAllClose(b.grad, a.grad, 1e-7, `${name} gradient`, 1e-10);
  }
  // the official code's ACLS uses the raw max logit: not shift-invariant (documented)
  const a = value('acls', c, { margin: 1 });
  const b = value('acls', shiftedCase, { margin: 1 });
  assert.ok(Math.abs(a.loss - b.loss) > 1e-3, 'ACLS (code form) changes under a shift');
  void n;
});

test('focal with γ = 0, FLSD with every γ = 0 impossible but LS with ε = 0 and soft-CE on one-hot targets all equal CE', () => {
  const c = randomCase(32, [7, 4], 3);
  const ce = value('ce', c);
  for (const [name, options] of [
    ['focal', { gamma: 0 }],
    ['ls', { epsilon: 0 }],
    ['ls', { epsilon: 0, variant: 'others' }],
    ['ecp', { alpha: 0 }],
    ['erl', { kappa: 0 }],
    ['mbls', { alpha: 0 }],
    ['acls', { alpha: 0 }],
    ['cpc', { lambda_bdc: 0, lambda_bec: 0 }],
    ['crl', { weight: 0 }],
  ] as [LossName, Record<string, unknown>][]) {
    const r = value(name, c, options);
    assertClose(r.loss, ce.loss, 1e-14, `${name} ${JSON.stringify(options)}`);
    assertAllClose(r.grad, ce.grad, 1e-12, `${name} gradient`, 1e-16);
  }
  const [n, k] = c.shape as [number, number];
  const onehot = new Float64Array(n * k);
  c.labels.forEach((y, i) => (onehot[i * k + y] = 1));
  const soft = evalLoss((z, t) => LOSSES['soft-ce'].apply(z, { soft: t.soft! }), { logits: c.logits, shape: c.shape, soft: onehot });
  assertClose(soft.loss, ce.loss, 1e-14, 'soft-ce on one-hot');
  assertAllClose(soft.grad, ce.grad, 1e-12, 'soft-ce gradient', 1e-16);
});

test('SB-ECE (bin) tends to the equal-width ECE_p of src/metrics as T → 0, for p = 1 and p = 2', () => {
  const c = randomCase(33, [40, 4], 1.5);
  const rows = toRows(c.logits, 4);
  const conf = Float64Array.from(naive.confidences(rows));
  const correct = Uint8Array.from(naive.correctness(rows, Array.from(c.labels)));
  for (const bins of [5, 15]) {
    // keep away from bin edges (a soft bin at T → 0 splits a confidence sitting exactly on an edge)
    for (const x of conf) assert.ok(Math.abs(x * bins - Math.round(x * bins)) > 1e-3, 'case has no confidence near an edge');
    for (const p of [1, 2]) {
      const metric = expectedCalibrationError(conf, correct, { bins, p });
      const loss = value('sb-ece-bin', c, { bins, p, temperature: 1e-6 }).loss;
      assertClose(loss, metric, 1e-9, `bins ${bins} p ${p}`, 1e-12);
      const soft = value('sb-ece-bin', c, { bins, p, temperature: 0.05 }).loss;
      assert.ok(Math.abs(soft - metric) > 1e-4, 'a warm temperature differs');
    }
    const lb = value('sb-ece-lb', c, { bins, p: 2, root: true, anchors: 'unit', temperature: 1e-6 }).loss;
    assertClose(lb, labelBinnedCalibrationError(conf, correct, { bins, p: 2 }), 1e-4, `label-binned, bins ${bins}`); // ε/M mixing
  }
});

test('SB-ECE (bin) equals the host definition in src/posthoc (softBinnedEce) for any M, T and p', () => {
  const c = randomCase(34, [25, 6], 2);
  const rows = toRows(c.logits, 6);
  const conf = Float64Array.from(naive.confidences(rows));
  const correct = Float64Array.from(naive.correctness(rows, Array.from(c.labels)));
  for (const [bins, t, p] of [
    [15, 0.01, 2],
    [7, 0.1, 1],
    [20, 0.003, 3],
  ] as const) {
    const host = softBinnedEce(conf, correct, { bins, softBinTemperature: t, p });
    assertClose(value('sb-ece-bin', c, { bins, temperature: t, p }).loss, host, 1e-12, `M ${bins} T ${t} p ${p}`);
  }
});

test('every loss is finite, with a finite gradient, on logits of magnitude 1e3 (probabilities of exactly 0 and 1) in float32 and float64', () => {
  // rows: confident right, confident wrong, two tied maxima, all equal, huge negative; logits up to ±1e3
  const logits = [1000, -1000, 0, 5, -1000, 1000, 0, 0, 700, 700, -700, 3, 0, 0, 0, 0, -1000, -999, -1000, -1000, 1000, 1000, 1000, -1000];
  const labels = [0, 0, 1, 3, 1, 2];
  const c = { logits, labels, shape: [6, 4] };
  for (const name of LOSS_NAMES) {
    for (const run of [undefined, { engine: 'ort', dtype: 'float32' }, { engine: 'ort', dtype: 'float64' }] as const) {
      const r = value(name, c, {}, run as never);
      const where = `${name} on ${run ? `ORT ${run.dtype}` : 'the reference'}`;
      assert.ok(Number.isFinite(r.loss), `${where}: loss ${r.loss}`);
      for (const t of Object.values(r.terms)) assert.ok(Number.isFinite(t), `${where}: term ${t}`);
      r.grad.forEach((g, i) => assert.ok(Number.isFinite(g), `${where}: gradient[${i}] = ${g}`));
    }
  }
  // focal with γ < 1 at p_y = 1 exactly keeps a finite (zero) gradient
  const r = value('focal', { logits: [1000, -1000], labels: [0], shape: [1, 2] }, { gamma: 0.5 }, { engine: 'ort', dtype: 'float32' });
  assert.ok(r.loss === 0, `focal γ = 0.5 at p_y = 1: ${r.loss}`);
  assert.ok(r.grad.every((g) => g === 0));
});

test('ONNX Runtime in float32 agrees with the float64 reference for every loss (value and gradient)', () => {
  const c = randomCase(35, [8, 5], 2);
  for (const name of LOSS_NAMES) {
    const ref = value(name, c);
    const ort = value(name, c, {}, { engine: 'ort', dtype: 'float32' });
    assertClose(ort.loss, ref.loss, 2e-5, `${name} value`, 1e-6);
    assertAllClose(ort.grad, ref.grad, 1e-3, `${name} gradient`, 1e-6);
  }
});

test('an objective is primary + β·term, sharing one prepared input, and keeps both parts as terms', () => {
  const c = randomCase(36, [8, 5], 2);
  const objective = calibrationObjective({ primary: { name: 'focal', options: { gamma: 2 } }, secondary: { name: 'sb-ece-bin', options: { bins: 10 }, weight: 0.7 } });
  const combined = evalLoss((z, t) => objective(z, t.labels!), c);
  const focal = value('focal', c, { gamma: 2 });
  const sbece = value('sb-ece-bin', c, { bins: 10 });
  assertClose(combined.loss, focal.loss + 0.7 * sbece.loss, 1e-14, 'value');
  assertAllClose(
    combined.grad,
    focal.grad.map((g, i) => g + 0.7 * sbece.grad[i]!),
    1e-12,
    'gradient',
    1e-16,
  );
  assertClose(combined.terms['focal']!, focal.loss, 1e-15, 'focal term');
  assertClose(combined.terms['sb-ece-bin']!, sbece.loss, 1e-15, 'sb-ece term');
  // a combined method as primary keeps its own terms under its name
  const mbls = calibrationObjective({ primary: { name: 'mbls' }, secondary: { name: 'mmce', weight: 2 } });
  const r = evalLoss((z, t) => mbls(z, t.labels!), c);
  assert.deepEqual(Object.keys(r.terms).sort(), ['mbls', 'mbls.ce', 'mbls.margin', 'mmce']);
});

test("a term's default weight is the papers' code's: MMCE and weighted MMCE 2 (focal-calibration code), others 1", () => {
  const c = randomCase(37, [8, 5], 2);
  const ce = value('ce', c);
  for (const [name, beta] of [
    ['mmce', 2],
    ['mmce-weighted', 2],
    ['sb-ece-lb', 1],
    ['arc', 1],
  ] as const) {
    const term = value(name, c);
    const byDefault = evalLoss((z, t) => calibrationObjective({ secondary: { name } })(z, t.labels!), c);
    assertClose(byDefault.loss, ce.loss + beta * term.loss, 1e-14, `${name} default weight`);
    const given = evalLoss((z, t) => calibrationObjective({ secondary: { name, weight: 0.5 } })(z, t.labels!), c);
    assertClose(given.loss, ce.loss + 0.5 * term.loss, 1e-14, `${name} given weight`);
  }
});
