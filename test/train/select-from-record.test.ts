import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/index.js';
import { DIRECTIONAL_METRIC_NAMES } from '../../src/metrics/record/metric-display.js';
import { METRIC_NAMES, metricDefinition } from '../../src/metrics/record/metric-registry.js';
import { BestEpoch, SELECTION_METRICS, type ValidationScores } from '../../src/train/run/best-epoch.js';
import { validationScores } from '../../src/train/evaluation/predict.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { matrix } from '../../src/util/matrix.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';

/**
 * `calib train --select` (issue 27 item 2): any metric of the record with a better direction is a best-epoch
 * criterion, its direction read from the record; metrics without one (and unknown names) are refused with the list.
 */

const dir = tempDir('select-from-record');

test('the criteria are the named ones plus every directional metric of the record; none-direction metrics are not', () => {
  assert.deepEqual(SELECTION_METRICS.slice(0, 6), ['accuracy', 'nll', 'ece', 'adaece', 'refinement', 'last']);
  for (const k of DIRECTIONAL_METRIC_NAMES) assert.ok(SELECTION_METRICS.includes(k), k);
  for (const k of METRIC_NAMES.filter((k) => metricDefinition(k).better === 'none')) assert.ok(!SELECTION_METRICS.includes(k), k);
  assert.equal(new Set(SELECTION_METRICS).size, SELECTION_METRICS.length, 'no criterion twice');
});

test('BestEpoch reads a record metric from the validation scores in its declared direction', () => {
  const scores = (brier: number, cov: number): ValidationScores => ({
    accuracy: 0.5,
    nll: 1,
    ece: 0.1,
    adaece: 0.1,
    refinement: 1,
    metrics: { brier, cov_at_5risk: cov } as ValidationScores['metrics'],
  });
  const brier = new BestEpoch('brier');
  assert.equal(brier.maximize, false);
  assert.equal(brier.consider(0, scores(0.4, 0.1)), true);
  assert.equal(brier.consider(1, scores(0.3, 0.0)), true);
  assert.equal(brier.consider(2, scores(0.35, 0.9)), false);
  assert.deepEqual(brier.best, { metric: 'brier', epoch: 1, value: 0.3 });
  const cov = new BestEpoch('cov_at_5risk');
  assert.equal(cov.maximize, true);
  cov.consider(0, scores(0.4, 0.1));
  assert.equal(cov.consider(1, scores(0.3, 0.0)), false);
  assert.equal(cov.consider(2, scores(0.9, 0.5)), true);
  assert.equal(cov.best.epoch, 2);
  assert.throws(() => new BestEpoch('mean_confidence' as never), /^InvalidArgumentError: metric: expected one of accuracy, nll, .*, got "mean_confidence"$/);
});

test('validationScores carries every metric of the record, equal to evaluate on the same logits', () => {
  const logits = Float32Array.from({ length: 40 * 3 }, (_, i) => Math.sin(i * 1.7) * 3);
  const labels = Int32Array.from({ length: 40 }, (_, i) => (i * 7) % 3);
  const s = validationScores(logits, labels, 3, 5);
  const m = evaluate(matrix(40, 3, logits), labels, { input: 'logits', bins: 5, refinementCalibrator: 'temperature' });
  assert.deepEqual(Object.keys(s.metrics), [...METRIC_NAMES]);
  for (const k of METRIC_NAMES) assert.ok(Object.is(s.metrics[k], m[k]), k);
});

test('a bad --select is refused at parsing with the valid names and a hint; a config file is checked likewise', async () => {
  const r = await run(['train', '--dataset', 'mnist', '--select', 'breir', '--out', join(dir, 'bad')]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^calib: error: --select: expected one of 'accuracy', 'nll', 'ece', 'adaece', 'refinement', 'last', .*'brier'.*'cov_at_5risk'.* \(did you mean [^)]*brier[^)]*\), got "breir"\n$/,
  );
  const none = await run(['train', '--dataset', 'mnist', '--select', 'mean_confidence', '--out', join(dir, 'bad2')]);
  assert.equal(none.code, 2, none.stderr);
  assert.match(none.stderr, /^calib: error: --select: expected one of .*, got "mean_confidence"/);
  assert.throws(() => resolveTrainConfig({ dataset: 'mnist', select: 'mean_confidence', out: 'x' }), /select: expected one of 'accuracy', .*got "mean_confidence"/);
});

test("select: 'brier' keeps the epoch of lowest validation Brier score (recomputed from each epoch's validation logits)", async () => {
  const out = join(dir, 'run');
  const config = resolveTrainConfig({
    dataset: 'mnist',
    subset: 200,
    testSubset: 50,
    validation: 60,
    modelOptions: { hidden: [8] },
    epochs: 4,
    batch: 50,
    lr: 0.5,
    select: 'brier',
    epochLogits: true,
    out,
  });
  await train(config);
  const labels = Int32Array.from((await readNpy(join(out, 'val-labels.npy'))).data as ArrayLike<number>);
  const briers: number[] = [];
  for (let e = 1; e <= 4; e++) {
    const logits = await readNpy(join(out, 'epoch-logits', `val-00${e}.npy`));
    briers.push(evaluate(matrix(60, 10, logits.data as Float32Array), labels, { input: 'logits' }).brier);
  }
  const argmin = briers.indexOf(Math.min(...briers));
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { best_epoch: number; select: string };
  assert.equal(summary.select, 'brier');
  assert.equal(summary.best_epoch, argmin + 1, `briers ${briers.join(', ')}`);
});
