import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateOptIn, topLabel } from '../../src/metrics/index.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-metrics-flag');

/** 60 rows of 3-class probabilities (as CSV) and their labels; deterministic. */
function writeInputs(): { probs: string; labels: string; rows: number[][]; y: number[] } {
  const rows: number[][] = [];
  const y: number[] = [];
  for (let i = 0; i < 60; i++) {
    const a = 1 + (i % 7);
    const b = 1 + ((i * 3) % 5);
    const c = 1 + ((i * 5) % 4);
    const s = a + b + c;
    rows.push([a / s, b / s, c / s]);
    y.push(i % 4 === 0 ? 2 : i % 3 === 0 ? 1 : 0);
  }
  const probs = join(dir, 'probs.csv');
  const labels = join(dir, 'labels.csv');
  writeFileSync(probs, rows.map((r) => r.join(',')).join('\n') + '\n');
  writeFileSync(labels, y.join('\n') + '\n');
  return { probs, labels, rows, y };
}

test('calib eval --metrics prr,auarc,... prints the opt-in entries and gives them in --json (equal to the API)', async () => {
  const { probs, labels, rows, y } = writeInputs();
  const names = ['prr', 'auarc', 'calibration_slope_error', 'ici', 'hosmer_lemeshow_p'] as const;
  const table = await run(['eval', '--probs', probs, '--labels', labels, '--metrics', names.join(',')]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /opt-in metrics of the top label \(--metrics\):\n {2}PRR +-?\d\.\d{4}\n {2}AUARC \(%\) +\d+\.\d{2}\n/);
  assert.match(table.stdout, /\|Calibration slope − 1\| +\d\.\d{4}/);
  const json = await run(['eval', '--probs', probs, '--labels', labels, '--metrics', `${names.join(',')},ece`, '--json']);
  assert.equal(json.code, 0, json.stderr);
  const out = JSON.parse(json.stdout) as Record<string, number>;
  const matrix = { rows: 60, cols: 3, data: Float64Array.from(rows.flat()) };
  const top = topLabel(matrix, Int32Array.from(y), 'probabilities');
  const expected = evaluateOptIn(top.confidence, top.correct, names);
  for (const name of names) assert.equal(out[name], expected[name], name);
  // Without --metrics the keys are absent (the default list is unchanged).
  const plain = JSON.parse((await run(['eval', '--probs', probs, '--labels', labels, '--json'])).stdout) as Record<string, number>;
  for (const name of names) assert.ok(!(name in plain), name);
});

test('calib eval --metrics on --confidence top-label inputs and on --positive-probs', async () => {
  const conf = join(dir, 'conf.csv');
  const pred = join(dir, 'pred.csv');
  const gold = join(dir, 'gold.csv');
  const c = Array.from({ length: 30 }, (_, i) => 0.4 + (i % 6) / 10);
  writeFileSync(conf, c.join('\n') + '\n');
  writeFileSync(pred, c.map(() => 1).join('\n') + '\n');
  writeFileSync(gold, c.map((_, i) => (i % 3 === 0 ? 0 : 1)).join('\n') + '\n');
  const r = await run(['eval', '--confidence', conf, '--predicted', pred, '--labels', gold, '--metrics', 'auarc,e90', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, number>;
  const expected = evaluateOptIn(
    Float64Array.from(c),
    Uint8Array.from(c, (_, i) => (i % 3 === 0 ? 0 : 1)),
    ['auarc', 'e90'],
  );
  assert.equal(out['auarc'], expected.auarc);
  assert.equal(out['e90'], expected.e90);
  const binary = await run(['eval', '--positive-probs', conf, '--labels', gold, '--metrics', 'prr']);
  assert.equal(binary.code, 0, binary.stderr);
  assert.match(binary.stdout, /PRR +-?\d\.\d{4}/);
});

test('calib eval --metrics: unknown names refused with the list; not with --weights', async () => {
  const { probs, labels } = writeInputs();
  const bad = await run(['eval', '--probs', probs, '--labels', labels, '--metrics', 'prr,ece_typo']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^calib: error: --metrics: expected opt-in metric names among prr, auarc, calibration_in_the_large, .*skce_p, got "ece_typo"\n$/);
  const weights = join(dir, 'weights.csv');
  writeFileSync(weights, Array.from({ length: 60 }, () => 1).join('\n') + '\n');
  const weighted = await run(['eval', '--probs', probs, '--labels', labels, '--weights', weights, '--metrics', 'prr']);
  assert.equal(weighted.code, 2);
  assert.match(weighted.stderr, /--metrics prr applies to unweighted .* not with --weights/);
});
