import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../io/temp-dir.js';
import { REAL_PREDICTIONS, sharedDataOrSkip } from '../real-predictions/shared-data.js';
import { run } from './capture.js';

const REFERENCE = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/fixtures/metrics/clinical-reference.json', import.meta.url)), 'utf8'));
const dir = tempDir('cli-eval-clinical');
const SOLAR = `${REAL_PREDICTIONS}solar-flares/`;
const KEYS = ['calibration_slope', 'calibration_intercept', 'hosmer_lemeshow_p', 'ici', 'e50', 'e90', 'skce', 'skce_p'];

async function json(argv: string[]): Promise<Record<string, number>> {
  const r = await run(argv);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, number>;
}

test('calib eval --clinical --json gives the issue #26 keys for --positive-probs and for two-column --probs (same numbers)', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const ref = REFERENCE.solar_flares.NOAA;
  const binary = await json(['eval', '--positive-probs', `${SOLAR}NOAA-probs.npy`, '--labels', `${SOLAR}outcomes.npy`, '--clinical', '--skce-resamples', '200', '--json']);
  for (const key of KEYS) assert.equal(typeof binary[key], 'number', key);
  for (const key of ['calibration_slope', 'calibration_intercept', 'hosmer_lemeshow_p', 'ici', 'e50', 'e90', 'skce'])
    assert.ok(Math.abs(binary[key]! - ref[key]) <= 1e-6 * Math.abs(ref[key]) + 1e-12, `${key}: ${binary[key]} vs ${ref[key]}`);
  assert.equal(binary.hosmer_lemeshow_df, 8);
  const twoColumn = await json(['eval', '--probs', `${SOLAR}NOAA-probs-2class.npy`, '--labels', `${SOLAR}outcomes.npy`, '--clinical', '--skce-resamples', '200', '--json']);
  for (const key of KEYS) assert.equal(twoColumn[key], binary[key], key);
  const table = await run(['eval', '--positive-probs', `${SOLAR}NOAA-probs.npy`, '--labels', `${SOLAR}outcomes.npy`, '--clinical', '--skce-resamples', '50']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /calibration slope: +1\.1547 +95% Wald CI \[0\.9590, 1\.3504\]/);
  assert.match(table.stdout, /Hosmer–Lemeshow: Ĉ = 17\.712, df = 8/);
});

test('calib eval --clinical on top-label inputs uses the confidence against correctness', async () => {
  const n = 40;
  const confidence = Array.from({ length: n }, (_, i) => 0.5 + (i % 10) / 20);
  const correct: number[] = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1));
  writeFileSync(join(dir, 'top.csv'), 'conf,ok\n' + confidence.map((c, i) => `${c},${correct[i]}`).join('\n') + '\n');
  const out = await json(['eval', '--confidence', join(dir, 'top.csv'), '--columns', 'confidence=conf,correct=ok', '--clinical', '--skce-resamples', '0', '--json']);
  for (const key of KEYS) assert.ok(key in out, key);
  const mean = confidence.reduce((a, b) => a + b, 0) / n;
  const accuracy = correct.reduce((a, b) => a + b, 0) / n;
  assert.ok(Math.abs(out.calibration_in_the_large! - (accuracy - mean)) < 1e-12);
  assert.equal(out.skce_p, null);
});

test('calib eval --clinical refuses bad input with one line naming the argument', async () => {
  writeFileSync(join(dir, 'p5.csv'), '0.1\n0.2\n0.3\n0.4\n0.5\n');
  writeFileSync(join(dir, 'y5.csv'), '0\n1\n0\n1\n1\n');
  writeFileSync(join(dir, 'y5bad.csv'), '0\n1\n2\n1\n1\n');
  const few = await run(['eval', '--positive-probs', join(dir, 'p5.csv'), '--labels', join(dir, 'y5.csv'), '--clinical']);
  assert.equal(few.code, 2);
  assert.match(few.stderr, /^calib: error: --positive-probs: expected at least 10 rows for the clinical statistics, got 5\n$/);
  const nonBinary = await run(['eval', '--positive-probs', join(dir, 'p5.csv'), '--labels', join(dir, 'y5bad.csv'), '--clinical']);
  assert.equal(nonBinary.code, 2);
  assert.match(nonBinary.stderr, /^calib: error: --labels: .*\n$/);
  const groups = await run(['eval', '--positive-probs', join(dir, 'p5.csv'), '--labels', join(dir, 'y5.csv'), '--clinical', '--hl-groups', '2']);
  assert.equal(groups.code, 2);
  assert.match(groups.stderr, /--hl-groups: expected an integer ≥ 3, got 2/);
  const span = await run(['eval', '--positive-probs', join(dir, 'p5.csv'), '--labels', join(dir, 'y5.csv'), '--clinical', '--loess-span', '0']);
  assert.equal(span.code, 2);
  assert.match(span.stderr, /--loess-span: expected a finite number > 0/);
  const weighted = await run(['eval', '--positive-probs', join(dir, 'p5.csv'), '--labels', join(dir, 'y5.csv'), '--weights', join(dir, 'y5.csv'), '--clinical']);
  assert.equal(weighted.code, 2);
  assert.match(weighted.stderr, /--clinical applies to unweighted/);
  for (const r of [few, nonBinary, groups, span, weighted]) assert.doesNotMatch(r.stderr, /at .*\.js/);
});
