/**
 * Weighted and class-balanced fits (issue 25 item 2): weights of all ones give the unweighted fit bit for bit;
 * integer weights equal repeating the rows (fitted parameters to 1e-9); zero weights equal dropping the rows;
 * balanced weights by hand; refusals naming the method and why; the record in the JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { balancedClassWeights, calibratorFromJSON, fitCalibrator, weightedKinds, type Calibrator, type CalibratorKind } from '../../src/posthoc/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { lcg, mat, splits } from './helpers.js';

const { val } = splits(3, 240, 3, 1.2);
const N = val.labels.length;
const C = 3;

/** The fitted parameters of a calibrator's JSON, flattened (numbers only, settings and fit record left out). */
function parameters(c: Calibrator): number[] {
  const { settings: _s, version: _v, fit: _f, ...rest } = c.toJSON() as Record<string, unknown>;
  const out: number[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'number') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(rest);
  return out;
}

/** Repeat row i w_i times (w integer). */
function repeated(weights: Float64Array) {
  const rows: number[] = [];
  weights.forEach((w, i) => {
    for (let r = 0; r < w; r++) rows.push(i);
  });
  const logits = new Float64Array(rows.length * C);
  rows.forEach((i, j) => logits.set(val.logits.subarray(i * C, (i + 1) * C), j * C));
  return { input: { logits: mat(rows.length, C, logits) }, labels: Int32Array.from(rows, (i) => val.labels[i]!) };
}

const integerWeights = (() => {
  const r = lcg(7);
  return Float64Array.from({ length: N }, () => Math.floor(r() * 4)); // 0, 1, 2 or 3: zeros drop rows
})();

test('the methods that take weights are the ones with a weighted objective or count', () => {
  assert.deepEqual(weightedKinds(), ['temperature', 'ts-mix', 'vector', 'matrix', 'dirichlet', 'svs', 'sms', 'histogram', 'isotonic', 'platt', 'beta', 'quadratic-scaling']);
});

for (const method of ['temperature', 'ts-mix', 'vector', 'matrix', 'dirichlet', 'svs', 'sms', 'histogram', 'isotonic'] as CalibratorKind[]) {
  test(`${method}: weights of all ones reproduce the unweighted fit exactly`, () => {
    const plain = fitCalibrator(method, val.input, val.labels);
    const ones = fitCalibrator(method, val.input, val.labels, undefined, { sampleWeights: new Float64Array(N).fill(1) });
    assert.deepEqual(parameters(ones), parameters(plain));
    assert.deepEqual((ones.toJSON() as Record<string, unknown>)['fit'], { weights: { kind: 'sample', sum: N, rows: N } });
  });

  test(`${method}: integer weights equal repeating the rows (parameters to 1e-9; weight 0 drops a row)`, () => {
    const weighted = fitCalibrator(method, val.input, val.labels, undefined, { sampleWeights: integerWeights });
    const dup = repeated(integerWeights);
    const duplicated = fitCalibrator(method, dup.input, dup.labels);
    const a = parameters(weighted);
    const b = parameters(duplicated);
    assert.equal(a.length, b.length);
    a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= 1e-9 * Math.max(1, Math.abs(b[i]!)), `${method} parameter ${i}: ${v} vs ${b[i]}`));
    // The weighted calibrator reads back from its JSON with its record.
    const back = calibratorFromJSON(JSON.parse(JSON.stringify(weighted.toJSON())));
    assert.deepEqual(back.toJSON(), weighted.toJSON());
  });
}

test('balanced class weights by hand: labels [0, 0, 0, 1] → N / (C n_y) = 4/6, 4/6, 4/6, 4/2', () => {
  assert.deepEqual(Array.from(balancedClassWeights(Int32Array.from([0, 0, 0, 1]), 2)), [4 / 6, 4 / 6, 4 / 6, 2]);
  // A class absent from the labels is not counted in C (scikit-learn counts the classes present).
  assert.deepEqual(Array.from(balancedClassWeights(Int32Array.from([0, 2, 2, 2]), 3)), [2, 4 / 6, 4 / 6, 4 / 6]);
});

test('balanced weights on a skewed tiny set: the histogram bin is the class-balanced frequency', () => {
  // One bin (bins=1): 3 rows of class 0, 1 of class 1. Unweighted class-1 frequency 1/4; balanced: w0 = 4/6, w1 = 2 →
  // (2) / (3 · 4/6 + 2) = 1/2 (each class carries half of the weight).
  const probabilities = mat(4, 2, [0.6, 0.4, 0.7, 0.3, 0.8, 0.2, 0.55, 0.45]);
  const labels = Int32Array.from([0, 0, 0, 1]);
  const fitted = fitCalibrator('histogram', { probabilities }, labels, { bins: 1 }, { sampleWeights: balancedClassWeights(labels, 2), weightsKind: 'balanced' });
  const json = fitted.toJSON() as Record<string, unknown>;
  assert.deepEqual(json['values'], [[0.5], [0.5]]);
  assert.deepEqual(json['fit'], { weights: { kind: 'balanced', sum: 4, rows: 4 } });
  const plain = fitCalibrator('histogram', { probabilities }, labels, { bins: 1 }).toJSON() as Record<string, unknown>;
  assert.deepEqual(plain['values'], [[0.75], [0.25]]);
});

test('balanced weights on a skewed set move the temperature fit (hand-checked weighted NLL minimum)', () => {
  // Two rows per class would give a fixed T; with weights the weighted NLL's derivative is zero at the fitted T.
  const logits = mat(4, 2, [2, 0, 1.5, 0, 0.5, 0, 0, 1]);
  const labels = Int32Array.from([0, 0, 1, 1]);
  const w = Float64Array.from([1, 1, 3, 0.5]);
  const t = (fitCalibrator('temperature', { logits }, labels, undefined, { sampleWeights: w }).toJSON() as unknown as { temperature: number }).temperature;
  // d/dβ Σ w_i NLL_i(β) = Σ w_i (E_p[z_i] − z_iy) at β = 1/T.
  let d = 0;
  for (let i = 0; i < 4; i++) {
    const z = [logits.data[2 * i]!, logits.data[2 * i + 1]!];
    const e = z.map((v) => Math.exp(v / t));
    const s = e[0]! + e[1]!;
    d += w[i]! * ((e[0]! * z[0]! + e[1]! * z[1]!) / s - z[labels[i]!]!);
  }
  assert.ok(Math.abs(d) < 1e-9, `weighted NLL derivative at T = ${t}: ${d}`);
});

test('bad weights and methods without a weighted form are refused, naming the argument', () => {
  const bad = (w: Float64Array, pattern: RegExp) =>
    assert.throws(
      () => fitCalibrator('temperature', val.input, val.labels, undefined, { sampleWeights: w }),
      (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message),
    );
  const neg = new Float64Array(N).fill(1);
  neg[5] = -1;
  bad(neg, /sampleWeights\[5\]: expected a finite weight ≥ 0, got -1/);
  const nan = new Float64Array(N).fill(1);
  nan[2] = Number.NaN;
  bad(nan, /sampleWeights\[2\]: expected a finite weight ≥ 0/);
  bad(new Float64Array(N), /sampleWeights: expected weights that are not all zero, got all zero/);
  bad(new Float64Array(N - 1).fill(1), new RegExp(`sampleWeights: expected ${N} weights`));
  assert.throws(
    () => fitCalibrator('bbq', val.input, val.labels, undefined, { sampleWeights: new Float64Array(N).fill(1) }),
    /sampleWeights: expected a method whose fit takes sample weights \(temperature, .*\), got --method bbq: its binnings are scored by BIC/,
  );
  assert.throws(
    () => fitCalibrator('temperature', val.input, val.labels, { objective: 'grid-ece' }, { sampleWeights: new Float64Array(N).fill(1) }),
    /temperature options.objective: expected 'nll' with sample weights/,
  );
});

// Binary methods (platt, beta): the same two checks on a two-class split.
const binary = splits(2, 240, 3, 1.2).val;
for (const method of ['platt', 'beta'] as CalibratorKind[]) {
  test(`${method}: weights of all ones reproduce the unweighted fit exactly; integer weights equal repeating the rows`, () => {
    const n = binary.labels.length;
    const plain = fitCalibrator(method, binary.input, binary.labels);
    const ones = fitCalibrator(method, binary.input, binary.labels, undefined, { sampleWeights: new Float64Array(n).fill(1) });
    assert.deepEqual(parameters(ones), parameters(plain));
    const r = lcg(9);
    const w = Float64Array.from({ length: n }, () => Math.floor(r() * 4));
    const rows: number[] = [];
    w.forEach((k, i) => {
      for (let j = 0; j < k; j++) rows.push(i);
    });
    const logits = new Float64Array(rows.length * 2);
    rows.forEach((i, j) => logits.set(binary.logits.subarray(i * 2, (i + 1) * 2), j * 2));
    const duplicated = fitCalibrator(
      method,
      { logits: mat(rows.length, 2, logits) },
      Int32Array.from(rows, (i) => binary.labels[i]!),
    );
    const weighted = fitCalibrator(method, binary.input, binary.labels, undefined, { sampleWeights: w });
    const a = parameters(weighted);
    const b = parameters(duplicated);
    assert.equal(a.length, b.length);
    a.forEach((v, i) => assert.ok(Math.abs(v - b[i]!) <= 1e-9 * Math.max(1, Math.abs(b[i]!)), `${method} parameter ${i}: ${v} vs ${b[i]}`));
    // The weights move the fit (the test could not pass with the weights ignored).
    assert.ok(
      a.some((v, i) => Math.abs(v - parameters(plain)[i]!) > 1e-6),
      `${method}: weighted ≠ unweighted`,
    );
  });
}

test('weighted platt and beta reproduce scikit-learn with sample_weight (fixture from make-weighted-binary-fixtures.py)', () => {
  const ref = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/posthoc/reference-weighted-binary.json', import.meta.url)), 'utf8'));
  const p = ref.platt;
  const n = p.f.length as number;
  const logits = mat(
    n,
    2,
    (p.f as number[]).flatMap((f) => [0, f]),
  );
  const platt = fitCalibrator('platt', { logits }, Int32Array.from(p.labels), undefined, { sampleWeights: Float64Array.from(p.weights) }).toJSON() as unknown as { a: number; b: number };
  for (const key of ['a', 'b'] as const) {
    assert.ok(Math.abs(platt[key] - p.tight[key]) < 1e-9, `platt ${key}: ${platt[key]} vs exact ${p.tight[key]}`);
    assert.ok(Math.abs(platt[key] - p.sklearn[key]) < 1e-5, `platt ${key}: ${platt[key]} vs sklearn ${p.sklearn[key]}`);
  }
  const b = ref.beta;
  const probabilities = mat(
    b.p1.length,
    2,
    (b.p1 as number[]).flatMap((v) => [1 - v, v]),
  );
  const beta = fitCalibrator('beta', { probabilities }, Int32Array.from(b.labels), undefined, { sampleWeights: Float64Array.from(b.weights) }).toJSON() as unknown as Record<'a' | 'b' | 'c', number>;
  for (const key of ['a', 'b', 'c'] as const) {
    assert.ok(Math.abs(beta[key] - b.tight[key]) < 1e-8 * Math.max(1, Math.abs(b.tight[key])), `beta ${key}: ${beta[key]} vs exact ${b.tight[key]}`);
    assert.ok(Math.abs(beta[key] - b.sklearn[key]) < 1e-4 * Math.max(1, Math.abs(b.sklearn[key])), `beta ${key}: ${beta[key]} vs sklearn ${b.sklearn[key]}`);
  }
});
