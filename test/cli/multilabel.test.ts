import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { smoothEce } from '../../src/metrics/smooth/smooth-ece.js';
import { sigmoid } from '../../src/metrics/multilabel.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

// Fixtures and reference values: /usr/bin/python3 test/fixtures/scripts/make-multilabel-fixtures.py
// (scikit-learn brier_score_loss / log_loss / _sigmoid_calibration, torchmetrics' binary ECE transcribed in NumPy).
const fixture = (name: string): string => fileURLToPath(new URL(`../../../test/fixtures/multilabel/${name}`, import.meta.url));
type Values = { ece: number; brier: number; nll: number };
const reference = JSON.parse(readFileSync(fixture('reference.json'), 'utf8')) as {
  labels: (Values & { label: number; support: number })[];
  macro: Values;
  micro: Values;
  weighted: Values;
  platt: { a: number; b: number }[];
};
const dir = tempDir('cli-multilabel');
const p = (name: string): string => join(dir, name);

async function ok(argv: string[]): Promise<string> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}
const close = (a: number, b: number, tol: number, what: string) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
function checkValues(got: Record<string, number>, want: Values, what: string): void {
  close(got['ece']!, want.ece, 1e-12, `${what} ece`);
  close(got['brier']!, want.brier, 1e-12, `${what} brier`);
  close(got['nll']!, want.nll, 1e-10, `${what} nll`);
}

test('calib eval --multilabel: per-label, macro, micro and weighted metrics match scikit-learn / torchmetrics definitions', async () => {
  const out = JSON.parse(await ok(['eval', '--multilabel', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--json']));
  assert.equal(out.num_labels, 5);
  assert.equal(out.n, 300);
  out.labels.forEach((l: Record<string, number>, i: number) => {
    assert.equal(l['support'], reference.labels[i]!.support);
    checkValues(l, reference.labels[i]!, `label ${i}`);
  });
  checkValues(out.macro, reference.macro, 'macro');
  checkValues(out.micro, reference.micro, 'micro');
  checkValues(out.weighted, reference.weighted, 'weighted');
  // smooth ECE per label is smECE of the column (smooth-ece.ts is itself checked against relplot).
  const z = await readNpy(fixture('logits.npy'));
  const y = await readNpy(fixture('labels.npy'));
  const col = (l: number) => ({
    p: Float64Array.from({ length: 300 }, (_, i) => sigmoid(Number(z.data[i * 5 + l]))),
    y: Uint8Array.from({ length: 300 }, (_, i) => Number(y.data[i * 5 + l])),
  });
  for (let l = 0; l < 5; l++) close(out.labels[l].smooth_ece, smoothEce(col(l).p, col(l).y).value, 1e-15, `smooth ece ${l}`);
  // The same predictions as probabilities give the same metrics (NLL within float64 rounding of σ).
  const probs = Float64Array.from(z.data as Float64Array, (v) => sigmoid(v));
  await writeNpy(p('probs.npy'), probs, [300, 5]);
  const fromProbs = JSON.parse(await ok(['eval', '--multilabel', '--probs', p('probs.npy'), '--labels', fixture('labels.npy'), '--json']));
  checkValues(fromProbs.macro, reference.macro, 'macro from probabilities');
  // The table.
  const table = await ok(['eval', '--multilabel', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy')]);
  assert.match(table, /300 samples × 5 labels/);
  assert.match(table, /weighted/);
});

test('calib fit --multilabel --method platt: one JSON, Platt parameters of scikit-learn _sigmoid_calibration; calib apply per label', async () => {
  const out = await ok(['fit', '--multilabel', '--method', 'platt', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--out', p('platt.json')]);
  assert.match(out, /fitted platt on each of 5 labels/);
  const json = JSON.parse(readFileSync(p('platt.json'), 'utf8'));
  assert.equal(json.kind, 'multilabel');
  assert.equal(json.calibrators.length, 5);
  json.calibrators.forEach((c: { a: number; b: number }, l: number) => {
    close(c.a, reference.platt[l]!.a, 1e-4 * Math.max(1, Math.abs(c.a)), `a of label ${l}`);
    close(c.b, reference.platt[l]!.b, 1e-4 * Math.max(1, Math.abs(c.b)), `b of label ${l}`);
  });
  await ok(['apply', '--calibrator', p('platt.json'), '--logits', fixture('logits.npy'), '--out', p('calibrated.npy'), '--dtype', 'float64']);
  const q = await readNpy(p('calibrated.npy'));
  const z = await readNpy(fixture('logits.npy'));
  assert.deepEqual(q.shape, [300, 5]);
  for (let i = 0; i < 300; i++)
    for (let l = 0; l < 5; l++) {
      const { a, b } = json.calibrators[l];
      close(Number(q.data[i * 5 + l]), sigmoid(a * Number(z.data[i * 5 + l]) + b), 1e-12, `q[${i}, ${l}]`);
    }
  // Recalibration lowers every label's NLL on the fitting data.
  const before = JSON.parse(await ok(['eval', '--multilabel', '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--json']));
  const after = JSON.parse(await ok(['eval', '--multilabel', '--probs', p('calibrated.npy'), '--labels', fixture('labels.npy'), '--json']));
  for (let l = 0; l < 5; l++) assert.ok(after.labels[l].nll <= before.labels[l].nll + 1e-12, `label ${l}`);
});

test('other per-label methods: temperature and isotonic, from logits and from probabilities', async () => {
  for (const method of ['temperature', 'isotonic']) {
    await ok(['fit', '--multilabel', '--method', method, '--logits', fixture('logits.npy'), '--labels', fixture('labels.npy'), '--out', p(`${method}.json`)]);
    await ok(['apply', '--calibrator', p(`${method}.json`), '--logits', fixture('logits.npy'), '--out', p(`${method}.csv`)]);
    const rows = readFileSync(p(`${method}.csv`), 'utf8')
      .trim()
      .split('\n');
    assert.equal(rows.length, 300);
    for (const row of rows) for (const v of row.split(',').map(Number)) assert.ok(v >= 0 && v <= 1, `${method}: ${v}`);
  }
  writeFileSync(p('small-probs.csv'), '0.9,0.1\n0.2,0.7\n0.6,0.4\n0.3,0.8\n');
  writeFileSync(p('small-labels.csv'), '1,0\n0,1\n1,1\n0,0\n');
  await ok(['fit', '--multilabel', '--method', 'histogram', '--probs', p('small-probs.csv'), '--labels', p('small-labels.csv'), '--out', p('hist.json'), '--opt', 'bins=2']);
  await ok(['apply', '--calibrator', p('hist.json'), '--probs', p('small-probs.csv'), '--out', p('hist-out.json')]);
});
