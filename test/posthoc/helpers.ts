/** Test helpers for the post-hoc calibrators: naive reference formulas, fixtures, tolerances. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import type { Matrix } from '../../src/util/matrix.js';

/** Reference values written by test/fixtures/scripts/make-posthoc-fixtures.py (dist/test/posthoc → test/fixtures). */
export const REFERENCE_PATH = fileURLToPath(new URL('../../../test/fixtures/posthoc/reference.json', import.meta.url));

export function loadReference(): any {
  return JSON.parse(readFileSync(REFERENCE_PATH, 'utf8'));
}

export function mat(rows: number, cols: number, data: ArrayLike<number>): Matrix<Float64Array> {
  return { rows, cols, data: Float64Array.from(data) };
}

/** Naive softmax of every row (written independently of the library: exp of the shifted row, divided by its sum). */
export function naiveSoftmax(logits: ArrayLike<number>, rows: number, cols: number, temperature = 1): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = Array.from({ length: cols }, (_, k) => logits[i * cols + k]! / temperature);
    const m = Math.max(...row);
    const e = row.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    for (let k = 0; k < cols; k++) out[i * cols + k] = e[k]! / s;
  }
  return out;
}

/**
 * Naive top-label ECE with M equal-width (l, u] bins (bin of c = the m with m/M < c ≤ (m+1)/M, c = 0 → 0),
 * from probabilities N × C; argmax = first maximum.
 */
export function naiveEce(probabilities: ArrayLike<number>, labels: Int32Array, cols: number, bins = 15): number {
  const n = labels.length;
  const groups: { c: number; a: number }[][] = Array.from({ length: bins }, () => []);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < cols; k++) if (probabilities[i * cols + k]! > probabilities[i * cols + best]!) best = k;
    const c = probabilities[i * cols + best]!;
    let m = 0;
    while (m < bins - 1 && c > (m + 1) / bins) m++;
    groups[m]!.push({ c, a: best === labels[i] ? 1 : 0 });
  }
  let ece = 0;
  for (const g of groups) {
    if (g.length === 0) continue;
    const conf = g.reduce((s, v) => s + v.c, 0) / g.length;
    const acc = g.reduce((s, v) => s + v.a, 0) / g.length;
    ece += (g.length / n) * Math.abs(acc - conf);
  }
  return ece;
}

/** Mean NLL of probabilities N × C against labels. */
export function naiveNll(probabilities: ArrayLike<number>, labels: Int32Array, cols: number): number {
  let s = 0;
  for (let i = 0; i < labels.length; i++) s -= Math.log(probabilities[i * cols + labels[i]!]!);
  return s / labels.length;
}

/** Validation and test splits of the synthetic overconfident problem (logits float64). */
export function splits(classes: number, n = 3000, overconfidence = 3, separation = 1.5) {
  const val = syntheticOverconfident({ n, classes, seed: 11, overconfidence, separation });
  const test = syntheticOverconfident({ n, classes, seed: 12, overconfidence, separation });
  return {
    val: { input: { logits: mat(n, classes, val.logits) }, labels: val.labels, logits: val.logits },
    test: { input: { logits: mat(n, classes, test.logits) }, labels: test.labels, logits: test.logits },
  };
}

/** |a − b| ≤ atol + rtol·|b| elementwise. */
export function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol = 0, what = ''): void {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!;
    const b = expected[i]!;
    assert.ok(Math.abs(a - b) <= atol + rtol * Math.abs(b), `${what}[${i}]: ${a} vs ${b}`);
  }
}

/** Every row of an N × C matrix is finite, in [0, 1], and sums to 1 within 1e−12. */
export function assertProbabilityRows(m: Matrix, what = ''): void {
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let k = 0; k < m.cols; k++) {
      const v = m.data[i * m.cols + k]!;
      assert.ok(Number.isFinite(v) && v >= 0 && v <= 1, `${what}: entry (${i}, ${k}) = ${v}`);
      s += v;
    }
    assert.ok(Math.abs(s - 1) <= 1e-12, `${what}: row ${i} sums to ${s}`);
  }
}

/** Deterministic pseudo-random numbers for test inputs (LCG; independent of src/util/random.ts). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Reference values written by test/fixtures/scripts/make-calibrators12-fixtures.py. */
export function loadCalibrators12Reference(): any {
  return JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/posthoc/reference-calibrators12.json', import.meta.url)), 'utf8'));
}

/** Nested number arrays (rows) → a row-major Matrix. */
export function rowsToMatrix(rows: number[][]): Matrix<Float64Array> {
  return mat(rows.length, rows[0]!.length, rows.flat());
}
