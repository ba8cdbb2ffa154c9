import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate, logSoftmax, NLL_CLIP, softmax } from '../../src/metrics/index.js';
import { logFloat32Bits } from '../../src/metrics/numeric/fast-log.js';
import { Random } from '../../src/util/random.js';
import { close } from './helpers.js';

const logits = (rows: number[][]): { rows: number; cols: number; data: Float64Array } => ({
  rows: rows.length,
  cols: rows[0]!.length,
  data: Float64Array.from(rows.flat()),
});

test('logits of magnitude 1e3 give exact NLL, entropy and Brier (no overflow, no log of 0)', () => {
  const one = (row: number[], label: number) => evaluate(logits([row]), [label], { input: 'logits' });
  let r = one([1000, -1000, 0], 1);
  assert.equal(r.nll, 2000); // −log p_1 = log s − (z_1 − max) = 0 + 2000
  assert.equal(r.mean_entropy, 0);
  assert.equal(r.brier, 2);
  assert.equal(r.mean_confidence, 1);
  assert.equal(r.accuracy, 0);
  r = one([1000, -1000, 0], 0);
  assert.equal(r.nll, 0);
  assert.equal(r.brier, 0);
  r = one([1000, 1000, -1000], 0);
  close(r.nll, Math.LN2, 1e-15);
  close(r.mean_entropy, Math.LN2, 1e-15);
  close(r.brier, 0.5, 1e-15);
  assert.equal(r.accuracy, 1, 'ties go to the first maximal class');
  r = one([-1000, -1000.5], 1);
  close(r.nll, Math.log1p(Math.exp(0.5)), 1e-13);
  r = one([1e300, -1e300], 1);
  assert.equal(r.nll, 2e300);
  for (const key of ['ece', 'adaece', 'ks', 'classwise_ece', 'marginal_ece', 'debiased_ece', 'sweep_ece'] as const) assert.ok(Number.isFinite(r[key]), key);
});

test('float32 logits of ±1e3 go through the same stable path', () => {
  const data = Float32Array.from([1000, -1000, 0, -1000, 1000, 999]);
  const r = evaluate({ rows: 2, cols: 3, data }, [0, 2], { input: 'logits' });
  close(r.nll, (0 + Math.log1p(Math.exp(-1))) / 2 + 1 / 2, 1e-12);
  assert.equal(r.accuracy, 0.5);
});

test('probabilities of exactly 0 and 1: NLL clips only p_y = 0 (to 5e-324, 744.4 nats), entropy uses 0·log 0 = 0', () => {
  for (const Ctor of [Float64Array, Float32Array]) {
    const m = { rows: 2, cols: 3, data: Ctor.from([1, 0, 0, 0, 0, 1]) };
    const r = evaluate(m, [1, 2], { input: 'probabilities' });
    close(r.nll, -Math.log(NLL_CLIP) / 2, 1e-12);
    close(r.nll, 744.4400719213812 / 2, 1e-12);
    assert.equal(r.mean_entropy, 0);
    assert.equal(r.brier, 1); // (1 + 1 + 0) / 2
    assert.equal(r.mean_confidence, 1);
    assert.equal(r.accuracy, 0.5);
    assert.equal(r.ece, 0.5); // one bin (the last): confidence 1, accuracy 1/2
    const rel = evaluate(m, [1, 2], { input: 'probabilities', bins: 4, convention: '[l,u)' });
    assert.equal(rel.ece, 0.5, 'confidence 1 is in the last bin under [l,u) too');
  }
});

test('softmax and log-softmax are stable and consistent for huge logits', () => {
  const m = logits([
    [1000, 0, -1000],
    [5, 5, 5],
    [-1e4, -1e4 + 1, -1e4 + 2],
  ]);
  const p = softmax(m);
  const lp = logSoftmax(m);
  assert.deepEqual(Array.from(p.data.subarray(0, 3)), [1, Math.exp(-1000), 0]);
  assert.deepEqual(Array.from(lp.data.subarray(0, 3)), [0, -1000, -2000]);
  for (let i = 0; i < 3; i++) {
    let s = 0;
    for (let k = 0; k < 3; k++) {
      s += p.data[i * 3 + k]!;
      if (p.data[i * 3 + k]! > 0) close(Math.log(p.data[i * 3 + k]!), lp.data[i * 3 + k]!, 1e-12);
    }
    close(s, 1, 1e-15);
  }
  close(lp.data[8]!, -Math.log(1 + Math.exp(-1) + Math.exp(-2)), 1e-12);
});

test('the float32 log used for entropy agrees with Math.log to ~1e-15 relative, subnormals included', () => {
  const rng = new Random(17);
  const values: number[] = [1, Math.fround(0.9999999), 1.0009765625, 1e-45, 1.2e-38, Math.fround(1.17e-38), 0.5, 0.25, 2 ** -126];
  for (let i = 0; i < 200000; i++) values.push(Math.fround(Math.exp(-rng.uniform() * 100)));
  const f = new Float32Array(values);
  const bits = new Uint32Array(f.buffer);
  for (let i = 0; i < f.length; i++) {
    const x = f[i]!;
    const exact = Math.log(x);
    const got = logFloat32Bits(bits[i]!, x);
    assert.ok(Math.abs(got - exact) <= 2e-15 * Math.max(1, Math.abs(exact)), `log(${x}): ${got} vs ${exact}`);
  }
});

test('float32 and float64 copies of the same probabilities give the same metrics to float32 precision', () => {
  const rng = new Random(8);
  const n = 2000;
  const c = 10;
  const p = new Float32Array(n * c);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < c; k++) s += p[i * c + k] = Math.exp(3 * rng.normal());
    for (let k = 0; k < c; k++) p[i * c + k] = p[i * c + k]! / s;
  }
  const labels = Int32Array.from({ length: n }, () => rng.int(c));
  const a = evaluate({ rows: n, cols: c, data: p }, labels, { input: 'probabilities' });
  const b = evaluate({ rows: n, cols: c, data: Float64Array.from(p) }, labels, { input: 'probabilities' });
  // Identical values: only the entropy's log implementation differs.
  for (const key of ['ece', 'nll', 'brier', 'classwise_ece', 'marginal_ece', 'adaece', 'ks', 'sweep_ece', 'error_auroc'] as const) assert.equal(a[key], b[key], key);
  close(a.mean_entropy, b.mean_entropy, 1e-14);
});

test('NLL of a confidently wrong probability p_y = 1e-20 counts 46.05 nats (no clipping above 0)', () => {
  const m = { rows: 1, cols: 2, data: Float64Array.from([1 - 1e-20, 1e-20]) };
  const r = evaluate(m, [1], { input: 'probabilities' });
  close(r.nll, 20 * Math.LN10, 1e-12);
  assert.ok(Math.abs(r.nll - 46.0517) < 1e-4);
  const f32 = evaluate({ rows: 1, cols: 2, data: Float32Array.from([1, 1e-20]) }, [1], { input: 'probabilities' });
  close(f32.nll, -Math.log(Math.fround(1e-20)), 1e-12);
});
