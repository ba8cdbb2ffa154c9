import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomSplit } from '../../src/data/splits.js';
import { conformalMetrics, fitConformal, fitMondrianConformal, minimumCalibrationRows, mondrianConformalMetrics, mondrianPredictionSets, softmax } from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { matrix, type Matrix } from '../../src/util/matrix.js';

// Calibration rows (C = 3), LAC scores 1 − p_y:
//   class 0: 0.1, 0.2, 0.4   class 1: 0.3, 0.45   class 2: none
const CAL = [
  [0.9, 0.05, 0.05],
  [0.8, 0.1, 0.1],
  [0.6, 0.3, 0.1],
  [0.2, 0.7, 0.1],
  [0.4, 0.55, 0.05],
];
const CAL_Y = Int32Array.from([0, 0, 0, 1, 1]);
// Test rows: LAC scores [0.15, 0.9, 0.95], [0.5, 0.55, 0.95], [0.9, 0.4, 0.7].
const TEST = [
  [0.85, 0.1, 0.05],
  [0.5, 0.45, 0.05],
  [0.1, 0.6, 0.3],
];
const TEST_Y = Int32Array.from([0, 1, 2]);
const m = (rows: number[][]): Matrix => matrix(rows.length, rows[0]!.length, Float64Array.from(rows.flat()));

test('minimumCalibrationRows: the least n with ⌈(n + 1)(1 − α)⌉ ≤ n', () => {
  for (const alpha of [0.5, 0.2, 0.1, 0.05, 0.01, 0.3, 0.07]) {
    const n = minimumCalibrationRows(alpha);
    assert.ok(Math.ceil((n + 1) * (1 - alpha)) <= n, `${alpha}`);
    assert.ok(n === 0 || Math.ceil(n * (1 - alpha)) > n - 1, `${alpha}`);
  }
  assert.deepEqual([0.5, 0.2, 0.1, 0.05].map(minimumCalibrationRows), [1, 4, 9, 19]);
});

test('class-conditional LAC: thresholds and sets by hand (α = 0.5)', () => {
  const p = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'class', method: 'lac', alpha: 0.5 });
  // class 0: n = 3, rank ⌈4 · 0.5⌉ = 2 → 0.2; class 1: n = 2, rank ⌈3 · 0.5⌉ = 2 → 0.45; class 2: no rows → +∞.
  assert.deepEqual(Array.from(p.counts), [3, 2, 0]);
  assert.ok(Math.abs(p.thresholds[0]! - 0.2) < 1e-15);
  assert.ok(Math.abs(p.thresholds[1]! - 0.45) < 1e-15);
  assert.equal(p.thresholds[2], Infinity);
  // Sets: {0, 2}, {2}, {1, 2}.
  assert.deepEqual(Array.from(mondrianPredictionSets(m(TEST), p)), [1, 0, 1, 0, 0, 1, 0, 1, 1]);
  const r = mondrianConformalMetrics(m(TEST), TEST_Y, p);
  assert.ok(Math.abs(r.coverage - 2 / 3) < 1e-15);
  assert.ok(Math.abs(r.meanSetSize - 5 / 3) < 1e-15);
  assert.equal(r.emptySets, 0);
  assert.deepEqual(r.perCategory, [
    { n: 1, coverage: 1, meanSetSize: 2 },
    { n: 1, coverage: 0, meanSetSize: 1 },
    { n: 1, coverage: 1, meanSetSize: 2 },
  ]);
});

test('group-conditional LAC: thresholds and sets by hand (α = 0.5), a group without calibration rows gets every class', () => {
  // Groups: x = rows 0, 1, 3 (scores 0.1, 0.2, 0.3 → q̂ 0.2); y = rows 2, 4 (0.4, 0.45 → q̂ 0.45); z: none (+∞).
  const p = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group', groups: Int32Array.from([0, 0, 1, 0, 1]), groupCount: 3, method: 'lac', alpha: 0.5 });
  assert.deepEqual(Array.from(p.counts), [3, 2, 0]);
  assert.ok(Math.abs(p.thresholds[0]! - 0.2) < 1e-15);
  assert.ok(Math.abs(p.thresholds[1]! - 0.45) < 1e-15);
  assert.equal(p.thresholds[2], Infinity);
  const groups = Int32Array.from([1, 0, 2]);
  // Row 0 (y, 0.45): {0}; row 1 (x, 0.2): {} (empty); row 2 (z): {0, 1, 2}.
  assert.deepEqual(Array.from(mondrianPredictionSets(m(TEST), p, groups)), [1, 0, 0, 0, 0, 0, 1, 1, 1]);
  const r = mondrianConformalMetrics(m(TEST), TEST_Y, p, groups);
  assert.ok(Math.abs(r.coverage - 2 / 3) < 1e-15);
  assert.ok(Math.abs(r.meanSetSize - 4 / 3) < 1e-15);
  assert.ok(Math.abs(r.emptySets - 1 / 3) < 1e-15);
  assert.deepEqual(r.perCategory, [
    { n: 1, coverage: 0, meanSetSize: 0 },
    { n: 1, coverage: 1, meanSetSize: 1 },
    { n: 1, coverage: 1, meanSetSize: 3 },
  ]);
  // Bad input names the argument.
  assert.throws(() => mondrianPredictionSets(m(TEST), p), /groups: expected a group index per row/);
  assert.throws(() => mondrianPredictionSets(m(TEST), p, Int32Array.from([0, 3, 1])), /groups: expected group indices in \[0, 3\), got 3 at row 1/);
  assert.throws(() => fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group', groups: Int32Array.from([0, 0]), groupCount: 3, method: 'lac' }), /groups: expected 5 group indices/);
});

test('one group holding every row gives the marginal threshold (fitConformal)', () => {
  for (const method of ['lac', 'aps', 'raps'] as const) {
    const g = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group', groups: new Int32Array(5), groupCount: 1, method, alpha: 0.3 });
    assert.equal(g.thresholds[0], fitConformal(m(CAL), CAL_Y, { method, alpha: 0.3 }).threshold);
  }
});

/** Three classes of decreasing separability: class 0 easy, class 2 hard and rare. */
function hardClassData(n: number, seed: number): { probs: Matrix; labels: Int32Array } {
  const rng = new Random(seed);
  const labels = new Int32Array(n);
  const logits = new Float64Array(n * 3);
  const strength = [3, 1.5, 0.3];
  for (let i = 0; i < n; i++) {
    const u = rng.uniform();
    const y = u < 0.5 ? 0 : u < 0.8 ? 1 : 2;
    labels[i] = y;
    for (let k = 0; k < 3; k++) logits[i * 3 + k] = rng.normal() + (k === y ? strength[y]! : 0) + (k === 0 ? 0.5 : 0);
  }
  return { probs: softmax(matrix(n, 3, logits)), labels };
}

function take(probs: Matrix, labels: Int32Array, rows: Int32Array): { p: Matrix; y: Int32Array } {
  const data = new Float64Array(rows.length * probs.cols);
  rows.forEach((r, i) => data.set(probs.data.subarray(r * probs.cols, (r + 1) * probs.cols), i * probs.cols));
  return { p: matrix(rows.length, probs.cols, data), y: Int32Array.from(rows, (r) => labels[r]!) };
}

test('class-conditional sets cover every class at ≥ 1 − α on average over 200 random splits; marginal sets under-cover the hard class', () => {
  const alpha = 0.1;
  const { probs, labels } = hardClassData(1000, 11);
  const splits = 200;
  const conditional = [0, 0, 0];
  const marginal = [0, 0, 0];
  for (let s = 0; s < splits; s++) {
    const [calRows, testRows] = randomSplit(1000, [500, 500], { seed: s });
    const cal = take(probs, labels, calRows!);
    const tst = take(probs, labels, testRows!);
    const cc = mondrianConformalMetrics(tst.p, tst.y, fitMondrianConformal(cal.p, cal.y, { taxonomy: 'class', method: 'lac', alpha }));
    const marginalPredictor = fitConformal(cal.p, cal.y, { method: 'lac', alpha });
    // The marginal predictor is a class-conditional one with every threshold equal.
    const asClass = { ...fitMondrianConformal(cal.p, cal.y, { taxonomy: 'class', method: 'lac', alpha }), thresholds: Float64Array.from([1, 2, 3], () => marginalPredictor.threshold) };
    const mg = mondrianConformalMetrics(tst.p, tst.y, asClass);
    assert.ok(Math.abs(mg.coverage - conformalMetrics(tst.p, tst.y, marginalPredictor).coverage) < 1e-12);
    for (let k = 0; k < 3; k++) {
      conditional[k]! += cc.perCategory[k]!.coverage / splits;
      marginal[k]! += mg.perCategory[k]!.coverage / splits;
    }
  }
  // Each class's mean coverage over splits: ≥ 1 − α − 0.01 (the mean of 200 split coverages of ~100–250 test rows
  // has a standard error below 0.005 even if the splits were independent).
  for (let k = 0; k < 3; k++) assert.ok(conditional[k]! >= 1 - alpha - 0.01, `class ${k}: ${conditional[k]}`);
  // Without conditioning the hard class falls well short (so this test can fail).
  assert.ok(marginal[2]! < 1 - alpha - 0.05, `marginal coverage of class 2: ${marginal[2]}`);
});

test('group-conditional sets cover every group at ≥ 1 − α on average over 200 random splits', () => {
  const alpha = 0.1;
  const n = 1000;
  const { probs, labels } = hardClassData(n, 5);
  // Group = 0 for rows whose top probability is above 0.7 (easy), 1 otherwise: the marginal threshold over-covers 0 and under-covers 1.
  const groups = Int32Array.from({ length: n }, (_, i) => (Math.max(...probs.data.subarray(i * 3, i * 3 + 3)) > 0.7 ? 0 : 1));
  const splits = 200;
  const conditional = [0, 0];
  const marginal = [0, 0];
  for (let s = 0; s < splits; s++) {
    const [calRows, testRows] = randomSplit(n, [500, 500], { seed: 1000 + s });
    const cal = take(probs, labels, calRows!);
    const tst = take(probs, labels, testRows!);
    const calGroups = Int32Array.from(calRows!, (r) => groups[r]!);
    const testGroups = Int32Array.from(testRows!, (r) => groups[r]!);
    const fitted = fitMondrianConformal(cal.p, cal.y, { taxonomy: 'group', groups: calGroups, groupCount: 2, method: 'aps', alpha });
    const gc = mondrianConformalMetrics(tst.p, tst.y, fitted, testGroups);
    const pooled = fitConformal(cal.p, cal.y, { method: 'aps', alpha }).threshold;
    const mg = mondrianConformalMetrics(tst.p, tst.y, { ...fitted, thresholds: Float64Array.from([pooled, pooled]) }, testGroups);
    for (let g = 0; g < 2; g++) {
      conditional[g]! += gc.perCategory[g]!.coverage / splits;
      marginal[g]! += mg.perCategory[g]!.coverage / splits;
    }
  }
  for (let g = 0; g < 2; g++) assert.ok(conditional[g]! >= 1 - alpha - 0.01, `group ${g}: ${conditional[g]}`);
  assert.ok(Math.min(marginal[0]!, marginal[1]!) < 1 - alpha - 0.02, `marginal: ${marginal}`);
});
