import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitMondrianConformal, mondrianConformalMetrics, mondrianPredictionSets } from '../../src/metrics/index.js';
import { matrix, type Matrix } from '../../src/util/matrix.js';

// The example of mondrian-conformal.test.ts. Calibration rows (C = 3), LAC scores 1 − p_y, groups x, x, y, x, y:
//   x × class 0: 0.1, 0.2   x × class 1: 0.3   y × class 0: 0.4   y × class 1: 0.45   class 2: none.
const CAL = [
  [0.9, 0.05, 0.05],
  [0.8, 0.1, 0.1],
  [0.6, 0.3, 0.1],
  [0.2, 0.7, 0.1],
  [0.4, 0.55, 0.05],
];
const CAL_Y = Int32Array.from([0, 0, 0, 1, 1]);
const CAL_G = Int32Array.from([0, 0, 1, 0, 1]);
// Test rows: LAC scores [0.15, 0.9, 0.95], [0.5, 0.55, 0.95], [0.9, 0.4, 0.7]; groups y, x, x.
const TEST = [
  [0.85, 0.1, 0.05],
  [0.5, 0.45, 0.05],
  [0.1, 0.6, 0.3],
];
const TEST_Y = Int32Array.from([0, 1, 2]);
const TEST_G = Int32Array.from([1, 0, 0]);
/** Equal to 1e-15, ±∞ exactly (scores 1 − p carry rounding: 1 − 0.8 = 0.19999999999999996). */
function near(actual: ArrayLike<number>, expected: readonly number[]): void {
  assert.equal(actual.length, expected.length);
  expected.forEach((e, i) => assert.ok(Number.isFinite(e) ? Math.abs(actual[i]! - e) < 1e-15 : actual[i] === e, `${i}: ${actual[i]} vs ${e}`));
}
const m = (rows: number[][]): Matrix => matrix(rows.length, rows[0]!.length, Float64Array.from(rows.flat()));

test('group × class LAC (α = 0.5): one threshold per cell by hand; empty cells take their class threshold', () => {
  const p = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group-class', groups: CAL_G, groupCount: 2, method: 'lac', alpha: 0.5 });
  // Cell index g · 3 + k. x × 0: n = 2, rank ⌈3 · 0.5⌉ = 2 → 0.2; x × 1: n = 1, rank 1 → 0.3; y × 0 → 0.4; y × 1 → 0.45;
  // x × 2, y × 2: no rows → the class-2 threshold over all groups, +∞ (no rows either).
  assert.deepEqual(Array.from(p.counts), [2, 1, 0, 1, 1, 0]);
  near(p.thresholds, [0.2, 0.3, Infinity, 0.4, 0.45, Infinity]);
  assert.deepEqual(Array.from(p.fallback!), [0, 0, 1, 0, 0, 1]);
  assert.equal(p.minCellSize, 1);
  // Row 0 (y): 0.15 ≤ 0.4, 0.9 > 0.45 → {0, 2}; row 1 (x): 0.5 > 0.2, 0.55 > 0.3 → {2}; row 2 (x): 0.9, 0.4 > 0.3 → {2}.
  assert.deepEqual(Array.from(mondrianPredictionSets(m(TEST), p, TEST_G)), [1, 0, 1, 0, 0, 1, 0, 0, 1]);
  const r = mondrianConformalMetrics(m(TEST), TEST_Y, p, TEST_G);
  assert.ok(Math.abs(r.coverage - 2 / 3) < 1e-15);
  assert.ok(Math.abs(r.meanSetSize - 4 / 3) < 1e-15);
  // Per cell of the test rows: y × 0 (row 0) covered, size 2; x × 1 (row 1) not covered; x × 2 (row 2) covered.
  assert.deepEqual(r.perCategory[3], { n: 1, coverage: 1, meanSetSize: 2 });
  assert.deepEqual(r.perCategory[1], { n: 1, coverage: 0, meanSetSize: 1 });
  assert.deepEqual(r.perCategory[2], { n: 1, coverage: 1, meanSetSize: 1 });
  assert.equal(r.perCategory[0]!.n, 0);
});

test('group × class LAC with minCellSize 2: cells of one row fall back to the class-conditional thresholds', () => {
  const p = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group-class', groups: CAL_G, groupCount: 2, method: 'lac', alpha: 0.5, minCellSize: 2 });
  // Class thresholds over all groups: class 0 (0.1, 0.2, 0.4) rank 2 → 0.2; class 1 (0.3, 0.45) rank 2 → 0.45.
  near(p.thresholds, [0.2, 0.45, Infinity, 0.2, 0.45, Infinity]);
  assert.deepEqual(Array.from(p.fallback!), [0, 1, 1, 1, 1, 1]);
  // Row 2 (x): 0.4 ≤ 0.45 now → {1, 2}.
  assert.deepEqual(Array.from(mondrianPredictionSets(m(TEST), p, TEST_G)), [1, 0, 1, 0, 0, 1, 0, 1, 1]);
  // A minimum below the α minimum is raised to it (α = 0.2 needs 4 rows: every cell falls back).
  const q = fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group-class', groups: CAL_G, groupCount: 2, method: 'lac', alpha: 0.2, minCellSize: 1 });
  assert.equal(q.minCellSize, 4);
  assert.deepEqual(Array.from(q.fallback!), [1, 1, 1, 1, 1, 1]);
  assert.throws(() => fitMondrianConformal(m(CAL), CAL_Y, { taxonomy: 'group-class', groups: CAL_G, groupCount: 2, method: 'lac', minCellSize: 0 }), /minCellSize/);
  assert.throws(() => mondrianPredictionSets(m(TEST), p, Int32Array.from([0, 2, 0])), /groups: expected group indices in \[0, 2\), got 2 at row 1/);
});
