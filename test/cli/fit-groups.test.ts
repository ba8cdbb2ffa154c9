import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { fitCalibrator, predictionRows } from '../../src/posthoc/index.js';
import { buildClassifier } from '../deploy/classifiers.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-fit-groups');
const p = (name: string): string => join(dir, name);

// 3 classes, 200 rows; sites by row: 'north' (i % 2 = 0: 100 rows), 'south' (i % 2 = 1 and i < 170: 85), 'east' (the rest: 15).
const N = 200;
const C = 3;
const set = syntheticOverconfident({ n: N, classes: C, seed: 3 });
const site = (i: number): string => (i % 2 === 0 ? 'north' : i < 170 ? 'south' : 'east');
const SITES = Array.from({ length: N }, (_, i) => site(i));
const logits = Float64Array.from(set.logits, (v, j) => (site(Math.floor(j / C)) === 'south' ? 0.4 * v : v));
const labels = Int32Array.from(set.labels);
const rowsOf = (id: string): number[] => SITES.flatMap((g, i) => (g === id ? [i] : []));

await writeNpy(p('z.npy'), logits, [N, C]);
await writeNpy(p('y.npy'), labels, [N]);
writeFileSync(p('sites.csv'), `site\n${SITES.join('\n')}\n`);
writeFileSync(p('short.csv'), `${SITES.slice(1).join('\n')}\n`);
// Test rows: the same predictions, five rows of a site unseen at fit time.
writeFileSync(p('sites-test.csv'), `${SITES.map((s, i) => (i < 5 ? 'west' : s)).join('\n')}\n`);

/** One line on stderr naming `arg`, exit code 2, no stack trace. */
function assertBadInput(r: { code: number; stderr: string }, arg: string, more?: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.includes(arg), r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  if (more) assert.match(r.stderr, more);
}

const FIT = ['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy')];

test('calib fit --groups: one temperature per site equal to a plain fit on its rows; the small site uses the pooled fit', async () => {
  const r = await run([...FIT, '--groups', p('sites.csv'), '--out', p('gw.json'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.groups.map((g: any) => [g.id, g.rows, g.calibrator]),
    [
      ['north', 100, 'own'],
      ['south', 85, 'own'],
      ['east', 15, 'pooled'],
    ],
  );
  assert.equal(out.min_group_size, 20);
  const file = JSON.parse(readFileSync(p('gw.json'), 'utf8'));
  assert.equal(file.kind, 'groupwise');
  const input = { logits: { rows: N, cols: C, data: logits } };
  for (const [k, id] of ['north', 'south'].entries()) {
    const rows = rowsOf(id);
    const plain = fitCalibrator(
      'temperature',
      predictionRows(input, rows),
      Int32Array.from(rows, (i) => labels[i]!),
    ).toJSON()['temperature'] as number;
    assert.ok(Math.abs(file.groups[k].calibrator.temperature - plain) <= 1e-12 * plain, id);
  }
  assert.equal(file.groups[2].calibrator, null);
  assert.equal(file.pooled.temperature, fitCalibrator('temperature', input, labels).toJSON()['temperature']);
  // The human summary: a table of the groups.
  const human = await run([...FIT, '--groups', p('sites.csv'), '--out', p('gw2.json')]);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /fitted temperature on each of 2 of 3 groups \(≥ 20 rows\) and on all 200 rows \(pooled\)/);
  assert.match(human.stdout, /\neast +15 +pooled \(< 20 rows\)/);
  // --min-group-size 90: only north is fitted alone.
  const big = await run([...FIT, '--groups', p('sites.csv'), '--min-group-size', '90', '--out', p('gw90.json'), '--json']);
  assert.deepEqual(
    JSON.parse(big.stdout).groups.map((g: any) => g.calibrator),
    ['own', 'pooled', 'pooled'],
  );
});

test('calib apply --groups: rows by their site, unseen sites by the pooled calibrator with a warning and counts', async () => {
  const fit = await run([...FIT, '--groups', p('sites.csv'), '--out', p('gw-apply.json')]);
  assert.equal(fit.code, 0, fit.stderr);
  const file = JSON.parse(readFileSync(p('gw-apply.json'), 'utf8'));
  const r = await run(['apply', '--calibrator', p('gw-apply.json'), '--logits', p('z.npy'), '--groups', p('sites-test.csv'), '--out', p('q.npy'), '--dtype', 'float64']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /warning: 5 rows of 1 group not seen at fit time \("west"\) calibrated by the pooled calibrator/);
  // Rows 0-4 are unseen (pooled); of the others, east rows (odd ≥ 170: 15) are pooled too.
  assert.match(r.stdout, /180 rows by their group's calibrator, 15 of groups below 20 fitting rows and 5 of unseen groups by the pooled one/);
  const q = (await readNpy(p('q.npy'))).data as Float64Array;
  const temperatureOf = (i: number): number => (i < 5 || site(i) === 'east' ? file.pooled.temperature : file.groups[site(i) === 'north' ? 0 : 1].calibrator.temperature);
  for (let i = 0; i < N; i++) {
    const t = temperatureOf(i);
    const z = Array.from(logits.subarray(i * C, (i + 1) * C), (v) => v / t);
    const m = Math.max(...z);
    const e = z.map((v) => Math.exp(v - m));
    const s = e.reduce((a, b) => a + b, 0);
    for (let k = 0; k < C; k++) assert.ok(Math.abs(q[i * C + k]! - e[k]! / s) < 1e-12, `row ${i}`);
  }
  // Calibrated logits: z / T per row.
  const l = await run(['apply', '--calibrator', p('gw-apply.json'), '--logits', p('z.npy'), '--groups', p('sites.csv'), '--out', p('ql.npy'), '--dtype', 'float64', '--output', 'logits']);
  assert.equal(l.code, 0, l.stderr);
  const ql = (await readNpy(p('ql.npy'))).data as Float64Array;
  assert.ok(Math.abs(ql[3]! - logits[3]! / file.groups[1].calibrator.temperature) < 1e-12);
});

test('calib fit/apply/export --groups: bad input is refused in one line naming the flag', async () => {
  const fit = await run([...FIT, '--groups', p('sites.csv'), '--out', p('gw-bad.json')]);
  assert.equal(fit.code, 0, fit.stderr);
  assertBadInput(await run([...FIT, '--groups', p('short.csv'), '--out', p('x.json')]), '--groups', /200 group ids.*199 lines/);
  assert.equal(existsSync(p('x.json')), false);
  assertBadInput(await run([...FIT, '--min-group-size', '5', '--out', p('x.json')]), '--min-group-size', /only with --groups/);
  assertBadInput(await run([...FIT, '--groups', p('sites.csv'), '--min-group-size', '0', '--out', p('x.json')]), '--min-group-size');
  assertBadInput(await run([...FIT, '--groups', p('sites.csv'), '--cv', '3', '--out', p('x.json')]), '--cv');
  assertBadInput(await run(['fit', '--method', 'auto', '--logits', p('z.npy'), '--labels', p('y.npy'), '--groups', p('sites.csv'), '--out', p('x.json')]), '--method');
  // A group-wise calibrator without --groups: refused naming --groups.
  assertBadInput(await run(['apply', '--calibrator', p('gw-bad.json'), '--logits', p('z.npy'), '--out', p('x.npy')]), '--groups', /group-wise calibrator/);
  assertBadInput(await run(['apply', '--calibrator', p('gw-bad.json'), '--logits', p('z.npy'), '--groups', p('short.csv'), '--out', p('x.npy')]), '--groups', /200 group ids/);
  assert.equal(existsSync(p('x.npy')), false);
  // --groups with a plain calibrator.
  const plain = await run([...FIT, '--out', p('ts.json')]);
  assert.equal(plain.code, 0, plain.stderr);
  assertBadInput(await run(['apply', '--calibrator', p('ts.json'), '--logits', p('z.npy'), '--groups', p('sites.csv'), '--out', p('x.npy')]), '--groups', /fitted without them/);
  // An edited file with an unknown key.
  const edited = JSON.parse(readFileSync(p('gw-bad.json'), 'utf8'));
  edited.groups[0].colour = 'red';
  writeFileSync(p('gw-edited.json'), JSON.stringify(edited));
  assertBadInput(await run(['apply', '--calibrator', p('gw-edited.json'), '--logits', p('z.npy'), '--groups', p('sites.csv'), '--out', p('x.npy')]), '--calibrator', /json\.groups\[0\]\.colour/);
  // calib export: group ids are not a model input.
  const model = p('m.onnx');
  writeFileSync(model, buildClassifier({ sampleShape: [4], classes: 3, seed: 1 }).bytes);
  assertBadInput(await run(['export', '--model', model, '--calibrator', p('gw-bad.json'), '--out', p('m-cal.onnx')]), '--calibrator', /group ids are not an input of the ONNX model/);
  assert.equal(existsSync(p('m-cal.onnx')), false);
});
