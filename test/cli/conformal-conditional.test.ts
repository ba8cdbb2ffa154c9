import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-conformal-conditional');
const p = (name: string): string => join(dir, name);
const csv = (rows: number[][]): string => rows.map((r) => r.join(',')).join('\n') + '\n';

// The hand-worked example of test/metrics/mondrian-conformal.test.ts: LAC scores of the calibration rows per class
// 0: 0.1, 0.2, 0.4; 1: 0.3, 0.45; 2: none. Calibration groups x, x, y, x, y; test groups y, x, z.
writeFileSync(
  p('cal.csv'),
  csv([
    [0.9, 0.05, 0.05],
    [0.8, 0.1, 0.1],
    [0.6, 0.3, 0.1],
    [0.2, 0.7, 0.1],
    [0.4, 0.55, 0.05],
  ]),
);
writeFileSync(p('cal-y.csv'), '0\n0\n0\n1\n1\n');
writeFileSync(p('cal-g.csv'), 'site\nx\nx\ny\nx\ny\n');
writeFileSync(
  p('test.csv'),
  csv([
    [0.85, 0.1, 0.05],
    [0.5, 0.45, 0.05],
    [0.1, 0.6, 0.3],
  ]),
);
writeFileSync(p('test-y.csv'), '0\n1\n2\n');
writeFileSync(p('test-g.csv'), 'y\nx\nz\n');
writeFileSync(p('short-g.csv'), 'y\nx\n');
const BASE = ['conformal', '--probs', p('test.csv'), '--labels', p('test-y.csv'), '--calib-probs', p('cal.csv'), '--calib-labels', p('cal-y.csv'), '--method', 'lac', '--alpha', '0.5'];

test('calib conformal --class-conditional: per-class thresholds, coverage and set sizes by hand; the class without rows is named', async () => {
  const r = await run([...BASE, '--class-conditional', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, 'calib: warning: class 2 has no calibration rows, fewer than the 1 that α = 0.5 needs: no finite threshold, so class 2 is in every prediction set\n');
  const out = JSON.parse(r.stdout);
  assert.equal(out.conditional, 'class');
  assert.deepEqual(out.too_few_calibration_rows, ['2']);
  const lac = out.methods.lac;
  assert.ok(Math.abs(lac.coverage - 2 / 3) < 1e-15);
  assert.ok(Math.abs(lac.mean_set_size - 5 / 3) < 1e-15);
  assert.ok(Math.abs(lac.per_class['0'].threshold - 0.2) < 1e-15);
  assert.ok(Math.abs(lac.per_class['1'].threshold - 0.45) < 1e-15);
  assert.deepEqual(lac.per_class['2'], { n_calibration: 0, threshold: null, too_few_calibration_rows: true, n_test: 1, coverage: 1, mean_set_size: 2 });
  assert.deepEqual({ ...lac.per_class['1'], threshold: 0 }, { n_calibration: 2, threshold: 0, too_few_calibration_rows: false, n_test: 1, coverage: 0, mean_set_size: 1 });
  // The table says "none" with the reason instead of ∞.
  const t = await run([...BASE, '--class-conditional']);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /one threshold per class \(class-conditional\)/);
  assert.match(t.stdout, /\n2 +0 +none \(< 1 rows: in every set\) +1 +100\.00 +2\.000\n/);
  assert.match(t.stdout, /\n0 +3 +0\.2000 +1 +100\.00 +2\.000\n/);
  assert.doesNotMatch(t.stdout, /∞|Infinity/);
});

test('calib conformal --groups --calib-groups: per-group thresholds by hand; a group absent from calibration gets every class, with a warning', async () => {
  const r = await run([...BASE, '--groups', p('test-g.csv'), '--calib-groups', p('cal-g.csv'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^calib: warning: group "z" has no calibration rows, fewer than the 1 that α = 0\.5 needs: no finite threshold, so every prediction set of its rows holds every class\n$/);
  const out = JSON.parse(r.stdout);
  assert.equal(out.conditional, 'group');
  const g = out.methods.lac.per_group;
  assert.deepEqual(Object.keys(g), ['x', 'y', 'z']);
  assert.ok(Math.abs(g.x.threshold - 0.2) < 1e-15);
  assert.ok(Math.abs(g.y.threshold - 0.45) < 1e-15);
  assert.equal(g.z.threshold, null);
  assert.deepEqual([g.x.coverage, g.x.mean_set_size, g.y.coverage, g.y.mean_set_size, g.z.coverage, g.z.mean_set_size], [0, 0, 1, 1, 1, 3]);
  assert.ok(Math.abs(out.methods.lac.empty_sets - 1 / 3) < 1e-15);
});

test('calib conformal --groups on a split of one file: the group ids follow their rows', async () => {
  // 40 rows, two groups; every row's true class has probability 0.9 in group a and 0.6 in group b.
  const rows = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? [0.9, 0.1] : [0.6, 0.4]));
  writeFileSync(p('all.csv'), csv(rows));
  writeFileSync(p('all-y.csv'), '0\n'.repeat(40));
  writeFileSync(p('all-g.csv'), Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'a' : 'b')).join('\n') + '\n');
  const r = await run(['conformal', '--probs', p('all.csv'), '--labels', p('all-y.csv'), '--groups', p('all-g.csv'), '--method', 'lac', '--alpha', '0.2', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const g = JSON.parse(r.stdout).methods.lac.per_group;
  // Every calibration score of group a is 0.1 and of group b 0.4 (to rounding), so the thresholds are those scores.
  assert.ok(Math.abs(g.a.threshold - 0.1) < 1e-12);
  assert.ok(Math.abs(g.b.threshold - 0.4) < 1e-12);
  assert.equal(g.a.n_calibration + g.b.n_calibration, 20);
  assert.equal(g.a.n_test + g.b.n_test, 20);
});

test('calib conformal --class-conditional / --groups: bad input refused in one line naming the flag', async () => {
  const bad = async (argv: string[], flag: string, pattern?: RegExp) => {
    const r = await run(argv);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(r.stderr.includes(flag), r.stderr);
    if (pattern) assert.match(r.stderr, pattern);
  };
  await bad([...BASE, '--class-conditional', '--groups', p('test-g.csv'), '--calib-groups', p('cal-g.csv'), '--min-cell-size', '0'], '--min-cell-size');
  await bad([...BASE, '--groups', p('test-g.csv')], '--calib-groups', /group ids of the calibration rows/);
  await bad([...BASE, '--calib-groups', p('cal-g.csv')], '--calib-groups', /only with --groups/);
  await bad([...BASE, '--groups', p('short-g.csv'), '--calib-groups', p('cal-g.csv')], '--groups', /3 group ids.*2 lines/);
  await bad([...BASE, '--groups', p('test-g.csv'), '--calib-groups', p('test-g.csv')], '--calib-groups', /5 group ids/);
});

test('calib conformal --class-conditional --groups: one threshold per group × class cell; small cells use the class threshold, counted in a warning', async () => {
  const r = await run([...BASE, '--class-conditional', '--groups', p('test-g.csv'), '--calib-groups', p('cal-g.csv'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  // Cells with fewer than 1 calibration row (α = 0.5): x × 2, y × 2 and the three cells of z (absent from calibration).
  assert.match(
    r.stderr,
    /^calib: warning: 5 of 9 group × class cells have fewer than 1 calibration rows \("x × class 2", "y × class 2", "z × class 0", "z × class 1", "z × class 2"\): they use their class's threshold over all groups, with no coverage guarantee within the cell\n$/,
  );
  const out = JSON.parse(r.stdout);
  assert.equal(out.conditional, 'group-class');
  assert.equal(out.min_cell_size, 1);
  const cells = out.methods.lac.per_cell;
  [cells['x × class 0'].threshold, cells['x × class 1'].threshold, cells['y × class 0'].threshold, cells['y × class 1'].threshold].forEach((q: number, i: number) =>
    assert.ok(Math.abs(q - [0.2, 0.3, 0.4, 0.45][i]!) < 1e-15, `${q}`),
  );
  // z × class 1 falls back to class 1's threshold over all groups: (0.3, 0.45), rank ⌈3 · 0.5⌉ = 2 → 0.45.
  assert.ok(Math.abs(cells['z × class 1'].threshold - 0.45) < 1e-15);
  assert.deepEqual([cells['z × class 1'].fallback, cells['x × class 1'].fallback, cells['z × class 2'].threshold], [true, false, null]);
  // Test rows: y {0, 2} covers 0; x {2} misses 1; z {1, 2} covers 2 → coverage 2/3, mean size 5/3.
  assert.ok(Math.abs(out.methods.lac.coverage - 2 / 3) < 1e-12);
  assert.ok(Math.abs(out.methods.lac.mean_set_size - 5 / 3) < 1e-12);
  const human = await run([...BASE, '--class-conditional', '--groups', p('test-g.csv'), '--calib-groups', p('cal-g.csv'), '--min-cell-size', '2']);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /one threshold per group × class cell/);
  assert.match(human.stdout, /\nx × class 1 +1 +0\.4500 \(class's, < 2 rows\)/);
  const bad = await run([...BASE, '--class-conditional', '--min-cell-size', '3']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: --min-cell-size: expected only with --class-conditional and --groups/);
});
