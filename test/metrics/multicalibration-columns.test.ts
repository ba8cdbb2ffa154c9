import { test } from 'node:test';
import assert from 'node:assert/strict';
import { multicalibrationError, multicalibrationOverColumns } from '../../src/metrics/multicalibration.js';

// 6 rows, 2 bins ((0, 0.5], (0.5, 1]). Confidence, correctness:
//   row: 0    1    2    3    4    5
//   c:   0.9  0.8  0.7  0.6  0.3  0.2
//   a:   1    0    0    1    0    1
// column "site": A A A B B B; column "device": x y x y x y.
const c = [0.9, 0.8, 0.7, 0.6, 0.3, 0.2];
const a = [1, 0, 0, 1, 0, 1];
const site = [0, 0, 0, 1, 1, 1];
const device = [0, 1, 0, 1, 0, 1];

test('multicalibrationError with weights: the cell mean is Σ w (c − a) / Σ w; the minimum counts rows', () => {
  const w = [1, 3, 1, 1, 2, 1];
  // Site A, bin 2: rows 0, 1, 2: (1·(−0.1) + 3·0.8 + 1·0.7) / 5 = 3.0 / 5 = 0.6.
  // Site B, bin 2: row 3: (0.6 − 1) = −0.4 (1 row); bin 1: rows 4, 5: (2·0.3 + 1·(−0.8)) / 3 = −0.2 / 3.
  const r = multicalibrationError(c, a, site, 2, { bins: 2, minCellSize: 1, weights: w });
  assert.ok(Math.abs(r.value! - 0.6) < 1e-12);
  assert.deepEqual([r.group, r.bin, r.cellSize, r.cellsEvaluated], [0, 1, 3, 3]);
  // Unweighted: site A bin 2 = (−0.1 + 0.8 + 0.7) / 3 = 1.4 / 3.
  assert.ok(Math.abs(multicalibrationError(c, a, site, 2, { bins: 2, minCellSize: 1 }).value! - 1.4 / 3) < 1e-12);
  // minCellSize 2 counts rows, not weight: site B bin 2 (1 row, weight 1) is skipped.
  const two = multicalibrationError(c, a, site, 2, { bins: 2, minCellSize: 2, weights: w });
  assert.deepEqual([two.cellsEvaluated, two.cellsSkipped], [2, 1]);
  // A cell of zero weight is skipped.
  const zero = multicalibrationError(c, a, site, 2, { bins: 2, minCellSize: 1, weights: [0, 0, 0, 1, 1, 1] });
  assert.deepEqual([zero.cellsEvaluated, zero.cellsSkipped], [2, 1]);
  assert.ok(Math.abs(zero.value! - 0.4) < 1e-12);
});

test('multicalibrationOverColumns: the largest cell over the union of the columns, cells summed', () => {
  // device x, bin 2: rows 0, 2: (−0.1 + 0.7) / 2 = 0.3; device y, bin 2: rows 1, 3: (0.8 − 0.4) / 2 = 0.2;
  // device x, bin 1: row 4: 0.3; device y, bin 1: row 5: −0.8 → |−0.8| = 0.8 (1 row).
  const r = multicalibrationOverColumns(
    c,
    a,
    [
      { index: site, count: 2 },
      { index: device, count: 2 },
    ],
    { bins: 2, minCellSize: 1 },
  );
  assert.ok(Math.abs(r.value! - 0.8) < 1e-12);
  assert.deepEqual([r.column, r.group, r.bin, r.cellSize, r.cellsEvaluated, r.cellsSkipped], [1, 1, 0, 1, 7, 0]);
  // Minimum 2 rows: site A bin 2 (1.4 / 3) is the largest of the cells left (site B bin 1: −0.5 / 2; device: 0.3, 0.2).
  const two = multicalibrationOverColumns(
    c,
    a,
    [
      { index: site, count: 2 },
      { index: device, count: 2 },
    ],
    { bins: 2, minCellSize: 2 },
  );
  assert.ok(Math.abs(two.value! - 1.4 / 3) < 1e-12);
  assert.deepEqual([two.column, two.group, two.bin, two.cellsEvaluated, two.cellsSkipped], [0, 0, 1, 4, 3]);
  const none = multicalibrationOverColumns(c, a, [{ index: site, count: 2 }], { bins: 2, minCellSize: 10 });
  assert.deepEqual([none.value, none.column, none.cellsSkipped], [null, null, 3]);
});
