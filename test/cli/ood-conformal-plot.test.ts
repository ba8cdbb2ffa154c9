import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { auroc, conformalMetrics, fitConformal, fprAtTpr, oodScores, softmax } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-ood');
const p = (name: string): string => join(dir, name);
const C = 4;
const inSet = syntheticOverconfident({ n: 300, classes: C, seed: 1 });
const inLogits = Float64Array.from(inSet.logits);
const outLogits = Float64Array.from(inLogits.subarray(0, 200 * C), (v, i) => v * 0.3 + ((i * 13) % 7) / 7);

test('calib ood: AUROC and FPR95 of each score equal the metrics layer on the two files', async () => {
  await writeNpy(p('in.npy'), inLogits, [300, C]);
  await writeNpy(p('out.npy'), outLogits, [200, C]);
  const r = await run(['ood', '--in', p('in.npy'), '--out', p('out.npy'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { scores: Record<string, { auroc: number; fpr95: number }> };
  assert.deepEqual(Object.keys(out.scores), ['msp', 'max-logit', 'energy', 'entropy']);
  for (const score of ['msp', 'max-logit', 'energy', 'entropy'] as const) {
    const a = oodScores(matrix(300, C, inLogits), score);
    const b = oodScores(matrix(200, C, outLogits), score);
    assert.equal(out.scores[score]!.auroc, auroc(a, b), score);
    assert.equal(out.scores[score]!.fpr95, fprAtTpr(a, b), score);
  }
  const table = await run(['ood', '--in', p('in.npy'), '--out', p('out.npy'), '--score', 'energy']);
  assert.match(table.stdout, /energy/);
  const bad = await run(['ood', '--in', p('in.npy'), '--out', p('out.npy'), '--input', 'probs']);
  assert.equal(bad.code, 2);
});

test('calib conformal --split first: split of the rows, threshold and coverage equal the metrics layer', async () => {
  await writeNpy(p('z.npy'), inLogits, [300, C]);
  await writeNpy(p('y.npy'), inSet.labels, [300]);
  const r = await run(['conformal', '--logits', p('z.npy'), '--labels', p('y.npy'), '--alpha', '0.2', '--split', 'first', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { methods: Record<string, { threshold: number; coverage: number; mean_set_size: number }> };
  const probs = softmax(matrix(300, C, inLogits));
  const cal = matrix(150, C, probs.data.subarray(0, 150 * C));
  const tst = matrix(150, C, probs.data.subarray(150 * C));
  for (const method of ['lac', 'aps', 'raps'] as const) {
    const fitted = fitConformal(cal, inSet.labels.subarray(0, 150), { method, alpha: 0.2 });
    const m = conformalMetrics(tst, inSet.labels.subarray(150), fitted);
    assert.equal(out.methods[method]!.threshold, fitted.threshold, method);
    assert.equal(out.methods[method]!.coverage, m.coverage, method);
    assert.equal(out.methods[method]!.mean_set_size, m.meanSetSize, method);
  }
});

test('calib plot draws the smoothed reliability diagram with its band and the risk–coverage curve', async () => {
  await writeNpy(p('z.npy'), inLogits, [300, C]);
  await writeNpy(p('y.npy'), inSet.labels, [300]);
  const s = await run(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('smooth.svg'), '--figure', 'smooth-reliability', '--resamples', '20']);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /smoothed reliability diagram \(smECE/);
  const svg = readFileSync(p('smooth.svg'), 'utf8');
  assert.match(svg, /class="band"/);
  assert.match(svg, /class="mu"/);
  const rc = await run(['plot', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('rc.svg'), '--figure', 'risk-coverage']);
  assert.equal(rc.code, 0, rc.stderr);
  assert.match(readFileSync(p('rc.svg'), 'utf8'), /class="risk-coverage"/);
});
