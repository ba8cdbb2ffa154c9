import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, linkSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { tempDir } from '../io/temp-dir.js';
import { run, withoutProgress } from './capture.js';
import { METRICS, type MetricDefinition } from '../../src/metrics/index.js';

/**
 * The hardness catalogue (issue 16, "Hard to break"): one test per class of hostile or careless input, each
 * through the CLI in-process. A class passes when nothing the user owns is lost or replaced, nothing wrong is
 * reported with exit 0, and a user mistake is one stderr line with exit 2 naming the argument.
 */

const dir = tempDir('hardness');
const p = (name: string): string => join(dir, name);
const N = 400;
const C = 4;
const set = syntheticOverconfident({ n: N, classes: C, seed: 11 });
await writeNpy(p('z.npy'), Float32Array.from(set.logits), [N, C]);
await writeNpy(p('y.npy'), set.labels, [N], { dtype: 'int64' });

/** Exit 2, nothing on stdout, one stderr line matching `pattern`. */
async function refused(argv: string[], pattern: RegExp): Promise<string> {
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', argv.join(' '));
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
  assert.match(r.stderr, pattern);
  return r.stderr;
}

async function succeeds(argv: string[]): Promise<{ stdout: string; stderr: string }> {
  const r = await run(argv);
  assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
  return r;
}

const fit = (out: string, extra: string[] = []): string[] => ['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', out, ...extra];

test('class 1: writing through --out replaces only a regular, writable file: links are followed, special and read-only files refused', async () => {
  // A symbolic link stays a link; its target is replaced and keeps its mode.
  writeFileSync(p('real.json'), '{}\n');
  chmodSync(p('real.json'), 0o640);
  symlinkSync('real.json', p('link.json'));
  await succeeds(fit(p('link.json')));
  assert.ok(lstatSync(p('link.json')).isSymbolicLink(), 'the link is still a link');
  assert.equal(statSync(p('real.json')).mode & 0o777, 0o640, 'the mode of the replaced file is kept');
  assert.match(readFileSync(p('real.json'), 'utf8'), /"kind": "temperature"/);
  // A dangling link creates its target.
  symlinkSync('made.json', p('dangling.json'));
  await succeeds(fit(p('dangling.json')));
  assert.ok(lstatSync(p('dangling.json')).isSymbolicLink());
  assert.ok(statSync(p('made.json')).isFile());
  // A FIFO, a device and a read-only file are refused, untouched.
  execFileSync('mkfifo', [p('fifo.json')]);
  await refused(fit(p('fifo.json')), /--out: .*fifo\.json" \(a FIFO/);
  assert.ok(lstatSync(p('fifo.json')).isFIFO());
  await refused(['apply', '--calibrator', p('real.json'), '--logits', p('z.npy'), '--out', '/dev/null'], /--out: expected a file ending in \.npy/);
  symlinkSync('/dev/null', p('null.npy'));
  await refused(['apply', '--calibrator', p('real.json'), '--logits', p('z.npy'), '--out', p('null.npy')], /--out: .*null\.npy" \(a character device\)/);
  assert.ok(lstatSync(p('null.npy')).isSymbolicLink());
  writeFileSync(p('ro.json'), 'keep\n');
  chmodSync(p('ro.json'), 0o444);
  await refused(fit(p('ro.json')), /--out: .*ro\.json" \(read-only file, mode 0444\)/);
  assert.equal(readFileSync(p('ro.json'), 'utf8'), 'keep\n');
  assert.equal(statSync(p('ro.json')).mode & 0o777, 0o444);
  // Writers that are not --out (demo's directory, --grad) go through the same checks.
  execFileSync('mkfifo', [p('g.npy')]);
  await refused(['loss', 'ce', '--logits', p('z.npy'), '--labels', p('y.npy'), '--grad', p('g.npy')], /--grad: .*\(a FIFO/);
});

test('class 2: an output that is one of the inputs (same file by inode, links included) is refused; fit --out must be .json', async () => {
  await succeeds(fit(p('ts.json')));
  const before = readFileSync(p('z.npy'));
  await refused(['apply', '--calibrator', p('ts.json'), '--logits', p('z.npy'), '--out', p('z.npy')], /--out: .*which is the --logits file/);
  await refused(['apply', '--calibrator', p('ts.json'), '--logits', p('z.npy'), '--out', join(dir, '.', 'z.npy')], /which is the --logits file/);
  linkSync(p('z.npy'), p('hard.npy'));
  await refused(['apply', '--calibrator', p('ts.json'), '--logits', p('z.npy'), '--out', p('hard.npy')], /which is the --logits file/);
  symlinkSync('z.npy', p('soft.npy'));
  await refused(['apply', '--calibrator', p('ts.json'), '--logits', p('soft.npy'), '--out', p('z.npy')], /which is the --logits file/);
  assert.deepEqual(readFileSync(p('z.npy')), before);
  await refused(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('y.npy')], /--out: expected a file ending in \.svg or \.png/);
  await refused(fit(p('y.npy')), /--out: expected a file ending in \.json/);
  await refused(['loss', 'ce', '--logits', p('z.npy'), '--labels', p('y.npy'), '--grad', p('z.npy')], /--grad: .*which is the --logits file/);
  assert.deepEqual(readFileSync(p('z.npy')), before);
  assert.equal((await readNpy(p('y.npy'))).shape[0], N);
});

test('class 3: CSV delimiter and decimal mark are detected or refused; decimal commas never become extra columns', async () => {
  const rows = ['0.9,0.1', '0.2,0.8', '0.65,0.35', '0.4,0.6'];
  writeFileSync(p('y2.csv'), 'label\n0\n1\n1\n1\n');
  writeFileSync(p('p-point.csv'), `a,b\n${rows.join('\n')}\n`);
  writeFileSync(p('p-semicolon.csv'), `a;b\n${rows.map((r) => r.replace(/\./g, ',').replace(/,(?=0,)/, ';')).join('\n')}\n`);
  writeFileSync(p('p-split.csv'), `${rows.map((r) => r.replace(/\./g, ',')).join('\n')}\n`);
  const reference = JSON.parse((await succeeds(['eval', '--probs', p('p-point.csv'), '--labels', p('y2.csv'), '--json'])).stdout);
  const semicolon = JSON.parse((await succeeds(['eval', '--probs', p('p-semicolon.csv'), '--labels', p('y2.csv'), '--json'])).stdout);
  assert.equal(semicolon.accuracy, 0.75);
  assert.deepEqual(semicolon, reference);
  await refused(['eval', '--probs', p('p-split.csv'), '--labels', p('y2.csv')], /--probs: .*decimal commas split into extra columns: line 1 reads "0,9,0,1"/);
  writeFileSync(p('z-split.csv'), '2,3456,-1,2500\n-3,1250,3,7500\n0,5000,1,2500\n-1,0000,2,1250\n');
  await refused(['eval', '--logits', p('z-split.csv'), '--labels', p('y2.csv')], /--logits: .*decimal commas split into extra columns/);
  writeFileSync(p('p-mixed.csv'), '0.9;0,1\n0,2;0,8\n0,65;0,35\n0,4;0,6\n');
  await refused(['eval', '--probs', p('p-mixed.csv'), '--labels', p('y2.csv')], /--probs: expected one decimal mark in the whole file, got both points \("0\.9" in line 1\) and commas/);
});

test('class 4: calibrator files are validated (T = 1e-320 refused); no command writes or prints a non-finite value with exit 0', async () => {
  await succeeds(fit(p('ts4.json')));
  const json = JSON.parse(readFileSync(p('ts4.json'), 'utf8'));
  writeFileSync(p('tiny-t.json'), JSON.stringify({ ...json, temperature: 1e-320 }));
  await refused(
    ['apply', '--calibrator', p('tiny-t.json'), '--logits', p('z.npy'), '--out', p('a4.npy')],
    /--calibrator: .*json\.temperature: expected a temperature in \[1e-100, 1e\+100\], got 1e-320/,
  );
  // Huge logits: calibrated logits beyond float32's range need --dtype float64 (never ±Infinity in the file).
  await writeNpy(p('big.npy'), Float32Array.from([1e38, -1e38, 0, 0, 3e38, 1e37, -3e38, 1]), [2, C]);
  await writeNpy(p('big-y.npy'), Int32Array.from([1, 2]), [2], { dtype: 'int64' });
  writeFileSync(p('half-t.json'), JSON.stringify({ ...json, temperature: 0.5 }));
  await refused(['apply', '--calibrator', p('half-t.json'), '--logits', p('big.npy'), '--out', p('b4.npy'), '--output', 'logits'], /--dtype: expected float64 for values beyond float32's range/);
  await succeeds(['apply', '--calibrator', p('half-t.json'), '--logits', p('big.npy'), '--out', p('b4.npy'), '--output', 'logits', '--dtype', 'float64']);
  const out = await readNpy(p('b4.npy'));
  assert.deepEqual([...out.data].slice(0, 2), [2 * Math.fround(1e38), -2 * Math.fround(1e38)]);
  assert.ok([...out.data].every(Number.isFinite));
  // calib loss: a float32 overflow is a clear error pointing to float64, which gives the finite loss.
  await refused(['loss', 'ce', '--logits', p('big.npy'), '--labels', p('big-y.npy'), '--json'], /--dtype: expected float64 for logits this large .* got float32, which gave loss Infinity/);
  const ce = JSON.parse((await succeeds(['loss', 'ce', '--logits', p('big.npy'), '--labels', p('big-y.npy'), '--json', '--dtype', 'float64'])).stdout);
  assert.ok(Number.isFinite(ce.loss) && ce.loss > 1e38, String(ce.loss));
  // eval on the same logits prints finite numbers (NLL in float64), never null.
  const metrics = JSON.parse((await succeeds(['eval', '--logits', p('big.npy'), '--labels', p('big-y.npy'), '--json'])).stdout);
  // Only metrics declared nullable (error AUROC, selective-prediction areas, test statistics) may be null.
  const nullable = new Set((METRICS as readonly MetricDefinition[]).filter((m) => m.nullable).map((m) => m.key));
  for (const [k, v] of Object.entries(metrics)) if (!nullable.has(k) && typeof v !== 'string') assert.notEqual(v, null, k);
});

test('class 7: temperature fits on logits of magnitude 1e4 to 1e30 succeed in a scaled parametrisation (T scales with the logits)', async () => {
  const base = JSON.parse(readFileSync(p('ts4.json'), 'utf8')).temperature as number;
  for (const k of [1e4, 1e12, 1e30]) {
    await writeNpy(
      p(`z-${k}.npy`),
      Float32Array.from(set.logits, (v) => v * k),
      [N, C],
    );
    const r = await succeeds(['fit', '--method', 'temperature', '--logits', p(`z-${k}.npy`), '--labels', p('y.npy'), '--out', p(`t-${k}.json`)]);
    assert.doesNotMatch(r.stderr, /no information/);
    const t = JSON.parse(readFileSync(p(`t-${k}.json`), 'utf8')).temperature as number;
    assert.ok(Math.abs(t / k / base - 1) < 1e-5, `k = ${k}: T/k = ${t / k}, T(1) = ${base}`);
  }
});

test('class 11: the Brier-objective ensemble temperature fits logits of magnitude 1e-3 to 1e30 in the scaled parametrisation; an overflowing row spread is named', async () => {
  await succeeds(['fit', '--method', 'ensemble-temperature', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('ets-1.json')]);
  const base = JSON.parse(readFileSync(p('ets-1.json'), 'utf8'));
  for (const k of [1e-3, 1e4, 1e12, 1e30]) {
    await writeNpy(
      p(`ez-${k}.npy`),
      Float64Array.from(set.logits, (v) => v * k),
      [N, C],
    );
    await succeeds(['fit', '--method', 'ensemble-temperature', '--logits', p(`ez-${k}.npy`), '--labels', p('y.npy'), '--out', p(`ets-${k}.json`)]);
    const fitted = JSON.parse(readFileSync(p(`ets-${k}.json`), 'utf8'));
    assert.ok(Math.abs(fitted.temperature / k / base.temperature - 1) < 1e-9, `k = ${k}: T/k = ${fitted.temperature / k}, T(1) = ${base.temperature}`);
    assert.deepEqual(
      fitted.weights.map((w: number) => w.toFixed(9)),
      base.weights.map((w: number) => w.toFixed(9)),
      `k = ${k} weights`,
    );
  }
  const huge = Float64Array.from({ length: N * C }, (_, i) => (i % 2 ? 1.5e308 : -1.5e308));
  await writeNpy(p('ez-huge.npy'), huge, [N, C]);
  const r = await run(['fit', '--method', 'ensemble-temperature', '--logits', p('ez-huge.npy'), '--labels', p('y.npy'), '--out', p('ets-huge.json')]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /ensemble-temperature: the logits' mean row spread \(max − min\) is Infinity: it exceeds float64's range/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.equal(existsSync(p('ets-huge.json')), false);
});

test('class 5: user mistakes that used to be internal errors are one-line exit-2 errors naming the argument and the limit', async () => {
  await refused(['loss', 'ce', '--logits', p('z.npy'), '--labels', p('y.npy'), '--grad', p('no-such-dir/g.npy')], /--grad: expected a file path in an existing directory/);
  await refused(['demo', '--synthetic', '--n', '1e9', '--out', p('demo5')], /--n: expected --n × --classes ≤ 20,000,000 logits .* got 1000000000 × 10/);
  const wide = 100_000;
  const z = new Float32Array(4 * wide);
  for (let i = 0; i < z.length; i++) z[i] = Math.sin(i);
  await writeNpy(p('wide.npy'), z, [4, wide]);
  await writeNpy(p('wide-y.npy'), Int32Array.from([0, 1, 2, 3]), [4], { dtype: 'int64' });
  for (const method of ['matrix', 'dirichlet']) {
    await refused(
      ['fit', '--method', method, '--logits', p('wide.npy'), '--labels', p('wide-y.npy'), '--out', p('w.json')],
      new RegExp(`${method} classes: expected at most 1,000 classes .* got 100,000 classes`),
    );
  }
});

test('class 6: --bootstrap is capped, and a long bootstrap reports progress on stderr (occasional lines without a terminal)', async () => {
  await refused(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--bootstrap', '1000000000'], /--bootstrap: expected an integer ≤ 100000, got 1000000000/);
  const { WorkProgress } = await import('../../src/cli/work-progress.js');
  let clock = 0;
  let text = '';
  const sink = { write: (s: string) => (text += s) };
  const lines = new WorkProgress(sink, 'bootstrap resamples', 1000, { tty: false, now: () => clock });
  for (let done = 0; done < 1000; done++) {
    clock = done * 50; // 50 ms per resample: 50 s in all
    lines.update(done);
  }
  lines.finish();
  const shown = text.trim().split('\n');
  assert.ok(shown.length >= 4 && shown.length <= 5, text); // one line per 10 s after the first 2 s
  assert.match(shown[0]!, /^calib: bootstrap resamples: 40\/1,000 \(4%, 2 s elapsed, ~48 s left\)$/);
  text = '';
  clock = 0;
  const live = new WorkProgress(sink, 'bootstrap resamples', 1000, { tty: true, now: () => clock });
  for (let done = 0; done < 1000; done++) {
    clock = done * 50;
    live.update(done);
  }
  live.finish();
  assert.ok(!text.includes('\n') && text.startsWith('\rcalib: bootstrap') && text.endsWith('\r\u001b[K'), JSON.stringify(text.slice(0, 80)));
  // A quick bootstrap prints nothing extra (progress lines only if a loaded machine made it take over 2 s).
  const quick = await succeeds(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--bootstrap', '20']);
  assert.equal(withoutProgress(quick.stderr), '');
});

test("class 6: calib fit shows the fit's progress on stderr (first line after CALIB_PROGRESS_DELAY_MS), stdout unchanged", async () => {
  for (const method of ['isotonic', 'matrix', 'bbq']) {
    const argv = ['fit', '--method', method, '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p(`progress-${method}.json`)];
    const quiet = await succeeds(argv);
    const quietJson = readFileSync(p(`progress-${method}.json`), 'utf8');
    const shown = await run(argv, { env: { CALIB_PROGRESS_DELAY_MS: '0', CALIB_PROGRESS_INTERVAL_MS: '0' } });
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, quiet.stdout, method);
    assert.equal(readFileSync(p(`progress-${method}.json`), 'utf8'), quietJson, method);
    const lines = shown.stderr.trim().split('\n');
    assert.ok(lines.length >= 2, `${method}: ${shown.stderr}`);
    const percents = lines.map((line) => {
      const m = /^calib: fitting (\S+): (\d+)% \(\d+ s elapsed(, ~\d+ s left)?\)$/.exec(line);
      assert.ok(m && m[1] === method, `${method}: ${JSON.stringify(line)}`);
      return Number(m[2]);
    });
    for (let i = 1; i < percents.length; i++) assert.ok(percents[i]! >= percents[i - 1]! && percents[i]! < 100, percents.join(' '));
    assert.equal(withoutProgress(shown.stderr), '', 'withoutProgress removes exactly the progress lines');
  }
  // C = 4 one-vs-rest isotonic fits: one line per class done before the last.
  const iso = await run(['fit', '--method', 'isotonic', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('progress-iso.json')], {
    env: { CALIB_PROGRESS_DELAY_MS: '0', CALIB_PROGRESS_INTERVAL_MS: '0' },
  });
  assert.deepEqual(
    iso.stderr
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[3]),
    ['25%', '50%', '75%'],
  );
  const bad = await run(['fit', '--method', 'isotonic', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('progress-bad.json')], { env: { CALIB_PROGRESS_DELAY_MS: '2s' } });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: CALIB_PROGRESS_DELAY_MS: expected a whole number of milliseconds, got "2s"\n$/);
});

test('class 10: NLL of probabilities clips only p_y = 0; p_y = 1e-20 counts 46.05 nats', async () => {
  writeFileSync(p('p10.csv'), '1,1e-20\n1,0\n');
  writeFileSync(p('y10.csv'), '1\n0\n');
  const r = JSON.parse((await succeeds(['eval', '--probs', p('p10.csv'), '--labels', p('y10.csv'), '--json'])).stdout);
  assert.ok(Math.abs(r.nll - (20 * Math.LN10) / 2) < 1e-12, String(r.nll));
  writeFileSync(p('y10b.csv'), '1\n1\n');
  const zero = JSON.parse((await succeeds(['eval', '--probs', p('p10.csv'), '--labels', p('y10b.csv'), '--json'])).stdout);
  assert.ok(Math.abs(zero.nll - (20 * Math.LN10 - Math.log(Number.MIN_VALUE)) / 2) < 1e-9, String(zero.nll));
});

test('class 8: matrix and Dirichlet fits converge on an ordinary trained model (DenseNet-40 CIFAR-10 validation logits)', async (t) => {
  const real = new URL('../../../../shared/data/real-predictions/densenet40-cifar10/', import.meta.url).pathname;
  if (!existsSync(join(real, 'val-logits.npy'))) return t.skip('../shared/data/real-predictions is absent');
  for (const method of ['matrix', 'dirichlet']) {
    const r = await succeeds(['fit', '--method', method, '--logits', join(real, 'val-logits.npy'), '--labels', join(real, 'val-labels.npy'), '--out', p(`${method}8.json`)]);
    const [before, after] = [...r.stdout.matchAll(/NLL ([\d.]+) -> ([\d.]+)/g)][0]!.slice(1).map(Number) as [number, number];
    assert.ok(after < before, r.stdout);
  }
});

test("class 9: no npm warning on npx calib: onnxruntime-node's install script is denied in package.json, not by an unknown .npmrc key", () => {
  const root = new URL('../../../', import.meta.url).pathname;
  const npmrc = existsSync(join(root, '.npmrc')) ? readFileSync(join(root, '.npmrc'), 'utf8') : '';
  assert.doesNotMatch(npmrc, /onnxruntime-node-install/);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(pkg.allowScripts?.['onnxruntime-node'], false);
  assert.match(readFileSync(join(root, '.ci/run'), 'utf8'), /ONNXRUNTIME_NODE_INSTALL=skip/);
});
