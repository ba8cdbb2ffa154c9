/**
 * Hardness of `calib fit --weights/--class-weight/--cv/--method auto` and `calib compare` (issue 25 items 2–4): bad
 * weights, a method without a weighted form, bad K, flags that need another flag — each one stderr line, exit 2,
 * no stack trace; and the working paths end to end (JSON record, apply, compare --json).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { writeNpy } from '../../src/io/npy.js';
import { tempDir } from '../io/temp-dir.js';
import { run, withoutProgress } from './capture.js';

const dir = tempDir('hardness-posthoc-fit');
const p = (name: string): string => join(dir, name);
const N = 120;
const set = syntheticOverconfident({ n: N, classes: 3, seed: 4, overconfidence: 3 });
const ready = (async () => {
  await writeNpy(p('logits.npy'), Float32Array.from(set.logits), [N, 3]);
  await writeNpy(p('labels.npy'), set.labels, [N]);
  writeFileSync(p('ones.json'), JSON.stringify(Array(N).fill(1)));
  writeFileSync(p('negative.json'), JSON.stringify([...Array(N - 1).fill(1), -2]));
  writeFileSync(p('zeros.json'), JSON.stringify(Array(N).fill(0)));
  writeFileSync(p('short.json'), JSON.stringify(Array(N - 1).fill(1)));
  writeFileSync(
    p('nan.csv'),
    `${Array(N - 1)
      .fill('1')
      .join('\n')}\nnan\n`,
  );
})();

const base = ['--logits', p('logits.npy'), '--labels', p('labels.npy')];

async function refused(argv: string[], pattern: RegExp): Promise<void> {
  await ready;
  const r = await run(argv);
  assert.equal(r.code, 2, `${argv.join(' ')} -> ${r.code}: ${r.stderr}`);
  assert.equal(r.stdout, '', argv.join(' '));
  const err = withoutProgress(r.stderr);
  assert.equal(err.trim().split('\n').length, 1, err);
  assert.doesNotMatch(err, /internal error|\n\s+at /);
  assert.match(err, pattern);
}

test('bad --weights: negative, NaN, all zero, wrong length', async () => {
  await refused(['fit', '--method', 'temperature', ...base, '--weights', p('negative.json'), '--out', p('a.json')], /--weights\[119\]: expected a finite weight ≥ 0, got -2/);
  await refused(['fit', '--method', 'temperature', ...base, '--weights', p('nan.csv'), '--out', p('a.json')], /--weights/);
  await refused(['fit', '--method', 'temperature', ...base, '--weights', p('zeros.json'), '--out', p('a.json')], /--weights: expected weights that are not all zero, got all zero/);
  await refused(['fit', '--method', 'temperature', ...base, '--weights', p('short.json'), '--out', p('a.json')], /--weights: expected 120 weights, one per row of --logits/);
});

test('a method that cannot take weights is refused naming --weights / --class-weight, the method and why', async () => {
  await refused(
    ['fit', '--method', 'bbq', ...base, '--weights', p('ones.json'), '--out', p('a.json')],
    /--weights: expected a method whose fit takes sample weights \(.*\), got --method bbq: its binnings are scored by BIC/,
  );
  await refused(['fit', '--method', 'spline', ...base, '--class-weight', 'balanced', '--out', p('a.json')], /--class-weight: expected a method whose fit takes sample weights .*got --method spline/);
  await refused(
    ['fit', '--method', 'vector', ...base, '--class-weight', 'balanced', '--weights', p('ones.json'), '--out', p('a.json')],
    /--class-weight: expected either --weights FILE or --class-weight balanced, not both/,
  );
  await refused(['fit', '--method', 'vector', ...base, '--class-weight', 'uniform', '--out', p('a.json')], /--class-weight: expected one of 'balanced'/);
});

test('bad --cv: K < 2, K > N, K above a class count; --cv-ensemble / --cv-seed without --cv; --metric without auto', async () => {
  await refused(['fit', '--method', 'temperature', ...base, '--cv', '1', '--out', p('a.json')], /--cv: expected an integer K ≥ 2 \(folds\), got 1/);
  await refused(['fit', '--method', 'temperature', ...base, '--cv', '500', '--out', p('a.json')], /--cv: expected at most 120 folds/);
  const counts = [0, 1, 2].map((k) => set.labels.filter((y) => y === k).length);
  const least = Math.min(...counts);
  await refused(
    ['fit', '--method', 'temperature', ...base, '--cv', String(least + 1), '--out', p('a.json')],
    new RegExp(`--cv: expected at most ${least} folds \\(class \\d has ${least} validation rows`),
  );
  await refused(['fit', '--method', 'temperature', ...base, '--cv-ensemble', '--out', p('a.json')], /--cv-ensemble: expected a --cv K fit/);
  await refused(['fit', '--method', 'temperature', ...base, '--metric', 'ece', '--out', p('a.json')], /--metric: expected only with --method auto/);
  await refused(['fit', '--method', 'auto', ...base, '--candidates', 'temperature,nonsense', '--out', p('a.json')], /--candidates: expected method names among .*got "nonsense"/);
  await refused(
    ['fit', '--method', 'auto', ...base, '--candidates', 'platt', '--out', p('a.json')],
    /--candidates: expected methods applicable to these predictions, got platt: binary only \(3 classes\)/,
  );
  await refused(['compare', ...base, '--cv', '1'], /--cv: expected an integer K ≥ 2/);
});

test('weighted, out-of-fold and automatic fits end to end: the JSON record, calib apply, calib compare --json', async () => {
  await ready;
  let r = await run(['fit', '--method', 'vector', ...base, '--class-weight', 'balanced', '--cv', '3', '--out', p('v.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^out of fold \(3 stratified folds, seed 0\): NLL \d\.\d{4}, ECE [\d.]+%, Brier \d\.\d{4}; saved: refitted on all rows\n/);
  assert.match(r.stdout, /fitted vector with class-balanced weights \(sum 120\)/);
  const json = JSON.parse(readFileSync(p('v.json'), 'utf8'));
  assert.equal(json.fit.weights.kind, 'balanced');
  assert.equal(json.fit.cv.folds, 3);
  r = await run(['apply', '--calibrator', p('v.json'), '--logits', p('logits.npy'), '--out', p('v-out.npy')]);
  assert.equal(r.code, 0, r.stderr);

  r = await run(['fit', '--method', 'histogram', ...base, '--cv', '3', '--cv-ensemble', '--out', p('h.json')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /saved: the mean of the 3 fold calibrators/);
  r = await run(['apply', '--calibrator', p('h.json'), '--logits', p('logits.npy'), '--out', p('h-out.npy')]);
  assert.equal(r.code, 0, r.stderr);

  r = await run(['fit', '--method', 'auto', ...base, '--candidates', 'temperature,vector,histogram', '--cv', '3', '--json', '--out', p('auto.json')]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(['temperature', 'vector', 'histogram'].includes(out.chosen));
  assert.equal(out.selection.ranking.length, 3);
  const saved = JSON.parse(readFileSync(p('auto.json'), 'utf8'));
  assert.equal(saved.kind, out.chosen);
  assert.equal(saved.fit.selection.chosen, out.chosen);

  r = await run(['compare', ...base, '--cv', '3', '--candidates', 'temperature,vector', '--resamples', '50', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  assert.equal(cmp.ranking.length, 2);
  assert.ok(cmp.reason.length > 0);
});
