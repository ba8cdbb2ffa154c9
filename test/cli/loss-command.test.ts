import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy, writeNpy } from '../../src/io/index.js';
import { LOSSES } from '../../src/losses/index.js';
import { evalLoss, randomCase, toRows } from '../losses/helpers.js';
import * as naive from '../losses/naive.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('loss-cli');
const CASE = randomCase(41, [12, 4], 2);
const LOGITS = join(dir, 'logits.npy');
const LABELS = join(dir, 'labels.npy');
await writeNpy(LOGITS, CASE.logits, [12, 4]);
await writeNpy(LABELS, Int32Array.from(CASE.labels), [12]);
const ROWS = toRows(CASE.logits, 4);
const Y = Array.from(CASE.labels);

async function json(argv: string[]): Promise<{ loss: number; terms: Record<string, number> }> {
  const r = await run(['loss', ...argv, '--json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { loss: number; terms: Record<string, number> };
}

test('calib loss prints the loss and its terms as JSON, in float64 exactly the formula', async () => {
  const r = await json(['--name', 'focal', '--logits', LOGITS, '--labels', LABELS, '--opt', 'gamma=2', '--dtype', 'float64']);
  assert.ok(Math.abs(r.loss - naive.focal(ROWS, Y, 2)) < 1e-12);
  assert.deepEqual(Object.keys(r.terms), ['focal']);
  const m = await json(['--name', 'mbls', '--logits', LOGITS, '--labels', LABELS, '--opt', 'margin=1', '--opt', 'alpha=0.2', '--dtype', 'float64']);
  const want = naive.mbls(ROWS, Y, 1, 0.2);
  assert.ok(Math.abs(m.loss - want.loss) < 1e-12);
  assert.ok(Math.abs(m.terms['margin']! - want.margin) < 1e-12);
  assert.ok(Math.abs(m.terms['ce']! - naive.ce(ROWS, Y)) < 1e-12);
  const f32 = await json(['--name', 'mbls', '--logits', LOGITS, '--labels', LABELS, '--opt', 'margin=1', '--opt', 'alpha=0.2']);
  assert.ok(Math.abs(f32.loss - want.loss) < 1e-5, 'float32 (ORT) is close to float64');
});

test('a term alone, or primary + β·term with --primary and --weight; list options such as bins=5,15,30', async () => {
  const term = await json(['--name', 'arc', '--logits', LOGITS, '--labels', LABELS, '--opt', 'version=v2', '--opt', 'bins=5,15,30', '--dtype', 'float64']);
  assert.ok(Math.abs(term.loss - naive.arc(ROWS, Y, 'v2', [5, 15, 30])) < 1e-12);
  const both = await json(['--name', 'sb-ece-bin', '--primary', 'focal', '--primary-opt', 'gamma=1', '--weight', '0.5', '--logits', LOGITS, '--labels', LABELS, '--dtype', 'float64']);
  const sb = naive.sbEceBin(ROWS, Y, { bins: 15, temperature: 0.01, p: 2 });
  assert.ok(Math.abs(both.loss - (naive.focal(ROWS, Y, 1) + 0.5 * sb)) < 1e-12);
  assert.deepEqual(Object.keys(both.terms).sort(), ['focal', 'sb-ece-bin']);
});

test('--grad writes d loss / d logits as float64 .npy of the logits shape', async () => {
  const out = join(dir, 'grad.npy');
  const r = await run(['loss', '--name', 'acls', '--opt', 'margin=1', '--logits', LOGITS, '--labels', LABELS, '--grad', out, '--dtype', 'float64']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^acls: \d+\.\d{6} {2}\(12 samples, 4 classes, float64\)\n {2}ce +\d/);
  assert.match(r.stdout, /gradient d loss \/ d logits -> .*grad\.npy\n$/);
  const g = await readNpy(out);
  assert.equal(g.dtype, 'float64');
  assert.deepEqual(g.shape, [12, 4]);
  const want = evalLoss((z, t) => LOSSES.acls.apply(z, t, { margin: 1 }), CASE).grad;
  g.data.forEach((v, i) => assert.ok(Math.abs(v - want[i]!) < 1e-14, `grad[${i}]`));
});

test('dense [N, C, H, W] logits with labels [N, H, W] and --ignore-index, soft targets, and CRL with its history', async () => {
  const dense = randomCase(42, [2, 3, 2, 2], 2);
  const labels = Int32Array.from(dense.labels);
  labels[3] = 255;
  const zPath = join(dir, 'dense.npy');
  const yPath = join(dir, 'dense-labels.npy');
  await writeNpy(zPath, dense.logits, [2, 3, 2, 2]);
  await writeNpy(yPath, labels, [2, 2, 2]);
  const r = await json(['--name', 'ce', '--logits', zPath, '--labels', yPath, '--ignore-index', '255', '--dtype', 'float64']);
  const want = evalLoss((z, t) => LOSSES.ce.apply(z, t, { ignoreIndex: 255 }), { ...dense, labels });
  assert.ok(Math.abs(r.loss - want.loss) < 1e-12);

  const soft = Float64Array.from({ length: 48 }, (_, i) => (i % 4 === Y[Math.floor(i / 4)]! ? 0.7 : 0.1));
  const qPath = join(dir, 'soft.npy');
  await writeNpy(qPath, soft, [12, 4]);
  const s = await json(['--name', 'ce', '--logits', LOGITS, '--labels', qPath, '--dtype', 'float64']);
  assert.ok(Math.abs(s.loss - naive.softCe(ROWS, toRows(soft, 4))) < 1e-12);

  const hPath = join(dir, 'history.npy');
  const counts = Int32Array.from({ length: 12 }, (_, i) => i % 4);
  await writeNpy(hPath, counts, [12]);
  const c = await json(['--name', 'crl', '--opt', 'target=margin', '--history', hPath, '--epochs', '3', '--logits', LOGITS, '--labels', LABELS, '--dtype', 'float64']);
  assert.ok(Math.abs(c.loss - naive.crl(ROWS, Y, Array.from(counts), 3, 0, 'margin', 1).loss) < 1e-12);
});

test('CSV logits and labels work like .npy', async () => {
  const csv = join(dir, 'logits.csv');
  const lab = join(dir, 'labels.csv');
  writeFileSync(csv, ROWS.map((r) => r.join(',')).join('\n') + '\n');
  writeFileSync(lab, Y.join('\n') + '\n');
  const a = await json(['--name', 'mmce', '--logits', csv, '--labels', lab, '--dtype', 'float64']);
  assert.ok(Math.abs(a.loss - naive.mmce(ROWS, Y)) < 1e-12);
});

test('mistakes are one stderr line with exit code 2 that names the option or the flag', async () => {
  const cases: [string[], RegExp][] = [
    [['--name', 'focal', '--opt', 'gama=2'], /^calib: error: focal\.gama: expected a known key \(did you mean gamma\?\), got an unknown key\n$/],
    [['--name', 'mbls', '--opt', 'margin=-1'], /^calib: error: mbls\.margin: expected a finite number ≥ 0, got -1\n$/],
    [['--name', 'sb-ece-bin', '--primary', 'ce', '--weight', '-1'], /^calib: error: weight: expected a finite number ≥ 0, got -1\n$/],
    [['--name', 'mmce', '--weight', '2'], /^calib: error: loss: --weight needs --primary/],
    [['--name', 'mbls', '--primary', 'ce'], /^calib: error: primary: expected to be used with a calibration term \(mbls is a combined loss/],
    [['--name', 'crl'], /^calib: error: --history: expected correctness counts for crl, got none\n$/],
    [['--name', 'focall'], /^calib: error: --name: expected one of 'ce', 'soft-ce'/],
    [['--name', 'ce', '--grad', join(dir, 'g.csv')], /^calib: error: --grad: expected a \.npy path/],
  ];
  for (const [argv, pattern] of cases) {
    const r = await run(['loss', ...argv, '--logits', LOGITS, '--labels', LABELS]);
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, argv.join(' '));
  }
  const bad = join(dir, 'bad-labels.npy');
  await writeNpy(
    bad,
    Int32Array.from({ length: 12 }, (_, i) => (i === 5 ? 9 : 0)),
    [12],
  );
  const r = await run(['loss', '--name', 'ce', '--logits', LOGITS, '--labels', bad]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'calib: error: --labels: expected integers in [0, 4), got 9 at index 5\n');
});

test('calib loss --help lists every loss and the options of each', async () => {
  const r = await run(['loss', '--help']);
  assert.equal(r.code, 0);
  for (const name of ['focal', 'sb-ece-lb', 'mmce-weighted', 's-avuc', 'acls', 'arc']) assert.ok(r.stdout.includes(name), name);
  assert.match(r.stdout, /arc: version \[v1\|v2\] \(default v1\); bins \(default 1\)/);
});

test('the loss name may be given as the first positional argument, as in `calib loss mbls ...`', async () => {
  const positional = await json(['mbls', '--logits', LOGITS, '--labels', LABELS, '--opt', 'margin=1', '--dtype', 'float64']);
  const flagged = await json(['--name', 'mbls', '--logits', LOGITS, '--labels', LABELS, '--opt', 'margin=1', '--dtype', 'float64']);
  assert.deepEqual(positional, flagged);
});

test('--per-sample writes one value per sample: the loss, the regulariser (ACLS α·reg) or a term, as the formula row by row', async () => {
  const o = { margin: 1, alpha: 0.1, lambda1: 1, lambda2: 0.1 };
  const opts = ['--opt', 'margin=1', '--opt', 'alpha=0.1', '--opt', 'lambda1=1', '--opt', 'lambda2=0.1', '--dtype', 'float64'];
  const out = join(dir, 'reg.npy');
  const r = await run(['loss', 'acls', '--logits', LOGITS, '--labels', LABELS, ...opts, '--per-sample', out, '--per-sample-of', 'regulariser']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /per-sample regulariser -> .*reg\.npy/);
  const reg = await readNpy(out, 'reg');
  assert.deepEqual(reg.shape, [12]);
  assert.equal(reg.dtype, 'float64');
  ROWS.forEach((z, i) => assert.ok(Math.abs(reg.data[i]! - o.alpha * naive.acls([z], [Y[i]!], o).reg) < 1e-12, `row ${i}`));
  const rows = join(dir, 'rows.npy');
  assert.equal((await run(['loss', 'acls', '--logits', LOGITS, '--labels', LABELS, ...opts, '--per-sample', rows])).code, 0);
  const perLoss = await readNpy(rows, 'rows');
  ROWS.forEach((z, i) => assert.ok(Math.abs(perLoss.data[i]! - naive.acls([z], [Y[i]!], o).loss) < 1e-12, `loss row ${i}`));
  const whole = await json(['acls', '--logits', LOGITS, '--labels', LABELS, ...opts]);
  assert.ok(Math.abs(Array.from(perLoss.data as Float64Array).reduce((a, b) => a + b, 0) / 12 - whole.loss) < 1e-12, 'the mean of the rows is the loss');
  for (const [argv, pattern] of [
    [['acls', '--per-sample-of', 'reg'], /--per-sample-of needs --per-sample FILE/],
    [['acls', '--per-sample', join(dir, 'x.csv')], /--per-sample: expected a \.npy path/],
    [
      ['mdca', '--per-sample', join(dir, 'x.npy')],
      /--per-sample: expected a per-example loss \(mdca is batch-level: its value couples the samples, so it has no per-sample values\), got the loss "mdca"/,
    ],
    [['acls', '--per-sample', join(dir, 'x.npy'), '--per-sample-of', 'nope'], /--per-sample-of: expected 'loss', 'regulariser' or a term of acls \(ce, reg, positive, negative\), got "nope"/],
  ] as [string[], RegExp][]) {
    const bad = await run(['loss', ...argv, '--logits', LOGITS, '--labels', LABELS]);
    assert.equal(bad.code, 2, argv.join(' '));
    assert.match(bad.stderr, pattern, argv.join(' '));
  }
});
