import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { CALIBRATOR_KINDS, fitCalibrator, type CalibratorKind } from '../../src/posthoc/index.js';
import { monotoneProgress, optimizerFraction, progressPart } from '../../src/posthoc/fit-progress.js';
import { lbfgs } from '../../src/posthoc/solvers/lbfgs.js';

const N = 600;
const C = 5;
const set = syntheticOverconfident({ n: N, classes: C, seed: 4 });
const input = { logits: { rows: N, cols: C, data: Float64Array.from(set.logits) } };
const binary = syntheticOverconfident({ n: N, classes: 2, seed: 5 });
const binaryInput = { logits: { rows: N, cols: 2, data: Float64Array.from(binary.logits) } };

function fitRecorded(method: CalibratorKind, options?: object): { fractions: number[]; same: boolean } {
  const fractions: number[] = [];
  const two = method === 'platt' || method === 'beta' || method === 'quadratic-scaling';
  const [x, y] = two ? [binaryInput, binary.labels] : [input, set.labels];
  const a = fitCalibrator(method, x, y, options as never, { onProgress: (f) => fractions.push(f) });
  const b = fitCalibrator(method, x, y, options as never);
  return { fractions, same: JSON.stringify(a.toJSON()) === JSON.stringify(b.toJSON()) };
}

function assertMonotoneToOne(method: string, fractions: number[]): void {
  assert.ok(fractions.length >= 1, `${method}: no progress`);
  for (let i = 0; i < fractions.length; i++) {
    assert.ok(fractions[i]! >= 0 && fractions[i]! <= 1, `${method}: ${fractions[i]} outside [0, 1]`);
    if (i > 0) assert.ok(fractions[i]! > fractions[i - 1]!, `${method}: ${fractions.join(', ')} not increasing`);
  }
  assert.equal(fractions.at(-1), 1, method);
  assert.equal(fractions.filter((f) => f === 1).length, 1, `${method}: 1 reported once`);
}

test('every method reports increasing fractions in [0, 1] ending with exactly one 1, and the fit is unchanged by the callback', () => {
  for (const method of CALIBRATOR_KINDS) {
    const { fractions, same } = fitRecorded(method);
    assertMonotoneToOne(method, fractions);
    assert.ok(same, `${method}: the callback changed the fit`);
  }
});

test('one-vs-rest fits report once per class: fractions k / C', () => {
  const perClass = (k: number) => k / C;
  const expected = [1, 2, 3, 4, 5].map(perClass);
  for (const method of ['isotonic', 'venn-abers', 'top-label'] as const) {
    const options = method === 'venn-abers' ? { mode: 'one-vs-rest' } : undefined;
    assert.deepEqual(fitRecorded(method, options).fractions, expected, method);
  }
  assert.deepEqual(fitRecorded('scaling-binning', { mode: 'marginal' }).fractions, expected);
  for (const method of ['bbq', 'enir', 'near-isotonic'] as const) {
    assert.deepEqual(fitRecorded(method, { mode: 'one-vs-rest' }).fractions, expected, method);
  }
});

test('optimizer fits (vector, matrix, dirichlet, class-temperature) report progress between iterations before the final 1', () => {
  for (const method of ['vector', 'matrix', 'dirichlet', 'class-temperature'] as const) {
    const { fractions } = fitRecorded(method);
    assert.ok(fractions.length >= 3, `${method}: ${fractions.join(', ')}`);
    assert.ok(fractions[0]! < 1, method);
  }
});

test('monotoneProgress clamps, drops NaN and decreasing values, and finish reports 1 once', () => {
  const seen: number[] = [];
  const p = monotoneProgress((f) => seen.push(f));
  for (const f of [-0.5, 0.2, 0.1, NaN, 0.2, 0.7, 1, 3]) p.report(f);
  p.finish();
  p.finish();
  assert.deepEqual(seen, [0, 0.2, 0.7, 1]);
  const none = monotoneProgress(undefined);
  none.report(0.5);
  none.finish();
  const parts: number[] = [];
  progressPart((f) => parts.push(f), 0.5, 0.75)!(0.5);
  assert.deepEqual(parts, [0.625]);
  assert.equal(progressPart(undefined, 0, 1), undefined);
});

test('optimizerFraction: the larger of the iteration share and the log-gradient share, by hand', () => {
  // g from 1 to 1e-2 of the way to 1e-4: half the log distance.
  assert.equal(optimizerFraction(10, 1000, 1e-2, 1, 1e-4), 0.5);
  assert.equal(optimizerFraction(800, 1000, 1e-2, 1, 1e-4), 0.8);
  assert.equal(optimizerFraction(1, 1000, 1e-9, 1, 1e-4), 1);
  assert.equal(optimizerFraction(1, 100, 2, 1, 1e-4), 0.01); // the gradient grew: iterations only
  assert.equal(optimizerFraction(0, 100, 0, 1, 1e-4), 0);
});

test('lbfgs calls onProgress once per iteration with the optimizerFraction estimate', () => {
  // f(x) = Σ (i + 1)(x_i − 1)², an ill-conditioned quadratic.
  const n = 20;
  const seen: number[] = [];
  const r = lbfgs(
    (x, g) => {
      let f = 0;
      for (let i = 0; i < n; i++) {
        f += (i + 1) * (x[i]! - 1) ** 2;
        g[i] = 2 * (i + 1) * (x[i]! - 1);
      }
      return f;
    },
    new Float64Array(n),
    { gradientTolerance: 1e-10, onProgress: (f) => seen.push(f) },
  );
  assert.ok(r.converged);
  assert.equal(seen.length, r.iterations);
  for (const f of seen) assert.ok(f >= 0 && f <= 1, String(f));
  // ‖∇f‖∞ at the start is 2 · 20 = 40; the last estimate is the formula at the final point.
  assert.equal(seen.at(-1), optimizerFraction(r.iterations, 1000, r.gradientNorm, 40, 1e-10));
  assert.ok(seen.at(-1)! > 0.5, String(seen.at(-1)));
});
