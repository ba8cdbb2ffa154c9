import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-group-columns');
const p = (name: string): string => join(dir, name);

// The rows of eval-groups.test.ts with a second column, device: x on even rows, y on odd rows.
//   row:    0    1    2    3    4    5    6    7    8    9
//   site:   A    B    C    A    B    C    A    B    C    A
//   device: x    y    x    y    x    y    x    y    x    y
//   c:      0.9  0.6  0.7  0.9  0.6  0.7  0.9  0.8  0.7  0.9
//   ok:     ✓    ✗    ✓    ✓    ✗    ✓    ✓    ✓    ✗    ✗
const SITE = ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A'];
const DEVICE = SITE.map((_, i) => (i % 2 === 0 ? 'x' : 'y'));
const C = [0.9, 0.6, 0.7, 0.9, 0.6, 0.7, 0.9, 0.8, 0.7, 0.9];
const OK = [1, 0, 1, 1, 0, 1, 1, 1, 0, 0];
writeFileSync(p('p.csv'), C.map((c) => `${1 - c},${c}`).join('\n') + '\n');
writeFileSync(p('y.csv'), OK.join('\n') + '\n');
writeFileSync(p('site.csv'), 'site\n' + SITE.join('\n') + '\n');
writeFileSync(p('device.csv'), 'device\n' + DEVICE.join('\n') + '\n');
writeFileSync(p('both.csv'), 'site,device\n' + SITE.map((s, i) => `${s},${DEVICE[i]}`).join('\n') + '\n');
await writeNpy(p('both.npy'), Int32Array.from(SITE.flatMap((s, i) => [s.charCodeAt(0) - 65, i % 2])), [10, 2]);
// Weights 2 on rows 0–4, 1 on rows 5–9.
writeFileSync(p('w.csv'), SITE.map((_, i) => (i < 5 ? 2 : 1)).join('\n') + '\n');
const BASE = ['eval', '--probs', p('p.csv'), '--labels', p('y.csv'), '--refinement-calibrator', 'none', '--min-group-size', '2'];

async function json(argv: string[]): Promise<Record<string, any>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
}
const close = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;

test('calib eval with two group columns: per column the groups and summary; multicalibration over the union by hand', async () => {
  for (const groups of [
    ['--groups', p('both.csv')],
    ['--groups', p('site.csv'), '--groups', p('device.csv')],
  ]) {
    const out = await json([...BASE, ...groups, '--json']);
    assert.deepEqual(out.group_columns, ['site', 'device']);
    assert.deepEqual(Object.keys(out.groups.device), ['x', 'y']);
    // device x: rows 0, 2, 4, 6, 8: accuracy 3/5; ECE (15 bins) = (|0.9 − 1|·2 + |0.7 − 1/2|·2 + |0.6 − 0|) / 5 = 1.2 / 5.
    // device y: rows 1, 3, 5, 7, 9: ECE = (0.6 + |0.9 − 1/2|·2 + 0.3 + 0.2) / 5 = 1.9 / 5.
    assert.ok(close(out.groups.device.x.accuracy, 0.6) && close(out.groups.device.x.ece, 0.24), JSON.stringify(out.groups.device.x));
    assert.ok(close(out.groups.device.y.ece, 0.38));
    assert.equal(out.group_summary.device.worst_group, 'y');
    assert.ok(close(out.group_summary.device.spread, 0.14));
    assert.equal(out.group_summary.site.worst_ece_group, out.groups.site.B.ece > out.groups.site.A.ece ? 'B' : 'A');
    // Union of site and device cells of ≥ 2 rows: site A bin 14 (0.15), B bin 9 (0.6), C bin 11 (1/30); device x
    // 0.9 (−0.1), x 0.7 (0.2), y 0.9 (0.4) → 0.6 at site B; 6 cells evaluated, 5 of one row skipped.
    assert.ok(close(out.multicalibration_error, 0.6));
    assert.deepEqual([out.multicalibration.column, out.multicalibration.group, out.multicalibration.cells_evaluated, out.multicalibration.cells_skipped], ['site', 'B', 6, 5]);
  }
  // A .npy of shape 10 × 2: columns named both:0, both:1 with the integer ids.
  const npy = await json([...BASE, '--groups', p('both.npy'), '--json']);
  assert.deepEqual(npy.group_columns, ['both:0', 'both:1']);
  assert.deepEqual(Object.keys(npy.groups['both:1']), ['0', '1']);
  assert.ok(close(npy.groups['both:1']['1'].ece, 0.38));
});

test('calib eval --group-intersections: the crossed cells as one more column; small cells counted and skipped', async () => {
  const out = await json([...BASE, '--groups', p('both.csv'), '--group-intersections', '--json']);
  assert.deepEqual(out.group_columns, ['site', 'device', 'site × device']);
  const cells = out.groups['site × device'];
  assert.deepEqual(Object.keys(cells), ['A × x', 'B × y', 'C × x', 'A × y', 'B × x', 'C × y']);
  assert.deepEqual(
    Object.values(cells).map((g: any) => [g.n, g.too_small]),
    [
      [2, false],
      [2, false],
      [2, false],
      [2, false],
      [1, true],
      [1, true],
    ],
  );
  assert.equal(out.group_summary['site × device'].too_small_groups, 2);
  // Cells: A × x 0.9 (−0.1), C × x 0.7 (0.2), A × y 0.9 (0.4); B × y's two rows fall in two bins (skipped), B × x, C × y one row.
  assert.deepEqual([out.multicalibration.cells_evaluated, out.multicalibration.cells_skipped], [9, 9]);
  assert.ok(close(out.multicalibration_error, 0.6));
  const human = await run([...BASE, '--groups', p('both.csv'), '--group-intersections']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /== intersection cells site × device \(6 non-empty cells, 2 below 2 rows: shown, left out of the summary\) ==/);
  assert.match(human.stdout, /multicalibration error over every column's groups and their intersection cells: 60\.00 \(site = B, bin 9 of 15, 2 rows; 9 cells evaluated, 9 skipped below 2 rows\)/);
});

test('calib eval --groups --weights: weighted metrics per group, sizes Σ w in the mean', async () => {
  const out = await json([...BASE, '--groups', p('device.csv'), '--weights', p('w.csv'), '--group-metric', 'accuracy', '--json']);
  // x: Σ w = 8, correct weight 2 + 2 + 1 = 5 → 5/8; y: Σ w = 7, correct 2 + 1 + 1 = 4 → 4/7.
  assert.ok(close(out.groups.x.accuracy, 5 / 8) && close(out.groups.y.accuracy, 4 / 7));
  assert.deepEqual(out.groups.x.weights.sum, 8);
  // Weighted ECE of x: (|2·(−0.1) + 1·(−0.1)| + |2·(−0.3) + 1·0.7| + 2·0.6) / 8 = 1.6 / 8.
  assert.ok(close(out.groups.x.ece, 0.2));
  // Size-weighted mean of accuracy with sizes Σ w: (8 · 5/8 + 7 · 4/7) / 15 = 9/15, the overall weighted accuracy.
  assert.ok(close(out.group_summary.weighted_mean, 0.6) && close(out.accuracy, 0.6));
  assert.equal(out.group_summary.worst_group, 'y');
  const human = await run([...BASE, '--groups', p('device.csv'), '--weights', p('w.csv')]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /weights from .*w\.csv.*per group the weighted metrics, sizes Σ w/);
});

test('calib eval --groups: several columns refused in one line where they do not fit', async () => {
  const bad = async (argv: string[], arg: string, more: RegExp): Promise<void> => {
    const r = await run(argv);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(arg), r.stderr);
    assert.match(r.stderr, more);
  };
  await bad([...BASE, '--group-intersections'], '--group-intersections', /at least two group columns/);
  await bad([...BASE, '--groups', p('site.csv'), '--group-intersections'], '--group-intersections', /holds one/);
  writeFileSync(p('ragged.csv'), 'site,device\n' + SITE.map((s, i) => (i === 3 ? s : `${s},${DEVICE[i]}`)).join('\n') + '\n');
  await bad([...BASE, '--groups', p('ragged.csv')], '--groups', /2 comma-separated group ids on every line \(as on the header\), got 1 on line 5/);
  writeFileSync(p('cross.csv'), 'a,b\n' + SITE.map((s, i) => (i === 0 ? 'p × q,x' : `${s},x`)).join('\n') + '\n');
  await bad([...BASE, '--groups', p('cross.csv'), '--group-intersections'], '--groups', /without " × "/);
  await writeNpy(p('three-d.npy'), new Int32Array(20), [10, 2, 1]);
  await bad([...BASE, '--groups', p('three-d.npy')], '--groups', /shape \(N,\) or \(N, K\)/);
});
