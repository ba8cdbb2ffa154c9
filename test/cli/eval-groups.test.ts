import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/index.js';
import { metricsJson } from '../../src/report/metrics-json.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-groups');

// A tiny two-class set, three groups. (confidence of the predicted class, correct?) per row:
//   A: 0.9 ✓, 0.9 ✓, 0.9 ✓, 0.9 ✗        → bin 13 of 15 ((l,u]: ⌈0.9·15⌉ − 1), mean(c − a) = 0.9 − 3/4 = 0.15
//   B: 0.6 ✗, 0.6 ✗, 0.8 ✓               → bin 8: 0.6 − 0 = 0.6 (2 rows); bin 11: 0.8 − 1 = −0.2 (1 row)
//   C: 0.7 ✓, 0.7 ✓, 0.7 ✗               → bin 10: 0.7 − 2/3 = 0.0333…
const ROWS: [string, number, boolean][] = [
  ['A', 0.9, true],
  ['B', 0.6, false],
  ['C', 0.7, true],
  ['A', 0.9, true],
  ['B', 0.6, false],
  ['C', 0.7, true],
  ['A', 0.9, true],
  ['B', 0.8, true],
  ['C', 0.7, false],
  ['A', 0.9, false],
];
// Class 1 is predicted with confidence c; the label is 1 when correct, else 0.
const probs = ROWS.map(([, c]) => [1 - c, c]);
const labels = ROWS.map(([, , ok]) => (ok ? 1 : 0));
writeFileSync(join(dir, 'p.csv'), probs.map((r) => r.join(',')).join('\n') + '\n');
writeFileSync(join(dir, 'y.csv'), labels.join('\n') + '\n');
writeFileSync(join(dir, 'g.csv'), 'site\n' + ROWS.map(([g]) => g).join('\n') + '\n');
const BASE = ['eval', '--probs', join(dir, 'p.csv'), '--labels', join(dir, 'y.csv'), '--refinement-calibrator', 'none'];

async function json(argv: string[]): Promise<Record<string, any>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, any>;
}

test('calib eval --groups: each group equals evaluate on its rows; multicalibration error by hand', async () => {
  const out = await json([...BASE, '--groups', join(dir, 'g.csv'), '--min-group-size', '2', '--json']);
  assert.deepEqual(Object.keys(out.groups), ['A', 'B', 'C']);
  for (const id of ['A', 'B', 'C']) {
    const rows = ROWS.flatMap(([g], i) => (g === id ? [i] : []));
    const m = matrix(rows.length, 2, Float64Array.from(rows.flatMap((i) => probs[i]!)));
    const expected = metricsJson(
      evaluate(
        m,
        Int32Array.from(rows, (i) => labels[i]!),
        { input: 'probabilities', bins: 15, convention: '(l,u]', refinementCalibrator: 'none' },
      ),
      { input: 'probabilities' },
    );
    const { too_small, ...got } = out.groups[id];
    assert.deepEqual(got, expected, id);
    assert.equal(got.n, rows.length);
    assert.equal(too_small, false);
  }
  // Per-group ECE by hand (one occupied bin per group except B): A 0.15, B (2/3)·0.6 + (1/3)·0.2, C 1/30.
  assert.ok(Math.abs(out.groups.A.ece - 0.15) < 1e-12);
  assert.ok(Math.abs(out.groups.B.ece - (0.4 + 0.2 / 3)) < 1e-12);
  assert.ok(Math.abs(out.groups.C.ece - 1 / 30) < 1e-12);
  assert.equal(out.group_summary.worst_ece_group, 'B');
  assert.ok(Math.abs(out.group_summary.spread - (0.4 + 0.2 / 3 - 1 / 30)) < 1e-12);
  assert.ok(Math.abs(out.group_summary.weighted_mean - (4 * 0.15 + 3 * (0.4 + 0.2 / 3) + 3 / 30) / 10) < 1e-12);
  // Cells with ≥ 2 rows: A/13 (0.15), B/8 (0.6), C/10 (0.0333); B/11 has 1 row and is skipped.
  assert.ok(Math.abs(out.multicalibration_error - 0.6) < 1e-12);
  assert.deepEqual(
    { ...out.multicalibration, reason: out.multicalibration.reason },
    { group: 'B', bin: 8, cell_size: 2, cells_evaluated: 3, cells_skipped: 1, bins: 15, min_cell_size: 2, reason: null },
  );
  // With 3 rows per cell only A/13 and C/10 qualify; B (3 rows) is still large enough as a group.
  const three = await json([...BASE, '--groups', join(dir, 'g.csv'), '--min-group-size', '3', '--json']);
  assert.ok(Math.abs(three.multicalibration_error - 0.15) < 1e-12);
  assert.equal(three.multicalibration.group, 'A');
  assert.equal(three.multicalibration.cells_skipped, 2);
  // --group-metric accuracy: worst = lowest accuracy (B and C: 2/3 wrong or 1/3 wrong; B 1/3 right).
  const acc = await json([...BASE, '--groups', join(dir, 'g.csv'), '--min-group-size', '3', '--group-metric', 'accuracy', '--json']);
  assert.equal(acc.group_summary.worst_group, 'B');
  assert.ok(Math.abs(acc.group_summary.worst_value - 1 / 3) < 1e-12);
  assert.ok(Math.abs(acc.group_summary.spread - (3 / 4 - 1 / 3)) < 1e-12);
  // Integer ids from .npy give the same numbers.
  await writeNpy(
    join(dir, 'g.npy'),
    Int32Array.from(ROWS, ([g]) => 'ABC'.indexOf(g)),
    [ROWS.length],
  );
  const numeric = await json([...BASE, '--groups', join(dir, 'g.npy'), '--min-group-size', '2', '--json']);
  assert.deepEqual(Object.keys(numeric.groups), ['0', '1', '2']);
  assert.equal(numeric.multicalibration_error, out.multicalibration_error);
  assert.equal(numeric.groups['1'].ece, out.groups.B.ece);
});

test('calib eval --groups: the table shows n, accuracy, ECE per group and the summary lines', async () => {
  const r = await run([...BASE, '--groups', join(dir, 'g.csv'), '--min-group-size', '4']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /per group \(3 groups, minimum size 4\):/);
  assert.match(r.stdout, /\nA +4 +75\.00 +15\.00 *\n/);
  assert.match(r.stdout, /\nB +3 +33\.33 +46\.67 +too small \(< 4\)\n/);
  assert.match(r.stdout, /ece over 1 groups: size-weighted mean 15\.00, spread \(max − min\) 0\.00/);
  assert.match(r.stdout, /multicalibration error: 15\.00 \(group A, bin 14 of 15, 4 rows; 1 cells evaluated, 3 skipped below 4 rows\)/);
});

test('calib eval --groups: one group is allowed (spread 0); all groups too small give null with a reason', async () => {
  writeFileSync(join(dir, 'one.txt'), ROWS.map(() => 'all').join('\n') + '\n');
  const one = await json([...BASE, '--groups', join(dir, 'one.txt'), '--min-group-size', '2', '--json']);
  assert.equal(one.group_summary.spread, 0);
  assert.equal(one.group_summary.worst_group, 'all');
  assert.equal(one.groups.all.ece, one.ece);
  const none = await json([...BASE, '--groups', join(dir, 'g.csv'), '--json']);
  assert.equal(none.group_summary.worst_group, null);
  assert.equal(none.group_summary.spread, null);
  assert.match(none.group_summary.reason, /no group has at least 20 rows/);
  assert.equal(none.multicalibration_error, null);
  assert.match(none.multicalibration.reason, /no group × bin cell has at least 20 rows/);
  assert.equal(none.groups.A.too_small, true);
  assert.equal(none.groups.A.n, 4);
});

test('calib eval --groups refuses bad input with one line naming the argument', async () => {
  writeFileSync(join(dir, 'short.csv'), 'A\nB\nC\n');
  const short = await run([...BASE, '--groups', join(dir, 'short.csv')]);
  assert.equal(short.code, 2);
  assert.match(short.stderr, /^calib: error: --groups: expected 10 group ids, one per row of --probs \(10 rows\), got 3 lines\n$/);
  await writeNpy(join(dir, 'long.npy'), new Int32Array(11), [11]);
  const long = await run([...BASE, '--groups', join(dir, 'long.npy')]);
  assert.equal(long.code, 2);
  assert.match(long.stderr, /^calib: error: --groups: expected 10 group ids.*got 11 entries\n$/);
  await writeNpy(
    join(dir, 'frac.npy'),
    Float64Array.from(ROWS, () => 0.5),
    [ROWS.length],
  );
  const frac = await run([...BASE, '--groups', join(dir, 'frac.npy')]);
  assert.equal(frac.code, 2);
  assert.match(frac.stderr, /^calib: error: --groups: expected integer group ids, got 0\.5 at row 0\n$/);
  const size = await run([...BASE, '--groups', join(dir, 'g.csv'), '--min-group-size', '0']);
  assert.equal(size.code, 2);
  assert.match(size.stderr, /^calib: error: --min-group-size: /);
  const combined = await run([...BASE, '--groups', join(dir, 'g.csv'), '--bootstrap', '10']);
  assert.equal(combined.code, 2);
  assert.match(combined.stderr, /--bootstrap cannot be combined with --groups/);
});

test('calib eval --help documents --groups', async () => {
  const r = await run(['eval', '--help']);
  assert.equal(r.code, 0);
  for (const flag of ['--groups', '--group-metric', '--min-group-size', 'multicalibration_error', 'Hébert-Johnson']) assert.ok(r.stdout.includes(flag), flag);
});
