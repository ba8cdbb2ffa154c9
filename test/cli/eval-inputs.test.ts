import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { binaryCalibrationError, calibrationCurve, evaluate, TOP_LABEL_METRICS, topLabel } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-inputs');
const p = (name: string): string => join(dir, name);
const N = 400;
const C = 5;
const set = syntheticOverconfident({ n: N, classes: C, seed: 4 });
const logits = Float64Array.from(set.logits);
const labels = set.labels;
const full = evaluate(matrix(N, C, logits), labels, { input: 'logits' });
const top = topLabel(matrix(N, C, logits), labels, 'logits');

async function json(argv: string[]): Promise<Record<string, unknown>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

test('eval --confidence/--predicted/--labels gives every top-label metric of the full evaluation and names the rest', async () => {
  const predicted = Int32Array.from({ length: N }, (_, i) => {
    let best = 0;
    for (let k = 1; k < C; k++) if (logits[i * C + k]! > logits[i * C + best]!) best = k;
    return best;
  });
  await writeNpy(p('conf.npy'), top.confidence, [N]);
  await writeNpy(p('pred.npy'), predicted, [N], { dtype: 'int64' });
  await writeNpy(p('y.npy'), labels, [N]);
  const out = await json(['eval', '--confidence', p('conf.npy'), '--predicted', p('pred.npy'), '--labels', p('y.npy'), '--json']);
  for (const m of TOP_LABEL_METRICS) assert.equal(out[m.key], Number.isFinite(full[m.key]) ? full[m.key] : null, m.key);
  assert.deepEqual(out['not_computable'], [
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
  assert.equal(out['input'], 'top-label');
  // The same from one CSV with named columns, and from a correctness column.
  const rows = Array.from({ length: N }, (_, i) => `${top.confidence[i]},${predicted[i]},${labels[i]},${top.correct[i]}`);
  writeFileSync(p('results.csv'), ['conf,pred,gold,ok', ...rows].join('\n'));
  const fromCsv = await json(['eval', '--confidence', p('results.csv'), '--columns', 'confidence=conf,predicted=pred,label=gold', '--json']);
  const fromCorrect = await json(['eval', '--confidence', p('results.csv'), '--columns', 'confidence=conf,correct=ok', '--json']);
  for (const m of TOP_LABEL_METRICS) {
    assert.equal(fromCsv[m.key], out[m.key], `csv ${m.key}`);
    assert.equal(fromCorrect[m.key], out[m.key], `correct ${m.key}`);
  }
  const table = await run(['eval', '--confidence', p('results.csv'), '--columns', 'confidence=conf,predicted=pred,label=gold']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /smooth ECE \(%\)/);
  assert.match(table.stdout, /not computable from top-label results .*NLL, Brier/);
  const bad = await run(['eval', '--confidence', p('results.csv'), '--columns', 'confidence=nope,predicted=pred,label=gold']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--confidence: expected a column named "nope"/);
  const noPred = await run(['eval', '--confidence', p('conf.npy'), '--labels', p('y.npy')]);
  assert.equal(noPred.code, 2);
  assert.match(noPred.stderr, /--predicted/);
});

test('eval --confidence/--predicted/--labels --bootstrap: the same intervals as --logits --bootstrap (same resampled rows), in JSON and the table', async () => {
  const predicted = Int32Array.from({ length: N }, (_, i) => {
    let best = 0;
    for (let k = 1; k < C; k++) if (logits[i * C + k]! > logits[i * C + best]!) best = k;
    return best;
  });
  await writeNpy(p('bconf.npy'), top.confidence, [N]);
  await writeNpy(p('bpred.npy'), predicted, [N], { dtype: 'int64' });
  await writeNpy(p('by.npy'), labels, [N]);
  await writeNpy(p('bz.npy'), logits, [N, C]);
  const boot = ['--bootstrap', '30', '--seed', '7', '--level', '0.9', '--json'];
  const fromTop = await json(['eval', '--confidence', p('bconf.npy'), '--predicted', p('bpred.npy'), '--labels', p('by.npy'), ...boot]);
  const fromLogits = await json(['eval', '--logits', p('bz.npy'), '--labels', p('by.npy'), ...boot]);
  const a = fromTop['bootstrap'] as { resamples: number; seed: number; level: number; intervals: Record<string, [number, number]> };
  const b = fromLogits['bootstrap'] as typeof a;
  assert.deepEqual([a.resamples, a.seed, a.level], [30, 7, 0.9]);
  for (const m of TOP_LABEL_METRICS) assert.deepEqual(a.intervals[m.key], b.intervals[m.key], m.key);
  assert.deepEqual(Object.keys(a.intervals).sort(), TOP_LABEL_METRICS.map((m) => m.key).sort());
  // The interval is not degenerate, and another seed draws other rows.
  const [lo, hi] = a.intervals['ece']!;
  assert.ok(lo < (fromTop['ece'] as number) && (fromTop['ece'] as number) < hi, `ECE ${fromTop['ece']} in [${lo}, ${hi}]`);
  const other = await json(['eval', '--confidence', p('bconf.npy'), '--predicted', p('bpred.npy'), '--labels', p('by.npy'), '--bootstrap', '30', '--seed', '8', '--level', '0.9', '--json']);
  assert.notDeepEqual((other['bootstrap'] as typeof a).intervals['ece'], a.intervals['ece']);
  const table = await run(['eval', '--confidence', p('bconf.npy'), '--predicted', p('bpred.npy'), '--labels', p('by.npy'), '--bootstrap', '30']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /30 bootstrap resamples, seed 0/);
  assert.match(table.stdout, /95% CI/);
  const ignore = await run(['eval', '--confidence', p('bconf.npy'), '--predicted', p('bpred.npy'), '--labels', p('by.npy'), '--ignore-index', '3']);
  assert.equal(ignore.code, 2);
  assert.match(ignore.stderr, /--ignore-index applies to --logits\/--probs/);
});

test('eval --positive-probs: metrics of [1 − p, p] plus the torchmetrics binary ECE; --reliability writes sklearn-style bins', async () => {
  const n = 300;
  const prob = Float64Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 100);
  const y = Int32Array.from(prob, (v, i) => (((i * 7919) % 100) / 100 < v * 0.8 ? 1 : 0));
  writeFileSync(p('pp.csv'), ['p', ...Array.from(prob, String)].join('\n'));
  writeFileSync(p('yy.csv'), Array.from(y, String).join('\n'));
  const out = await json(['eval', '--positive-probs', p('pp.csv'), '--labels', p('yy.csv'), '--json', '--reliability', p('rel.csv'), '--reliability-strategy', 'quantile', '--bins', '10']);
  const two = new Float64Array(2 * n);
  prob.forEach((v, i) => ((two[2 * i] = 1 - v), (two[2 * i + 1] = v)));
  const reference = evaluate(matrix(n, 2, two), y, { input: 'probabilities', bins: 10 });
  assert.equal(out['ece'], reference.ece);
  assert.equal(out['binary_ece'], binaryCalibrationError(prob, Uint8Array.from(y), 10));
  const curve = calibrationCurve(prob, Uint8Array.from(y), { bins: 10, strategy: 'quantile' });
  const lines = readFileSync(p('rel.csv'), 'utf8').trim().split('\n');
  assert.equal(lines[0], 'lower,upper,count,mean_predicted,fraction_positive');
  assert.equal(lines.length, curve.count.length + 1);
  assert.equal(Number(lines[1]!.split(',')[4]), curve.fractionPositive[0]);
});

test('eval --adaptive interp, --norm, --marginal-binning reach the metrics; --ignore-index drops rows; npz members and stdin-free paths', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  const withIgnored = Int32Array.from(labels);
  withIgnored[3] = -100;
  withIgnored[10] = -100;
  await writeNpy(p('y-ignore.npy'), withIgnored, [N]);
  await writeNpy(p('y.npy'), labels, [N]);
  const out = await json(['eval', '--logits', p('z.npy'), '--labels', p('y.npy'), '--json', '--adaptive', 'interp', '--norm', '1', '--marginal-binning', 'equal-mass']);
  const ref = evaluate(matrix(N, C, logits), labels, { input: 'logits', adaptive: 'interp', labelBinnedP: 1, marginalBinning: 'equal-mass' });
  for (const k of ['adaece', 'ece_lb', 'marginal_ece'] as const) assert.equal(out[k], ref[k], k);
  assert.equal(out['adaptive_binning'], 'interp');
  const kept = Array.from({ length: N }, (_, i) => i).filter((i) => i !== 3 && i !== 10);
  const sub = Float64Array.from(kept.flatMap((i) => Array.from(logits.subarray(i * C, (i + 1) * C))));
  const ignored = await json(['eval', '--logits', p('z.npy'), '--labels', p('y-ignore.npy'), '--json', '--ignore-index', '-100']);
  const refIgnored = evaluate(
    matrix(kept.length, C, sub),
    Int32Array.from(kept, (i) => labels[i]!),
    { input: 'logits' },
  );
  assert.equal(ignored['n'], N - 2);
  assert.equal(ignored['ece'], refIgnored.ece);
  assert.equal(ignored['nll'], refIgnored.nll);
  const bad = await run(['eval', '--logits', p('z.npy'), '--labels', p('y-ignore.npy')]);
  assert.equal(bad.code, 2);
});
