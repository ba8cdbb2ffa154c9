import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { fitCalibrator, predictionRows } from '../../src/posthoc/index.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-fit-group-columns');
const p = (name: string): string => join(dir, name);

// 3 classes, 240 rows. site: north (i % 2 = 0) / south; device: a (i % 3 = 0) / b. Cells north × a, south × a:
// 40 rows each; north × b, south × b: 80 each. The 'easy' site of fallback.csv (rows 0–29) has logits that make
// every row right with a large margin: temperature scaling has no minimum there.
const N = 240;
const C = 3;
const set = syntheticOverconfident({ n: N, classes: C, seed: 5 });
const labels = Int32Array.from(set.labels);
const logits = Float64Array.from(set.logits);
for (let i = 0; i < 30; i++) for (let k = 0; k < C; k++) logits[i * C + k] = k === labels[i] ? 6 : 0;
const SITE = Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 'north' : 'south'));
const DEVICE = Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 'a' : 'b'));
const EASY = Array.from({ length: N }, (_, i) => (i < 30 ? 'easy' : 'rest'));
await writeNpy(p('z.npy'), logits, [N, C]);
await writeNpy(p('y.npy'), labels, [N]);
writeFileSync(p('site.csv'), `site\n${SITE.join('\n')}\n`);
writeFileSync(p('device.csv'), `device\n${DEVICE.join('\n')}\n`);
writeFileSync(p('easy.csv'), `${EASY.join('\n')}\n`);
const WEIGHTS = Float64Array.from({ length: N }, (_, i) => 1 + (i % 4));
writeFileSync(p('w.csv'), `${Array.from(WEIGHTS).join('\n')}\n`);
const input = { logits: { rows: N, cols: C, data: logits } };
const FIT = ['fit', '--method', 'temperature', '--logits', p('z.npy'), '--labels', p('y.npy')];

function assertBadInput(r: { code: number; stderr: string }, arg: string, more?: RegExp): void {
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.includes(arg), r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  if (more) assert.match(r.stderr, more);
}

test('calib fit --groups A --groups B: one temperature per intersection cell, equal to a plain fit on its rows; apply needs both columns', async () => {
  const r = await run([...FIT, '--groups', p('site.csv'), '--groups', p('device.csv'), '--min-group-size', '50', '--out', p('cells.json'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.group_columns, ['site', 'device']);
  assert.deepEqual(
    out.groups.map((g: any) => [g.id, g.rows, g.calibrator]),
    [
      ['north × a', 40, 'pooled'],
      ['south × b', 80, 'own'],
      ['north × b', 80, 'own'],
      ['south × a', 40, 'pooled'],
    ],
  );
  assert.deepEqual(out.groups[0].fallback, { reason: 'too_small', detail: '40 < 50 rows' });
  const file = JSON.parse(readFileSync(p('cells.json'), 'utf8'));
  assert.deepEqual(file.settings.columns, ['site', 'device']);
  const rows = SITE.flatMap((s, i) => (s === 'south' && DEVICE[i] === 'b' ? [i] : []));
  const plain = fitCalibrator(
    'temperature',
    predictionRows(input, rows),
    Int32Array.from(rows, (i) => labels[i]!),
  ).toJSON()['temperature'] as number;
  assert.ok(Math.abs(file.groups[1].calibrator.temperature - plain) <= 1e-12 * plain);
  // apply with the same two columns: row 1 (south × b) by its cell's temperature, row 0 (north × a) by the pooled one.
  const a = await run(['apply', '--calibrator', p('cells.json'), '--logits', p('z.npy'), '--groups', p('site.csv'), '--groups', p('device.csv'), '--out', p('q.npy'), '--dtype', 'float64']);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /160 rows by their group's calibrator, 80 of groups below 50 fitting rows and 0 of unseen groups by the pooled one/);
  const q = (await readNpy(p('q.npy'))).data as Float64Array;
  for (const [i, t] of [
    [1, file.groups[1].calibrator.temperature],
    [0, file.pooled.temperature],
  ] as const) {
    const e = Array.from({ length: C }, (_, k) => Math.exp(logits[i * C + k]! / t));
    const s = e.reduce((x, y) => x + y, 0);
    for (let k = 0; k < C; k++) assert.ok(Math.abs(q[i * C + k]! - e[k]! / s) < 1e-12);
  }
  assertBadInput(
    await run(['apply', '--calibrator', p('cells.json'), '--logits', p('z.npy'), '--groups', p('site.csv'), '--out', p('x.npy')]),
    '--groups',
    /2 group columns, as at fit time \(site, device\), got 1 \(site\)/,
  );
  assert.equal(existsSync(p('x.npy')), false);
});

test('calib fit --groups: a group whose own fit fails falls back to the pooled calibrator (exit 0), named in the summary and the JSON', async () => {
  const r = await run([...FIT, '--groups', p('easy.csv'), '--out', p('easy.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /fitted temperature on each of 1 of 2 groups/);
  assert.match(r.stdout, /1 group fell back to the pooled calibrator because its own fit failed: "easy" \(temperature: the validation NLL keeps decreasing/);
  assert.match(r.stdout, /\neasy +30 +pooled \(own fit failed\)/);
  const file = JSON.parse(readFileSync(p('easy.json'), 'utf8'));
  assert.equal(file.groups[0].calibrator, null);
  assert.equal(file.groups[0].fallback.reason, 'fit_failed');
  const a = await run(['apply', '--calibrator', p('easy.json'), '--logits', p('z.npy'), '--groups', p('easy.csv'), '--out', p('qe.npy')]);
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /210 rows by their group's calibrator, 0 of groups below 20 fitting rows, 30 of groups whose own fit failed and 0 of unseen groups by the pooled one/);
});

test("calib fit --groups --weights: each fit weighted by its rows' weights", async () => {
  const r = await run([...FIT, '--groups', p('site.csv'), '--weights', p('w.csv'), '--out', p('weighted.json'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).weights, { kind: 'sample', sum: 600 });
  const file = JSON.parse(readFileSync(p('weighted.json'), 'utf8'));
  const rows = SITE.flatMap((s, i) => (s === 'north' ? [i] : []));
  const own = fitCalibrator(
    'temperature',
    predictionRows(input, rows),
    Int32Array.from(rows, (i) => labels[i]!),
    undefined,
    { sampleWeights: Float64Array.from(rows, (i) => WEIGHTS[i]!) },
  );
  assert.equal(file.groups[0].calibrator.temperature, own.toJSON()['temperature']);
  const pooled = fitCalibrator('temperature', input, labels, undefined, { sampleWeights: WEIGHTS });
  assert.equal(file.pooled.temperature, pooled.toJSON()['temperature']);
  assert.notEqual(
    file.groups[0].calibrator.temperature,
    fitCalibrator(
      'temperature',
      predictionRows(input, rows),
      Int32Array.from(rows, (i) => labels[i]!),
    ).toJSON()['temperature'],
  );
  assertBadInput(
    await run(['fit', '--method', 'ts-grid-ece', '--logits', p('z.npy'), '--labels', p('y.npy'), '--groups', p('site.csv'), '--weights', p('w.csv'), '--out', p('x.json')]),
    '--weights',
    /sample weights/,
  );
});

test('calib fit/apply --groups: flags that do not fit name themselves; a missing calibrator file is reported as missing', async () => {
  assertBadInput(await run([...FIT, '--groups', p('site.csv'), '--cv-seed', '3', '--out', p('x.json')]), '--cv-seed', /no such flag with --groups/);
  assertBadInput(await run([...FIT, '--groups', p('site.csv'), '--cv-ensemble', '--out', p('x.json')]), '--cv-ensemble');
  assertBadInput(await run([...FIT, '--groups', p('site.csv'), '--metric', 'ece', '--out', p('x.json')]), '--metric');
  assertBadInput(await run([...FIT, '--groups', p('site.csv'), '--candidates', 'temperature', '--out', p('x.json')]), '--candidates');
  assert.equal(existsSync(p('x.json')), false);
  assertBadInput(await run(['apply', '--calibrator', p('missing.json'), '--logits', p('z.npy'), '--groups', p('site.csv'), '--out', p('x.npy')]), '--calibrator', /no such file/);
  writeFileSync(p('broken.json'), '{ "kind": ');
  assertBadInput(await run(['apply', '--calibrator', p('broken.json'), '--logits', p('z.npy'), '--groups', p('site.csv'), '--out', p('x.npy')]), '--calibrator');
  const plain = await run([...FIT, '--out', p('ts.json')]);
  assert.equal(plain.code, 0, plain.stderr);
  assertBadInput(
    await run(['apply', '--calibrator', p('ts.json'), '--logits', p('z.npy'), '--groups', p('site.csv'), '--out', p('x.npy')]),
    '--groups',
    /no --groups for a temperature calibrator fitted without them/,
  );
});
