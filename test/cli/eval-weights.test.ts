import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { topLabel, WEIGHTED_METRIC_NAMES, WEIGHTED_TOP_LABEL_NAMES } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-weights');
const p = (name: string): string => join(dir, name);
const N = 300;
const C = 4;
const set = syntheticOverconfident({ n: N, classes: C, seed: 8 });
const logits = Float64Array.from(set.logits);
const labels = set.labels;
const rng = new Random(3);
const weights = Float64Array.from({ length: N }, () => rng.int(4));
// The dataset with row i repeated w_i times.
const repLogits: number[] = [];
const repLabels: number[] = [];
weights.forEach((w, i) => {
  for (let r = 0; r < w; r++) {
    for (let k = 0; k < C; k++) repLogits.push(logits[i * C + k]!);
    repLabels.push(labels[i]!);
  }
});
/** Weighted metrics of calib eval: those not refused under the CLI's settings (debiased marginal ECE). */
const CLI_WEIGHTED = WEIGHTED_METRIC_NAMES.filter((m) => m !== 'marginal_ece');

async function json(argv: string[]): Promise<Record<string, unknown>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

function close(a: unknown, b: unknown, tol: number, message: string): void {
  assert.ok(typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= tol, `${message}: ${a} vs ${b}`);
}

test('eval --weights (npy and CSV) equals eval of the repeated rows; JSON records the weights and the refused metrics', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), labels, [N]);
  await writeNpy(p('w.npy'), weights, [N]);
  writeFileSync(p('w.csv'), ['weight', ...Array.from(weights, String)].join('\n'));
  await writeNpy(p('zr.npy'), Float64Array.from(repLogits), [repLabels.length, C]);
  await writeNpy(p('yr.npy'), Int32Array.from(repLabels), [repLabels.length]);
  const weighted = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy'), '--bins', '10', '--json']);
  const fromCsv = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.csv'), '--bins', '10', '--json']);
  const repeated = await json(['eval', '--logits', p('zr.npy'), '--labels', p('yr.npy'), '--bins', '10', '--json']);
  for (const m of CLI_WEIGHTED) {
    close(weighted[m], repeated[m], 1e-12, m);
    assert.equal(fromCsv[m], weighted[m], `csv ${m}`);
  }
  assert.equal(weighted['n'], N);
  const record = weighted['weights'] as { file: string; sum: number; effective_n: number };
  assert.equal(record.file, p('w.npy'));
  assert.equal(record.sum, repLabels.length);
  const refused = weighted['not_weighted'] as Record<string, string>;
  for (const m of ['debiased_ece', 'marginal_ece', 'aurc', 'error_auroc', 'spiegelhalter_p', 'smooth_ece']) {
    assert.ok(typeof refused[m] === 'string', m);
    assert.ok(!(m in weighted), `${m} must not be reported with weights`);
  }
  assert.match(refused['aurc']!, /ranks/);
  const table = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy')]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /weights from .*w\.npy \(Σ w = /);
  assert.match(table.stdout, /ECE \(%\)/);
  assert.match(table.stdout, /not weighted \(weights refused\): .*debiased_ece/);
});

test('eval --weights refuses bad weight files and unsupported combinations in one line (exit 2)', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), labels, [N]);
  await writeNpy(p('short.npy'), weights.subarray(0, N - 1), [N - 1]);
  const bad = Float64Array.from(weights);
  bad[3] = -1;
  await writeNpy(p('neg.npy'), bad, [N]);
  await writeNpy(p('zero.npy'), new Float64Array(N), [N]);
  await writeNpy(p('w.npy'), weights, [N]);
  const cases: [string[], RegExp][] = [
    [['--weights', p('short.npy')], new RegExp(`--weights: expected ${N} weights, one per row of --logits \\(${N} rows\\), got ${N - 1} weights`)],
    [['--weights', p('neg.npy')], /--weights\[3\]: expected a finite weight ≥ 0, got -1/],
    [['--weights', p('zero.npy')], /--weights: expected weights that are not all zero, got all zero/],
    [['--weights', p('w.npy'), '--ignore-index', '0'], /--weights cannot be combined with --ignore-index/],
    [['--weights', p('w.npy'), '--nll-clip', '1e-15'], /not weighted/],
  ];
  for (const [extra, pattern] of cases) {
    const r = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), ...extra]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
  const model = await run(['eval', '--model', p('none.onnx'), '--inputs', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy')]);
  assert.equal(model.code, 2);
  assert.match(model.stderr, /--weights applies to --logits\/--probs\/--positive-probs\/--confidence inputs, not to --model/);
});

test('eval --weights --bootstrap: unit weights give the unweighted intervals (same resamples); weighted intervals bracket', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), labels, [N]);
  await writeNpy(p('ones.npy'), new Float64Array(N).fill(1), [N]);
  await writeNpy(p('w.npy'), weights, [N]);
  const args = ['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--bootstrap', '40', '--seed', '2', '--json'];
  const plain = (await json(args))['bootstrap'] as { intervals: Record<string, [number, number]> };
  const ones = await json([...args, '--weights', p('ones.npy')]);
  const onesIntervals = (ones['bootstrap'] as { intervals: Record<string, [number, number]> }).intervals;
  for (const m of CLI_WEIGHTED) {
    close(onesIntervals[m]![0], plain.intervals[m]![0], 1e-12, `${m} low`);
    close(onesIntervals[m]![1], plain.intervals[m]![1], 1e-12, `${m} high`);
  }
  const weighted = await json([...args, '--weights', p('w.npy')]);
  const intervals = (weighted['bootstrap'] as { resamples: number; intervals: Record<string, [number, number]> }).intervals;
  assert.deepEqual(Object.keys(intervals), CLI_WEIGHTED);
  for (const m of CLI_WEIGHTED) assert.ok(intervals[m]![0] <= intervals[m]![1], m);
  assert.notDeepEqual(intervals['ece'], onesIntervals['ece']);
});

test('eval --weights --reliability writes the weighted uniform bins (equal to the repeated rows); --positive-probs takes weights', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), labels, [N]);
  await writeNpy(p('w.npy'), weights, [N]);
  await writeNpy(p('zr.npy'), Float64Array.from(repLogits), [repLabels.length, C]);
  await writeNpy(p('yr.npy'), Int32Array.from(repLabels), [repLabels.length]);
  await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy'), '--reliability', p('rw.json'), '--json']);
  await json(['eval', '--logits', p('zr.npy'), '--labels', p('yr.npy'), '--reliability', p('rr.json'), '--json']);
  const a = JSON.parse(readFileSync(p('rw.json'), 'utf8')) as Record<string, unknown>;
  const b = JSON.parse(readFileSync(p('rr.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(JSON.stringify(Object.keys(a)), JSON.stringify(Object.keys(b)));
  const flat = (x: unknown): number[] =>
    JSON.stringify(x)
      .match(/-?\d+(\.\d+)?(e-?\d+)?/g)!
      .map(Number);
  const fa = flat(a);
  const fb = flat(b);
  assert.equal(fa.length, fb.length);
  fa.forEach((v, i) => close(v, fb[i], 1e-12, `reliability value ${i}`));
  const quantile = await run(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy'), '--reliability', p('q.json'), '--reliability-strategy', 'quantile']);
  assert.equal(quantile.code, 2);
  assert.match(quantile.stderr, /strategy: expected 'uniform' with sample weights/);
  // Binary: one probability column with weights equals the repeated rows.
  const probs = Float64Array.from({ length: N }, (_, i) => 1 / (1 + Math.exp(-(logits[i * C]! - logits[i * C + 1]!))));
  const outcomes = Int32Array.from({ length: N }, (_, i) => (labels[i] === 0 ? 1 : 0));
  const repProbs: number[] = [];
  const repOutcomes: number[] = [];
  weights.forEach((w, i) => {
    for (let r = 0; r < w; r++) (repProbs.push(probs[i]!), repOutcomes.push(outcomes[i]!));
  });
  await writeNpy(p('pp.npy'), probs, [N]);
  await writeNpy(p('yy.npy'), outcomes, [N]);
  await writeNpy(p('ppr.npy'), Float64Array.from(repProbs), [repProbs.length]);
  await writeNpy(p('yyr.npy'), Int32Array.from(repOutcomes), [repOutcomes.length]);
  const binaryWeighted = await json(['eval', '--positive-probs', p('pp.npy'), '--labels', p('yy.npy'), '--weights', p('w.npy'), '--json']);
  const binaryPlain = await json(['eval', '--positive-probs', p('ppr.npy'), '--labels', p('yyr.npy'), '--json']);
  for (const m of CLI_WEIGHTED) close(binaryWeighted[m], binaryPlain[m], 1e-12, `binary ${m}`);
  assert.ok('binary_ece' in (binaryWeighted['not_weighted'] as Record<string, string>));
});

test('eval --confidence/--predicted/--labels --weights gives the weighted top-label metrics of the full predictions', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), labels, [N]);
  await writeNpy(p('w.npy'), weights, [N]);
  await writeNpy(p('ones.npy'), new Float64Array(N).fill(1), [N]);
  const top = topLabel(matrix(N, C, logits), labels, 'logits');
  const predicted = Int32Array.from({ length: N }, (_, i) => (top.correct[i] ? labels[i]! : (labels[i]! + 1) % C));
  await writeNpy(p('conf.npy'), top.confidence, [N]);
  await writeNpy(p('pred.npy'), predicted, [N], { dtype: 'int64' });
  const args = ['eval', '--confidence', p('conf.npy'), '--predicted', p('pred.npy'), '--labels', p('y.npy'), '--json'];
  const weighted = await json([...args, '--weights', p('w.npy')]);
  const full = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--weights', p('w.npy'), '--json']);
  for (const m of WEIGHTED_TOP_LABEL_NAMES) assert.equal(weighted[m], full[m], m);
  assert.ok(!('nll' in weighted));
  assert.deepEqual(weighted['not_computable'], [
    'nll',
    'brier',
    'refinement_nll',
    'calibration_nll',
    'calibration_nll_over',
    'calibration_nll_under',
    'refinement_brier',
    'calibration_brier',
    'calibration_brier_over',
    'calibration_brier_under',
    'classwise_ece',
    'marginal_ece',
    'mean_entropy',
  ]);
  assert.equal(weighted['input'], 'top-label');
  assert.equal(
    (weighted['weights'] as { sum: number }).sum,
    weights.reduce((a, b) => a + b, 0),
  );
  assert.ok('aurc' in (weighted['not_weighted'] as Record<string, string>));
  // Unit weights: the unweighted top-label values and bootstrap intervals.
  const plain = await json([...args, '--bootstrap', '30']);
  const ones = await json([...args, '--bootstrap', '30', '--weights', p('ones.npy')]);
  const pi = (plain['bootstrap'] as { intervals: Record<string, [number, number]> }).intervals;
  const oi = (ones['bootstrap'] as { intervals: Record<string, [number, number]> }).intervals;
  for (const m of WEIGHTED_TOP_LABEL_NAMES) {
    close(ones[m], plain[m], 1e-12, m);
    close(oi[m]![0], pi[m]![0], 1e-12, `${m} low`);
    close(oi[m]![1], pi[m]![1], 1e-12, `${m} high`);
  }
  const table = await run(['eval', '--confidence', p('conf.npy'), '--predicted', p('pred.npy'), '--labels', p('y.npy'), '--weights', p('w.npy')]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /not computable from top-label results: nll/);
  const short = await run(['eval', '--confidence', p('conf.npy'), '--predicted', p('pred.npy'), '--labels', p('y.npy'), '--weights', p('zero.npy')]);
  assert.equal(short.code, 2);
});
