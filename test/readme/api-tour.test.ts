/**
 * The library examples of README.md § "Library API", run as tests so the front door stays true.
 * Keep this file and the README in step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { metrics, posthoc, data, report } from '../../src/index.js';
import { LOSSES } from '../../src/losses/index.js';
import { createModel } from '../../src/nn/index.js';
import { sgd } from '../../src/optim/index.js';
import { compileTrainStep, createTrainState, saveOnnx, type LossFn } from '../../src/train/index.js';

test('README: measure, recalibrate and plot predictions from any framework', async () => {
  // Predictions from anywhere: logits N × C (row-major) and integer labels.
  const val = data.syntheticOverconfident({ n: 4000, classes: 10, seed: 1, overconfidence: 3 });
  const testSet = data.syntheticOverconfident({ n: 4000, classes: 10, seed: 2, overconfidence: 3 });
  const logits = { rows: testSet.n, cols: testSet.classes, data: testSet.logits };

  const before = metrics.evaluate(logits, testSet.labels, { input: 'logits', bins: 15 });
  const ts = posthoc.fitCalibrator('temperature', { logits: { rows: val.n, cols: val.classes, data: val.logits } }, val.labels);
  const probs = ts.apply({ logits }); // calibrated probabilities, N × C
  const after = metrics.evaluate(probs, testSet.labels, { input: 'probabilities', bins: 15 });
  const saved = JSON.stringify(ts.toJSON()); // { kind: 'temperature', temperature: …, … }
  const again = posthoc.calibratorFromJSON(JSON.parse(saved));

  const acc = new metrics.CalibrationAccumulator({ input: 'probabilities', bins: 15 });
  acc.update(probs, testSet.labels); // stream chunk by chunk; merge() across workers
  const dir = mkdtempSync(join(tmpdir(), 'calib-readme-'));
  await report.writeFigure(join(dir, 'reliability.svg'), report.calibrationFigureSvg(acc.reliability(), { title: 'After TS' }));
  const rows = [
    { name: 'CE', metrics: { accuracy: before.accuracy, ece: before.ece } },
    { name: 'TS', metrics: { accuracy: after.accuracy, ece: after.ece }, reliability: acc.reliability() },
  ];
  await report.writeReport(join(dir, 'compare.md'), rows, { title: 'Before and after TS' }); // .md, .html or .json (the data)
  const doc = report.comparisonDocument(rows, { title: 'Before and after TS' }); // headings, tables, figures
  const html = report.renderHtml(doc); // or renderMarkdown, renderJson

  assert.ok(before.ece > 0.1 && after.ece < 0.03, `ECE ${before.ece} → ${after.ece}`);
  assert.ok(Math.abs(Number(ts.toJSON().temperature) - 3) < 0.2);
  assert.deepEqual(again.apply({ logits }).data, probs.data);
  assert.ok(existsSync(join(dir, 'reliability.svg')));
  assert.ok(existsSync(join(dir, 'compare.md')) && existsSync(join(dir, 'compare-figures', 'ts.svg')));
  assert.match(html, /<td><b>[0-9.]+<\/b><\/td>/);
});

test('README: a loss on engine tensors, compiled into a one-graph train step, exported to ONNX', async () => {
  const model = createModel({ kind: 'mlp', inputShape: [784], hidden: [64], numClasses: 10 });
  const lossFn: LossFn = (logits, labels) => LOSSES.mbls.apply(logits, labels, { margin: 6 });
  const optimizer = sgd({ momentum: 0.9, weightDecay: 5e-4 });
  const step = compileTrainStep(model, lossFn, optimizer, { batch: 32 });
  const state = createTrainState(model, optimizer, /* seed */ 0);

  const { train } = await data.loadMnist(); // the embedded real digits
  const x = train.images.subarray(0, 32 * 784);
  const y = train.labels.subarray(0, 32);
  const first = step.run(state, { x, y }, /* lr */ 0.05); // { loss, terms: { ce, margin } }
  let last = first;
  for (let i = 0; i < 20; i++) last = step.run(state, { x, y }, 0.05);
  const dir = mkdtempSync(join(tmpdir(), 'calib-readme-'));
  await saveOnnx(join(dir, 'model.onnx'), model, state);

  assert.ok(Object.keys(first.terms).length >= 2, JSON.stringify(first.terms));
  assert.ok(last.loss < first.loss, `${first.loss} → ${last.loss}`);
  assert.ok(existsSync(join(dir, 'model.onnx')));
});
