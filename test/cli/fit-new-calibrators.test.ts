import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { clippedLogLoss, separateOneClasswiseEce } from '../../src/metrics/index.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/index.js';
import { matrix } from '../../src/util/matrix.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-fit-new');
const p = (name: string): string => join(dir, name);
const N = 500;
const C = 3;
const set = syntheticOverconfident({ n: N, classes: C, seed: 21 });
const logits = Float32Array.from(set.logits);

test('calib fit reaches every issue-12 calibrator with its --opt options and writes what the library fits', async () => {
  await writeNpy(p('z.npy'), logits, [N, C]);
  await writeNpy(p('y.npy'), set.labels, [N]);
  const cases: [string, string[], Record<string, unknown>][] = [
    ['class-temperature', ['l2=0.001'], { l2: 0.001 }],
    ['top-versus-all', ['binary=histogram', 'bins=8'], { binary: 'histogram', bins: 8 }],
    ['top-label', ['pointsPerBin=40'], { pointsPerBin: 40 }],
    ['scaling-binning', ['bins=5', 'mode=top-label'], { bins: 5, mode: 'top-label' }],
    ['venn-abers', ['mode=one-vs-rest'], { mode: 'one-vs-rest' }],
    ['bbq', ['score=aic'], { score: 'aic' }],
    ['enir', ['mode=top-label'], { mode: 'top-label' }],
    ['near-isotonic', ['select=lambda', 'lambda=2.5'], { select: 'lambda', lambda: 2.5 }],
  ];
  for (const [method, opts, options] of cases) {
    const out = p(`${method}.json`);
    const r = await run(['fit', '--method', method, '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', out, ...opts.flatMap((o) => ['--opt', o])]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^fitted ${method} on 500 samples`));
    const written = JSON.parse(readFileSync(out, 'utf8'));
    const reference = fitCalibrator(method as never, { logits: matrix(N, C, logits) }, set.labels, options as never).toJSON();
    assert.deepEqual(written, JSON.parse(JSON.stringify(reference)), method);
    assert.equal(calibratorFromJSON(written).kind, method);
  }
  const bad = await run(['fit', '--method', 'top-label', '--logits', p('z.npy'), '--labels', p('y.npy'), '--out', p('x.json'), '--opt', 'binary=spline']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: top-label options\.binary: expected one of 'histogram', 'isotonic', 'platt'/);
});

test('calib eval --nll-clip, --classwise-reduction sum and --classwise-separate-one add the published-convention keys', async () => {
  await writeNpy(p('ze.npy'), logits, [N, C]);
  await writeNpy(p('ye.npy'), set.labels, [N]);
  const r = await run(['eval', '--logits', p('ze.npy'), '--labels', p('ye.npy'), '--json', '--nll-clip', '1e-15', '--classwise-reduction', 'sum', '--classwise-separate-one', '14']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const m = matrix(N, C, logits);
  assert.equal(out.nll_clipped, clippedLogLoss(m, set.labels, { input: 'logits', eps: 1e-15 }));
  assert.equal(out.classwise_ece_separate_one, separateOneClasswiseEce(m, set.labels, { input: 'logits', bins: 14, reduction: 'sum' }));
  assert.ok(Math.abs(out.classwise_ece_sum - C * out.classwise_ece) < 1e-15);
  const plain = JSON.parse((await run(['eval', '--logits', p('ze.npy'), '--labels', p('ye.npy'), '--json'])).stdout);
  assert.equal(plain.nll_clipped, undefined);
  assert.equal(plain.classwise_ece, out.classwise_ece);
  const bad = await run(['eval', '--logits', p('ze.npy'), '--labels', p('ye.npy'), '--nll-clip', '0']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^calib: error: --nll-clip: expected/);
});
