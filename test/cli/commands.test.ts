import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { bootstrapMetric, evaluate, METRIC_NAMES } from '../../src/metrics/index.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/index.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run, withoutProgress } from './capture.js';

const dir = tempDir('cli');
const p = (name: string): string => join(dir, name);

// A small synthetic set: N = 600, C = 4, float32 logits with two rows of magnitude 1e3.
const N = 600;
const C = 4;
const set = syntheticOverconfident({ n: N, classes: C, seed: 9 });
const logits = Float32Array.from(set.logits);
logits.set([1000, -1000, 0, 999], 0);
logits.set([-1000, -1000, -1000, 1000], C);
const labels = set.labels;

/** Softmax computed naively here (float64, max-shifted), for probability inputs. */
function softmaxRows(z: Float32Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    let m = -Infinity;
    for (let k = 0; k < cols; k++) m = Math.max(m, z[i * cols + k]!);
    let s = 0;
    for (let k = 0; k < cols; k++) s += out[i * cols + k] = Math.exp(z[i * cols + k]! - m);
    for (let k = 0; k < cols; k++) out[i * cols + k]! /= s;
  }
  return out;
}
const probs = softmaxRows(logits, N, C);
probs.set([1, 0, 0, 0], 2 * C); // exact 0 and 1 are valid probabilities

/** Top-label ECE with (l,u] equal-width bins, written naively for an independent check. */
function naiveEce(pr: Float64Array, y: Int32Array, rows: number, cols: number, bins: number): number {
  const count = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  const acc = new Array<number>(bins).fill(0);
  for (let i = 0; i < rows; i++) {
    let best = 0;
    for (let k = 1; k < cols; k++) if (pr[i * cols + k]! > pr[i * cols + best]!) best = k;
    const c = pr[i * cols + best]!;
    let b = Math.max(0, Math.ceil(c * bins) - 1);
    while (b > 0 && c <= b / bins) b--;
    while (b < bins - 1 && c > (b + 1) / bins) b++;
    count[b]!++;
    conf[b]! += c;
    acc[b]! += best === y[i] ? 1 : 0;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]) ece += Math.abs(acc[b]! - conf[b]!) / rows;
  return ece;
}

await writeNpy(p('z.npy'), logits, [N, C]);
await writeNpy(p('y.npy'), labels, [N], { dtype: 'int64' });
await writeNpy(p('p.npy'), probs, [N, C]);
const rowsOf = (data: ArrayLike<number>, cols: number): number[][] => Array.from({ length: data.length / cols }, (_, i) => Array.from(data).slice(i * cols, (i + 1) * cols));
writeFileSync(
  p('p.csv'),
  'c0,c1,c2,c3\n' +
    rowsOf(probs, C)
      .map((r) => r.join(','))
      .join('\n') +
    '\n',
);
writeFileSync(p('y.csv'), 'label\n' + Array.from(labels).join('\n') + '\n');
writeFileSync(p('p.json'), JSON.stringify({ probs: rowsOf(probs, C), labels: Array.from(labels) }));

async function json(argv: string[]): Promise<Record<string, number | string | null | object>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(withoutProgress(r.stderr), '');
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, 'one JSON object on one line');
  return JSON.parse(lines[0]!) as Record<string, number>;
}

test('eval --json prints every metric as a fraction, equal to the metrics layer and to a naive ECE', async () => {
  const out = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json']);
  const reference = evaluate(matrix(N, C, logits), labels, { input: 'logits', refinementCalibrator: 'temperature' });
  for (const m of METRIC_NAMES) assert.equal(out[m], Number.isNaN(reference[m]) ? null : reference[m], m);
  assert.deepEqual([out['n'], out['classes'], out['bins'], out['convention'], out['input']], [N, C, 15, '(l,u]', 'logits']);
  const pz = softmaxRows(logits, N, C);
  assert.ok(Math.abs((out['ece'] as number) - naiveEce(pz, labels, N, C, 15)) < 1e-9);
  const correct = Array.from(labels).filter((y, i) => pz[i * C + y]! === Math.max(...pz.subarray(i * C, (i + 1) * C))).length;
  assert.equal(out['accuracy'], correct / N);
  for (const m of METRIC_NAMES) if (m !== 'error_auroc') assert.ok(Number.isFinite(out[m] as number), `${m} finite with logits of 1e3`);
});

test('eval reads probabilities from .npy, CSV and JSON alike, and honours --bins and --convention', async () => {
  const fromNpy = await json(['eval', '--probs', p('p.npy'), '--labels', p('y.npy'), '--json', '--bins', '10', '--convention', '[l,u)']);
  const fromCsv = await json(['eval', '--probs', p('p.csv'), '--labels', p('y.csv'), '--json', '--bins=10', '--convention=[l,u)']);
  const fromJson = await json(['eval', '--probs', p('p.json'), '--labels', p('p.json'), '--json', '--bins', '10', '--convention', '[l,u)']);
  assert.deepEqual(fromCsv, fromNpy);
  assert.deepEqual(fromJson, fromNpy);
  assert.equal(fromNpy['bins'], 10);
  assert.equal(fromNpy['convention'], '[l,u)');
  assert.equal(fromNpy['ece'], evaluate(matrix(N, C, probs), labels, { input: 'probabilities', bins: 10, convention: '[l,u)' }).ece);
});

test('eval prints an aligned table with calibration errors in percent', async () => {
  const r = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy')]);
  assert.equal(r.code, 0);
  const out = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json']);
  assert.match(r.stdout, /^600 samples, 4 classes, logits from .*z\.npy; 15 bins \(l,u\]/);
  const ece = r.stdout.split('\n').find((l) => l.startsWith('ECE (%)'))!;
  assert.equal(ece.trim().split(/\s+/).pop(), ((out['ece'] as number) * 100).toFixed(2));
  const nll = r.stdout.split('\n').find((l) => l.startsWith('NLL'))!;
  assert.equal(nll.trim().split(/\s+/).pop(), (out['nll'] as number).toFixed(4));
  const lines = r.stdout.trimEnd().split('\n').slice(2);
  assert.equal(lines.length, 2 + METRIC_NAMES.length);
  assert.equal(new Set(lines.map((l) => l.length)).size, 1, 'every row has the same width');
});

test('eval --bootstrap gives the same intervals as bootstrapping each metric separately', async () => {
  const out = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json', '--bootstrap', '12', '--seed', '3']);
  const boot = out['bootstrap'] as { resamples: number; seed: number; level: number; intervals: Record<string, [number, number]> };
  assert.deepEqual([boot.resamples, boot.seed, boot.level], [12, 3, 0.95]);
  for (const m of ['ece', 'nll', 'classwise_ece'] as const) {
    const ref = bootstrapMetric(matrix(N, C, logits), labels, m, { input: 'logits', resamples: 12, seed: 3 });
    assert.deepEqual(boot.intervals[m], [ref.lower, ref.upper], m);
    assert.ok(ref.lower <= (out[m] as number) + 0.05 && ref.lower < ref.upper);
  }
  const table = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--bootstrap', '12', '--seed', '3']);
  assert.match(table.stdout, /95% CI/);
  assert.match(table.stdout, /ECE \(%\)\s+[\d.]+\s+\[[\d.]+, [\d.]+\]/);
});

test('inputs larger than one chunk are streamed with the same result and whole-file error positions', async () => {
  const rows = 70000; // > 65 536 rows per chunk
  const big = syntheticOverconfident({ n: rows, classes: 3, seed: 4 });
  const z = Float32Array.from(big.logits);
  await writeNpy(p('big-z.npy'), z, [rows, 3]);
  await writeNpy(p('big-y.npy'), big.labels, [rows]);
  const out = await json(['eval', '--logits', p('big-z.npy'), '--labels', p('big-y.npy'), '--json']);
  const reference = evaluate(matrix(rows, 3, z), big.labels, { input: 'logits', refinementCalibrator: 'temperature' });
  for (const m of ['accuracy', 'ece', 'nll', 'classwise_ece', 'ks'] as const) assert.ok(Math.abs((out[m] as number) - reference[m]) < 1e-12, m);
  z[69999 * 3 + 2] = Number.NaN;
  await writeNpy(p('big-nan.npy'), z, [rows, 3]);
  const bad = await run(['eval', '--logits', p('big-nan.npy'), '--labels', p('big-y.npy')]);
  assert.equal(bad.code, 2);
  assert.equal(bad.stderr, 'calib: error: --logits: expected finite values, got NaN at row 69999, column 2\n');
});

test('fit writes the calibrator JSON the library fits and prints a one-line summary', async () => {
  const r = await run(['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('cal.json')]);
  assert.equal(r.code, 0, r.stderr);
  const written = JSON.parse(readFileSync(p('cal.json'), 'utf8'));
  const reference = fitCalibrator('temperature', { logits: matrix(N, C, logits) }, labels).toJSON();
  assert.deepEqual(written, JSON.parse(JSON.stringify(reference)));
  assert.equal(r.stdout.split('\n').length, 2, 'one line');
  assert.match(r.stdout, /^fitted temperature \(T = [\d.]+\) on 600 samples, 4 classes -> .*cal\.json; on the fitting data: NLL [\d.]+ -> [\d.]+, ECE [\d.]+% -> [\d.]+% \(15 bins\)\n$/);
  const opt = await run(['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('grid.json'), '--opt', 'objective=grid-ece', '--opt', 'bins=10']);
  assert.equal(opt.code, 0, opt.stderr);
  assert.deepEqual(JSON.parse(readFileSync(p('grid.json'), 'utf8')).settings, { objective: 'grid-ece', bins: 10 });
  const gridT = JSON.parse(readFileSync(p('grid.json'), 'utf8')).temperature as number;
  assert.ok(gridT > 0.1 && gridT < 10, `interior grid T ${gridT}`);
  assert.equal(withoutProgress(opt.stderr), '', 'no warning for an interior grid temperature');
  // Logits ×1000 make almost every confidence 1 (the model is overconfident): the ECE still falls at T = 10.
  const scaled = Float32Array.from(logits, (v) => v * 1000);
  await writeNpy(p('z1000.npy'), scaled, [N, C]);
  const edge = await run(['fit', '--method', 'temperature', '--logits', p('z1000.npy'), '--labels', p('y.npy'), '--out', p('grid-edge.json'), '--opt', 'objective=grid-ece']);
  assert.equal(edge.code, 0, edge.stderr);
  assert.equal(JSON.parse(readFileSync(p('grid-edge.json'), 'utf8')).temperature, 10);
  assert.match(
    edge.stderr,
    /^calib: warning: the grid-ece temperature T = 10 is an end of the papers' grid 0\.1, 0\.2, …, 10; the ECE minimum may lie outside it \(--opt objective=nll searches T without that limit\)\n$/,
  );
  const hist = await run(['fit', '--method', 'histogram', '--probs', p('p.npy'), '--labels', p('y.npy'), '--out', p('hist.json')]);
  assert.equal(hist.code, 0, hist.stderr);
  assert.equal(calibratorFromJSON(JSON.parse(readFileSync(p('hist.json'), 'utf8'))).kind, 'histogram');
});

test('apply writes the calibrated probabilities of the saved calibrator, in float32 or float64', async () => {
  await run(['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('cal2.json')]);
  const calibrator = calibratorFromJSON(JSON.parse(readFileSync(p('cal2.json'), 'utf8')));
  const expected = calibrator.apply({ logits: matrix(N, C, logits) }).data;
  const r32 = await run(['apply', '--calibrator', p('cal2.json'), '--logits', p('z.npy'), '--out', p('q32.npy')]);
  assert.equal(r32.code, 0, r32.stderr);
  assert.match(r32.stdout, /^applied temperature to 600 × 4 logits -> .*q32\.npy \(calibrated probabilities, float32\)\n$/);
  const q32 = await readNpy(p('q32.npy'));
  assert.equal(q32.dtype, 'float32');
  assert.deepEqual(q32.shape, [N, C]);
  assert.deepEqual(Array.from(q32.data), Array.from(Float32Array.from(expected)));
  await run(['apply', '--calibrator', p('cal2.json'), '--logits', p('z.npy'), '--out', p('q64.npy'), '--dtype', 'float64']);
  assert.deepEqual(Array.from((await readNpy(p('q64.npy'))).data), Array.from(expected));
  await run(['apply', '--calibrator', p('cal2.json'), '--logits', p('z.npy'), '--out', p('q.csv'), '--dtype', 'float64']);
  assert.equal(readFileSync(p('q.csv'), 'utf8').split('\n')[0], Array.from(expected.subarray(0, C)).join(','));
  await run(['apply', '--calibrator', p('cal2.json'), '--logits', p('z.npy'), '--out', p('zt.npy'), '--output', 'logits', '--dtype', 'float64']);
  const t = calibrator.toJSON()['temperature'] as number;
  assert.deepEqual(
    Array.from((await readNpy(p('zt.npy'))).data).slice(0, 8),
    Array.from(logits.subarray(0, 8), (v) => v / t),
  );
});

test('plot writes an SVG or a PNG reliability figure', async () => {
  const svg = await run(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('fig.svg'), '--title', 'Test model']);
  assert.equal(svg.code, 0, svg.stderr);
  const text = readFileSync(p('fig.svg'), 'utf8');
  assert.match(text, /^<svg|^<\?xml/);
  assert.match(text, /Test model/);
  assert.match(svg.stdout, /^wrote reliability diagram \+ confidence histogram of 600 samples \(ECE [\d.]+%, 15 bins \(l,u\]\) -> /);
  const png = await run(['plot', '--probs', p('p.npy'), '--labels', p('y.npy'), '--out', p('fig.png'), '--figure', 'diagram', '--bins', '10']);
  assert.equal(png.code, 0, png.stderr);
  assert.deepEqual([...readFileSync(p('fig.png')).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
});

test('demo --synthetic writes labelled synthetic files whose numbers the other commands reproduce', async () => {
  const out = p('demo');
  const r = await run(['demo', '--synthetic', '--out', out, '--n', '2000', '--classes', '5', '--png=false']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /SYNTHETIC DATA - NOT A REAL MODEL/);
  assert.match(r.stdout, /ECE \(%\)\s+[\d.]+\s+[\d.]+/);
  for (const f of [
    'val-logits.npy',
    'val-labels.npy',
    'test-logits.npy',
    'test-labels.npy',
    'calibrator.json',
    'test-calibrated-probs.npy',
    'metrics.json',
    'reliability-before.svg',
    'reliability-after.svg',
  ]) {
    assert.ok(existsSync(join(out, f)), f);
  }
  assert.ok(!existsSync(join(out, 'reliability-before.png')));
  assert.match(readFileSync(join(out, 'reliability-before.svg'), 'utf8'), /SYNTHETIC/);
  const report = JSON.parse(readFileSync(join(out, 'metrics.json'), 'utf8'));
  assert.equal(report.synthetic, true);
  assert.ok(report.test_after.ece < report.test_before.ece / 3, 'temperature scaling fixes the synthetic overconfidence');
  const before = await json(['eval', '--logits', join(out, 'test-logits.npy'), '--labels', join(out, 'test-labels.npy'), '--json']);
  assert.deepEqual(before, report.test_before);
  const after = await json(['eval', '--probs', join(out, 'test-calibrated-probs.npy'), '--labels', join(out, 'test-labels.npy'), '--json']);
  assert.deepEqual(after, report.test_after);
  const calibrator = readFileSync(join(out, 'calibrator.json'), 'utf8');
  await run(['fit', '--method', 'temperature', '--logits', join(out, 'val-logits.npy'), '--labels', join(out, 'val-labels.npy'), '--out', join(out, 'refit.json')]);
  assert.equal(readFileSync(join(out, 'refit.json'), 'utf8'), calibrator);
});

/** Assert a failed run: exit code 2, nothing on stdout, exactly one stderr line starting with `prefix`. */
async function fails(argv: string[], pattern: RegExp): Promise<void> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')}\n${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^calib: error: [^\n]+\n$/, r.stderr);
  assert.match(r.stderr, pattern);
}

test('bad inputs fail with exit code 2 and one stderr line naming the argument', async () => {
  const z = Float32Array.from(logits);
  z[5 * C + 1] = Number.NaN;
  await writeNpy(p('nan.npy'), z, [N, C]);
  const q = Float64Array.from(probs);
  q[7 * C + 3] = Infinity;
  await writeNpy(p('inf.npy'), q, [N, C]);
  const y = Int32Array.from(labels);
  y[3] = 7;
  await writeNpy(p('y-range.npy'), y, [N]);
  writeFileSync(p('y-frac.json'), JSON.stringify([0, 1.5, ...Array.from(labels).slice(2)]));
  await writeNpy(p('y-short.npy'), labels.subarray(1), [N - 1]);
  await writeNpy(p('empty.npy'), new Float32Array(0), [0, C]);
  await writeNpy(p('empty-y.npy'), new Int32Array(0), [0]);
  await writeNpy(p('one-class.npy'), new Float32Array(N), [N, 1]);
  const s = Float64Array.from(probs);
  s[4 * C]! += 0.01;
  await writeNpy(p('sum.npy'), s, [N, C]);
  const valid = readFileSync(p('z.npy'));
  writeFileSync(p('magic.npy'), Buffer.concat([Buffer.from('NOTNPY'), valid.subarray(6)]));
  writeFileSync(p('truncated.npy'), valid.subarray(0, valid.length - 10));
  writeFileSync(p('absurd.npy'), Buffer.from(valid.toString('latin1').replace("'shape': (600, 4)", "'shape': (9999999999, 4)"), 'latin1'));
  const fixtures = join(process.cwd(), 'test', 'fixtures', 'npy');
  const ev = (pred: string, file: string, yFile = p('y.npy'), ...rest: string[]): string[] => ['eval', pred, file, '--labels', yFile, ...rest];

  await fails(ev('--logits', p('nan.npy')), /--logits: expected finite values, got NaN at row 5, column 1$/m);
  await fails(ev('--probs', p('inf.npy')), /--probs: expected finite values, got Infinity at row 7, column 3$/m);
  await fails(ev('--logits', p('z.npy'), p('y-range.npy')), /--labels: expected integer class labels in \[0, 4\), got 7 at index 3$/m);
  await fails(ev('--logits', p('z.npy'), p('y-frac.json')), /--labels: expected integer class labels, got 1\.5 at index 1 of /);
  await fails(ev('--logits', p('z.npy'), p('y-short.npy')), /--labels: expected 600 labels, one per row of --logits, got 599$/m);
  await fails(ev('--logits', p('empty.npy'), p('empty-y.npy')), /--logits: expected at least one sample \(row\), got 0 rows$/m);
  await fails(ev('--logits', p('one-class.npy')), /--logits: expected at least 2 classes \(columns\), got 1 column$/m);
  await fails(ev('--probs', p('sum.npy')), /--probs: expected probability rows summing to 1 \(within 0\.001\).*got a sum of 1\.01\d* in row 4$/m);
  await fails(ev('--logits', p('z.npy'), p('y.npy'), '--bins', '0'), /--bins: expected an integer ≥ 1, got 0$/m);
  await fails(ev('--logits', p('magic.npy')), /--logits: expected a \.npy file starting with the magic string/);
  await fails(ev('--logits', p('truncated.npy')), /--logits: expected 9600 data bytes for shape \(600, 4\) of float32, got a truncated file with 9590 data bytes/);
  await fails(ev('--logits', p('absurd.npy')), /--logits: expected at most 2147483647 elements, got shape \(9999999999, 4\)/);
  await fails(ev('--probs', join(fixtures, 'bad-big-endian-f8.npy')), /--probs: expected little-endian data .*big-endian dtype '>f8'/);
  await fails(ev('--logits', join(fixtures, 'bad-fortran-f4.npy')), /--logits: expected an array in C order/);
  await fails(ev('--logits', p('missing.npy')), /--logits: expected a readable file, got ".*missing\.npy" \(no such file\)$/m);
  await fails(['eval', '--logits', p('z.npy'), '--probs', p('p.npy'), '--labels', p('y.npy')], /give one of --logits, --probs, --positive-probs or --confidence/);
  await fails(['eval', '--labels', p('y.npy')], /give the predictions with --logits FILE or --probs FILE/);
  await fails(['eval', '--logits', p('z.npy')], /eval: missing required flag --labels/);
  await fails(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--bins'], /eval: --bins needs a value/);
  await fails(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--convention', '(l,u)'], /--convention: expected one of/);
  await fails(['fit', '--method', 'platt', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('x.json')], /--logits: expected 2 columns for --method platt/);
  await fails(['fit', '--method', 'nope', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('x.json')], /--method: expected one of 'temperature'/);
  await fails(['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('x.json'), '--opt', 'oops'], /--opt: expected key=value/);
  await fails(['apply', '--calibrator', p('y.npy'), '--logits', p('z.npy'), '--out', p('x.npy')], /--calibrator: expected a calibrator JSON file/);
  await fails(['apply', '--calibrator', p('cal.json'), '--logits', p('one-class.npy'), '--out', p('x.npy')], /--logits: expected at least 2 classes/);
  await fails(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('x.pdf')], /--out: expected a file ending in \.svg or \.png/);
  assert.ok(!existsSync(p('x.json')) && !existsSync(p('x.npy')), 'failed commands write nothing');
});

test('apply refuses a calibrator fitted for another number of classes', async () => {
  await writeNpy(p('z5.npy'), new Float32Array(10), [2, 5]);
  await fails(['apply', '--calibrator', p('cal.json'), '--logits', p('z5.npy'), '--out', p('x5.npy')], /--logits: expected 4 columns \(the calibrator was fitted for 4 classes\), got 5$/m);
});

test('every built-in command has help listing each of its flags, and the top-level help lists every command', async () => {
  const { COMMANDS } = await import('../../src/cli/commands/index.js');
  const top = await run(['--help']);
  assert.equal(top.code, 0);
  for (const command of COMMANDS) {
    assert.match(top.stdout, new RegExp(`^  ${command.name} +\\S`, 'm'));
    const r = await run([command.name, '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`^Usage: calib ${command.name}`));
    for (const flag of Object.keys(command.flags)) assert.match(r.stdout, new RegExp(`^  --${flag}\\b`, 'm'), `${command.name} --${flag}`);
  }
  assert.deepEqual(
    COMMANDS.map((c) => c.name),
    ['eval', 'fit', 'compare', 'apply', 'predict', 'export', 'plot', 'ood', 'conformal', 'train', 'demo', 'suite', 'report', 'worker', 'loss'],
  );
});

test('calib fit --help describes every calibrator of the CALIBRATORS record and each of its options with its default', async () => {
  const { CALIBRATOR_KINDS, CALIBRATORS } = await import('../../src/posthoc/index.js');
  const r = await run(['fit', '--help']);
  assert.equal(r.code, 0);
  for (const kind of CALIBRATOR_KINDS) {
    const d = CALIBRATORS[kind];
    const at = r.stdout.indexOf(`\n  ${kind} `);
    assert.ok(at >= 0, `${kind} listed`);
    assert.ok(r.stdout.includes(d.summary), `${kind} summary`);
    for (const [name, spec] of Object.entries(d.options)) {
      assert.ok(r.stdout.includes(`${name}=${String(spec.fallback)} (${spec.expected}): ${spec.description}`), `${kind} --opt ${name}`);
    }
  }
});
