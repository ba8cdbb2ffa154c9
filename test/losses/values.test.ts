import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Tensor } from '../../src/engine/index.js';
import { LOSSES, LOSS_NAMES, type LossName, type LossTargets } from '../../src/losses/index.js';
import { assertClose, denseToRows, evalLoss, randomCase, randomSoft, toRows, type LossCase } from './helpers.js';
import * as naive from './naive.js';

// Every loss against an independent float64 host implementation (naive.ts), on random inputs of three kinds:
// moderate logits, confident logits, and dense [N, C, H, W] predictions with ignored positions (where the naive
// version sees only the counted rows: masking must equal slicing).

const SMALL = randomCase(11, [10, 5], 2);
const CONFIDENT = randomCase(12, [8, 7], 6);
const DENSE = (() => {
  const c = randomCase(13, [2, 4, 3, 3], 3);
  const labels = Int32Array.from(c.labels);
  labels[1] = 255;
  labels[7] = 255;
  labels[12] = 255;
  return { ...c, labels };
})();
const HISTORY = [3, 0, 1, 2, 3, 3, 1, 0, 2, 2];
/** Soft targets for SMALL/CONFIDENT ([N, C] rows) and for DENSE (laid out like its logits, [N, C, H, W]). */
const SOFT = { small: randomSoft(14, 10, 5), confident: randomSoft(15, 8, 7), dense: denseLayout(randomSoft(16, 18, 4), DENSE.shape) };

/** Rows [M, C] (row order (n, h, w)) laid out as [N, C, H, W] row-major. */
function denseLayout(rows: Float64Array, shape: readonly number[]): Float64Array {
  const [n, c] = shape as [number, number];
  const s = shape.slice(2).reduce((a, b) => a * b, 1);
  const out = new Float64Array(rows.length);
  for (let i = 0; i < n; i++) for (let p = 0; p < s; p++) for (let k = 0; k < c; k++) out[(i * c + k) * s + p] = rows[(i * s + p) * c + k]!;
  return out;
}

/** The naive value on the counted rows; `q` are the soft targets of those rows for a `soft` case. */
type Naive = (rows: naive.Rows, y: number[], counts?: number[], q?: naive.Rows) => number;
interface Row {
  name: LossName;
  options: Record<string, unknown>;
  naive: Naive;
  /** Also on DENSE with ignored positions. */
  dense?: boolean;
  /** Run on soft targets (with labels only on DENSE, to mark the ignored positions). */
  soft?: boolean;
}

const ROWS: Row[] = [
  { name: 'ce', options: {}, naive: (r, y) => naive.ce(r, y), dense: true },
  { name: 'ce', options: {}, naive: (r, _y, _h, q) => naive.softCe(r, q!), dense: true, soft: true },
  { name: 'soft-ce', options: {}, naive: (r, _y, _h, q) => naive.softCe(r, q!), dense: true, soft: true },
  { name: 'ls', options: { epsilon: 0.1 }, naive: (r, y) => naive.ls(r, y, 0.1), dense: true },
  { name: 'ls', options: { epsilon: 0.2, variant: 'others' }, naive: (r, y) => naive.ls(r, y, 0.2, 'others'), dense: true },
  { name: 'focal', options: { gamma: 3 }, naive: (r, y) => naive.focal(r, y, 3), dense: true },
  { name: 'focal', options: { gamma: 0.5 }, naive: (r, y) => naive.focal(r, y, 0.5) },
  { name: 'flsd53', options: {}, naive: (r, y) => naive.focal(r, y, naive.flsdGamma(3)), dense: true },
  { name: 'flsd53', options: { gamma: 2 }, naive: (r, y) => naive.focal(r, y, naive.flsdGamma(2)) },
  { name: 'ecp', options: { alpha: 0.3 }, naive: (r, y) => naive.ecp(r, y, 0.3).loss, dense: true },
  { name: 'erl', options: { kappa: 0.2 }, naive: (r, y) => naive.erl(r, y, 0.2), dense: true },
  { name: 'mse', options: {}, naive: (r, y) => naive.mse(r, y), dense: true },
  { name: 'mbls', options: { margin: 2, alpha: 0.1 }, naive: (r, y) => naive.mbls(r, y, 2, 0.1).loss, dense: true },
  { name: 'acls', options: { margin: 1.5, alpha: 0.1, lambda1: 1, lambda2: 0.1 }, naive: (r, y) => naive.acls(r, y, { margin: 1.5, alpha: 0.1, lambda1: 1, lambda2: 0.1 }).loss, dense: true },
  { name: 'acls', options: { margin: 3, positive: 'paper' }, naive: (r, y) => naive.acls(r, y, { margin: 3, alpha: 0.1, lambda1: 1, lambda2: 0.1, paper: true }).loss },
  { name: 'cpc', options: { lambda_bdc: 0.3, lambda_bec: 0.7 }, naive: (r, y) => naive.cpc(r, y, 0.3, 0.7).loss, dense: true },
  { name: 'crl', options: { target: 'softmax', weight: 0.5 }, naive: (r, y, h) => naive.crl(r, y, h!, 3, 0, 'softmax', 0.5).loss },
  { name: 'crl', options: { target: 'entropy' }, naive: (r, y, h) => naive.crl(r, y, h!, 3, 0, 'entropy', 1).loss },
  { name: 'crl', options: { target: 'margin' }, naive: (r, y, h) => naive.crl(r, y, h!, 3, 0, 'margin', 1).loss },
  { name: 'mmce', options: {}, naive: (r, y) => naive.mmce(r, y), dense: true },
  { name: 'mmce-weighted', options: {}, naive: (r, y) => naive.mmceWeighted(r, y), dense: true },
  { name: 'mmce-weighted', options: { normalisation: 'kumar' }, naive: (r, y) => naive.mmceWeightedKumar(r, y) },
  { name: 'mdca', options: {}, naive: (r, y) => naive.mdca(r, y), dense: true },
  { name: 'dca', options: {}, naive: (r, y) => naive.dca(r, y), dense: true },
  { name: 'arc', options: {}, naive: (r, y) => naive.arc(r, y, 'v1', [1]), dense: true },
  { name: 'arc', options: { version: 'v2', bins: [5, 15, 30] }, naive: (r, y) => naive.arc(r, y, 'v2', [5, 15, 30]), dense: true },
  { name: 'arc', options: { version: 'v1', bins: 10 }, naive: (r, y) => naive.arc(r, y, 'v1', [10]) },
  { name: 'sb-ece-bin', options: {}, naive: (r, y) => naive.sbEceBin(r, y, { bins: 15, temperature: 0.01, p: 2 }), dense: true },
  { name: 'sb-ece-bin', options: { bins: 7, temperature: 0.003, p: 1 }, naive: (r, y) => naive.sbEceBin(r, y, { bins: 7, temperature: 0.003, p: 1 }) },
  { name: 'sb-ece-bin', options: { bins: 10, temperature: 0.05, p: 3 }, naive: (r, y) => naive.sbEceBin(r, y, { bins: 10, temperature: 0.05, p: 3 }) },
  { name: 'sb-ece-lb', options: {}, naive: (r, y) => naive.sbEceLb(r, y, { bins: 15, temperature: 0.01, p: 2, root: false, anchors: 'code' }), dense: true },
  {
    name: 'sb-ece-lb',
    options: { p: 3, root: true, anchors: 'unit', bins: 9, temperature: 0.02 },
    naive: (r, y) => naive.sbEceLb(r, y, { bins: 9, temperature: 0.02, p: 3, root: true, anchors: 'unit' }),
  },
  { name: 'avuc', options: { kappa: 0.8 }, naive: (r, y) => naive.avuc(r, y, 0.8), dense: true },
  { name: 'avuc-gs', options: { kappa: 0.3 }, naive: (r, y) => naive.avuc(r, y, 0.3) },
  { name: 's-avuc', options: {}, naive: (r, y) => naive.sAvuc(r, y, 0.5, 1), dense: true },
  { name: 's-avuc', options: { kappa: 0.2, temperature: 0.5 }, naive: (r, y) => naive.sAvuc(r, y, 0.2, 0.5) },
];

/** The targets of `row` on a traced case: CRL gets its history; a soft row its soft targets (labels only to mark ignored positions). */
function targetsOf(name: LossName, t: LossTargets & { counts?: Tensor }, soft: boolean, ignoreIndex?: number): LossTargets {
  if (soft) return ignoreIndex === undefined ? { soft: t.soft! } : { soft: t.soft!, labels: t.labels! };
  return name === 'crl' ? { labels: t.labels!, history: { counts: t.counts!, epochs: 3 } } : { labels: t.labels! };
}

function run(row: Row, c: LossCase & { labels: ArrayLike<number> }, ignoreIndex?: number): number {
  const options = ignoreIndex === undefined ? row.options : { ...row.options, ignoreIndex };
  return evalLoss((z, t) => LOSSES[row.name].apply(z, targetsOf(row.name, t, row.soft === true, ignoreIndex), options as never), c).loss;
}

for (const row of ROWS) {
  const label = `${row.name} ${JSON.stringify(row.options)}${row.soft ? ' (soft targets)' : ''}`;
  test(`${label} equals the naive float64 formula on moderate and confident logits`, () => {
    for (const [c, q] of [
      [SMALL, SOFT.small],
      [CONFIDENT, SOFT.confident],
    ] as const) {
      const counts = HISTORY.slice(0, c.shape[0]);
      const got = run(row, { ...c, counts, ...(row.soft ? { soft: q } : {}) });
      const want = row.naive(toRows(c.logits, c.shape[1]!), Array.from(c.labels), counts, toRows(q, c.shape[1]!));
      assertClose(got, want, 1e-10, label, 1e-13);
    }
  });
  if (row.dense) {
    test(`${label} on dense [N, C, H, W] logits with ignored pixels equals the formula on the counted pixels only`, () => {
      const rows = denseToRows(DENSE.logits, DENSE.shape);
      const qRows = denseToRows(SOFT.dense, DENSE.shape);
      const kept = rows.map((_, i) => i).filter((i) => DENSE.labels[i] !== 255);
      const got = run(row, { ...DENSE, ...(row.soft ? { soft: SOFT.dense } : {}) }, 255);
      const want = row.naive(
        kept.map((i) => rows[i]!),
        kept.map((i) => DENSE.labels[i]!),
        undefined,
        kept.map((i) => qRows[i]!),
      );
      assertClose(got, want, 1e-10, label, 1e-13);
    });
  }
}

test('every registered loss has a reference-value case above, and every per-example loss one on dense logits with ignored positions', () => {
  for (const name of LOSS_NAMES) {
    assert.ok(
      ROWS.some((r) => r.name === name),
      `${name}: no reference-value case in values.test.ts ROWS`,
    );
    if (LOSSES[name].scope === 'per-example') {
      assert.ok(
        ROWS.some((r) => r.name === name && r.dense),
        `${name}: per-example, but no dense case with ignored positions in ROWS`,
      );
    }
  }
});

test('losses that take soft targets equal their formula with soft targets (and mixup accuracy λ·1[ŷ=y1] + (1−λ)·1[ŷ=y2])', () => {
  const c = SMALL;
  const [n, k] = c.shape as [number, number];
  const q = randomSoft(5, n, k);
  const rows = toRows(c.logits, k);
  const qRows = toRows(q, k);
  const y = Array.from(c.labels);
  const soft = (name: LossName, options: Record<string, unknown> = {}) => evalLoss((z, t) => LOSSES[name].apply(z, { soft: t.soft! }, options as never), { ...c, labels: undefined, soft: q }).loss;
  assertClose(soft('ce'), naive.softCe(rows, qRows), 1e-12, 'soft ce');
  assertClose(soft('soft-ce'), naive.softCe(rows, qRows), 1e-12, 'soft-ce');
  const eps = 0.1;
  const smoothed = qRows.map((r) => r.map((v) => (1 - eps) * v + eps / k));
  assertClose(soft('ls', { epsilon: eps }), naive.softCe(rows, smoothed), 1e-12, 'ls on soft targets = CE against smoothed targets');
  const mixLambda = 0.3;
  const y2 = y.map((_, i) => y[(i + 1) % n]!);
  const mix = new Float64Array(n * k);
  y.forEach((v, i) => {
    mix[i * k + v]! += mixLambda;
    mix[i * k + y2[i]!]! += 1 - mixLambda;
  });
  const mixRows = toRows(mix, k);
  const mixed = (name: LossName, options: Record<string, unknown>) => evalLoss((z, t) => LOSSES[name].apply(z, { soft: t.soft! }, options as never), { ...c, labels: undefined, soft: mix }).loss;
  assertClose(mixed('arc', { version: 'v1', bins: [5, 15] }), naive.arc(rows, y, 'v1', [5, 15], mixRows), 1e-12, 'arc on mixup targets');
  assertClose(mixed('sb-ece-bin', {}), naive.sbEceBin(rows, y, { bins: 15, temperature: 0.01, p: 2 }, mixRows), 1e-12, 'sb-ece on mixup targets');
  // mixup accuracy from soft targets is exactly λ·1[ŷ=y1] + (1−λ)·1[ŷ=y2]
  const a = naive.correctness(rows, y, mixRows);
  const expected = rows.map((r, i) => mixLambda * (r.indexOf(Math.max(...r)) === y[i] ? 1 : 0) + (1 - mixLambda) * (r.indexOf(Math.max(...r)) === y2[i] ? 1 : 0));
  assert.deepEqual(a, expected);
});

test("mmce-weighted, normalisation 'kumar' (the ARC code's MMCE): an all-correct batch is still penalised by its correct block, the 'code' normalisation gives 0 there; saturated confidences keep a finite value and gradient", () => {
  // Two rows, both correct: confidences c1 = σ(2), c2 = σ(1) (two classes, logits [2, 0] and [1, 0], labels 0).
  const c = { logits: [2, 0, 1, 0], shape: [2, 2], labels: [0, 0] };
  const [c1, c2] = [1 / (1 + Math.exp(-2)), 1 / (1 + Math.exp(-1))];
  const k = (u: number, v: number) => Math.exp(-Math.abs(u - v) / 0.4);
  const scc = (1 - c1) ** 2 + (1 - c2) ** 2 + 2 * (1 - c1) * (1 - c2) * k(c1, c2);
  const kumar = evalLoss((z, t) => LOSSES['mmce-weighted'].apply(z, t, { normalisation: 'kumar' } as never), c);
  assertClose(kumar.loss, Math.sqrt(scc / (4 + 1e-11)), 1e-12, 'sqrt(S_cc / m²)');
  assert.equal(evalLoss((z, t) => LOSSES['mmce-weighted'].apply(z, t), c).loss, 0);
  // Logits of magnitude 1e3: every confidence is exactly 1 and every row correct, so mmd = 0 — floored at 1e−12.
  const saturated = evalLoss((z, t) => LOSSES['mmce-weighted'].apply(z, t, { normalisation: 'kumar' } as never), { logits: [1000, -1000, 1000, -1000], shape: [2, 2], labels: [0, 0] });
  assertClose(saturated.loss, 1e-6, 1e-9, 'sqrt of the floor');
  assert.ok(Array.from(saturated.grad).every(Number.isFinite), 'finite gradient');
});

test('hand-worked tiny cases: CE, focal, MbLS, MDCA, DCA and ARC on two samples of two classes', () => {
  // z1 = (0, ln 3): p1 = (1/4, 3/4); z2 = (ln 4, 0): p2 = (4/5, 1/5); labels (1, 1).
  const c = { logits: [0, Math.log(3), Math.log(4), 0], shape: [2, 2], labels: [1, 1] };
  const value = (name: LossName, options: Record<string, unknown> = {}) => evalLoss((z, t) => LOSSES[name].apply(z, t, options as never), c).loss;
  // CE = (−ln 3/4 − ln 1/5)/2
  assertClose(value('ce'), (-Math.log(0.75) - Math.log(0.2)) / 2, 1e-14, 'ce');
  // focal γ=2: ((1/4)²·(−ln 3/4) + (4/5)²·(−ln 1/5))/2
  assertClose(value('focal', { gamma: 2 }), (0.0625 * -Math.log(0.75) + 0.64 * -Math.log(0.2)) / 2, 1e-14, 'focal');
  // MbLS m=0.5, α=1: distances (ln 3, 0), (0, ln 4) → ReLU(ln3 − .5) + ReLU(ln4 − .5) over 4 entries
  assertClose(value('mbls', { margin: 0.5, alpha: 1 }), value('ce') + (Math.log(3) - 0.5 + Math.log(4) - 0.5) / 4, 1e-14, 'mbls');
  // MDCA: mean p = (0.525, 0.475), class freq (0, 1) → (0.525 + 0.525)/2
  assertClose(value('mdca'), 0.525, 1e-14, 'mdca');
  // DCA: confidences (0.75, 0.8), correct (1, 0): |0.775 − 0.5|
  assertClose(value('dca'), 0.275, 1e-14, 'dca');
  // ARC V1, M = 1, β = 1: (0.775 − 0.5)²; V2: ((0.75 − .5)² + (0.8 − .5)²)/2
  assertClose(value('arc'), 0.275 ** 2, 1e-14, 'arc v1');
  assertClose(value('arc', { version: 'v2' }), (0.25 ** 2 + 0.3 ** 2) / 2, 1e-14, 'arc v2');
  // ARC V1, M = 2: both in bin (0.5, 1] → same as M = 1
  assertClose(value('arc', { bins: 2 }), 0.275 ** 2, 1e-14, 'arc v1 M=2');
  // MMCE: d = (0.25, −0.8), k12 = exp(−0.05/0.4) → (0.0625 + 0.64 + 2·0.25·(−0.8)·k12)/4
  assertClose(value('mmce'), (0.0625 + 0.64 - 0.4 * Math.exp(-0.125)) / 4, 1e-14, 'mmce');
});

/** Loss `name` with default options on a case; soft-ce gets the case's soft targets, CRL a history. */
function evalDefault(name: LossName, c: LossCase, ignoreIndex?: number) {
  const soft = name === 'soft-ce';
  return evalLoss((z, t) => LOSSES[name].apply(z, targetsOf(name, t, soft, ignoreIndex), (ignoreIndex === undefined ? {} : { ignoreIndex }) as never), c);
}

test('per-example losses (from the registry) return per-example values whose masked mean is the loss', () => {
  const perExample = LOSS_NAMES.filter((name) => LOSSES[name].scope === 'per-example');
  assert.ok(perExample.length >= 10);
  for (const name of perExample) {
    const r = evalDefault(name, { ...DENSE, soft: SOFT.dense }, 255);
    assert.ok(r.perExample, name);
    assert.equal(r.perExample!.length, 18);
    let s = 0;
    let n = 0;
    r.perExample!.forEach((v, i) => {
      if (DENSE.labels[i] === 255) assert.equal(v, 0, `${name}: ignored pixel ${i}`);
      else {
        s += v;
        n++;
      }
    });
    assertClose(s / n, r.loss, 1e-12, name);
  }
});

test("each registered loss's scope is what it does: a per-example loss's value for a row does not depend on the other rows of the batch; batch losses return no per-example values", () => {
  const [n, k] = SMALL.shape as [number, number];
  for (const name of LOSS_NAMES) {
    const whole = evalDefault(name, { ...SMALL, soft: SOFT.small, counts: HISTORY });
    if (LOSSES[name].scope === 'batch') {
      assert.equal(whole.perExample, undefined, `${name}: a batch loss returns no per-example values`);
      continue;
    }
    assert.ok(whole.perExample && whole.perExample.length === n, name);
    for (let i = 0; i < n; i++) {
      const one = { shape: [1, k], logits: SMALL.logits.slice(i * k, (i + 1) * k), labels: SMALL.labels.slice(i, i + 1), soft: SOFT.small.slice(i * k, (i + 1) * k) };
      assertClose(whole.perExample[i]!, evalDefault(name, one).loss, 1e-12, `${name}: row ${i} alone`, 1e-15);
    }
  }
  // the batch terms do couple the rows (so the check above can tell the two scopes apart)
  const mdca = evalDefault('mdca', SMALL).loss;
  const rowsAlone = Array.from({ length: n }, (_, i) => evalDefault('mdca', { shape: [1, k], logits: SMALL.logits.slice(i * k, (i + 1) * k), labels: SMALL.labels.slice(i, i + 1) }).loss);
  assert.ok(Math.abs(mdca - rowsAlone.reduce((a, b) => a + b, 0) / n) > 1e-3, 'MDCA of the batch is not the mean of per-row MDCA');
});
