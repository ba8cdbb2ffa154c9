/**
 * What segmentation gained by running through the one trainer (trainer.ts + segmentation-task.ts): mid-epoch
 * checkpoints with exact resume, `--calibrate` (per-pixel temperature scaling on the labelled validation pixels, the
 * suite's post-hoc fit, exported per pixel in model-calibrated.onnx) and data-parallel replicas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadCheckpoint } from '../../src/train/artefacts/checkpoint.js';
import { calibratorFromJSON } from '../../src/posthoc/index.js';
import { runPosthoc } from '../../src/suite/posthoc-step.js';
import { loadSegmentationData } from '../../src/train/tasks/segmentation-task.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { run } from '../cli/capture.js';
import { runModel } from '../deploy/runtimes.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('seg-trainer');
// 100 training images in batches of 25: 4 updates per epoch.
const settings = { dataset: 'mnist-seg', model: 'seg-net', modelOptions: { width: 4 }, subset: 120, validation: 20, testSubset: 30, epochs: 2, batch: 25, lr: 0.05, select: 'nll', threads: 2 };

test("a segmentation run killed within an epoch resumes from its mid-epoch checkpoint with the uninterrupted run's numbers", async () => {
  const whole = await train(resolveTrainConfig({ ...settings, out: join(dir, 'whole') }));
  const out = join(dir, 'killed');
  // Checkpoints every 3 updates; the run dies at update 8 (epoch 2, step 4), after the one at epoch 2, step 3.
  const die = (info: { steps: number }): void => {
    if (info.steps === 8) throw new Error('killed');
  };
  await assert.rejects(train(resolveTrainConfig({ ...settings, out }), { checkpointEvery: { steps: 3 }, onStep: die }), /killed/);
  const ckpt = await loadCheckpoint(join(out, 'checkpoint-last.ckpt'));
  const meta = ckpt.header.metadata as { epoch: number; partial?: { totals: { steps: number } } };
  assert.equal(meta.epoch, 1);
  assert.equal(meta.partial?.totals.steps, 3, 'the mid-epoch checkpoint of epoch 2, step 3');
  const resumed = await run(['train', '--resume', out, '--progress', 'none']);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, any>;
  assert.equal(summary['task'], 'segmentation');
  assert.deepEqual(summary['test'], JSON.parse(JSON.stringify(whole.segmentation!.test)));
  assert.deepEqual(readFileSync(join(out, 'test-logits.npy')), readFileSync(join(dir, 'whole', 'test-logits.npy')), 'the same logits, bit for bit');
  const log = (await readFile(join(out, 'log.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { val_nll: number; train_loss: number; steps: number });
  assert.deepEqual(
    log.map((r) => [r.steps, r.val_nll, r.train_loss]),
    whole.records.map((r) => [r.steps, r.val_nll, r.train_loss]),
  );
});

test("calib train --calibrate temperature on a segmentation run: the suite's per-pixel fit, exported per pixel", async () => {
  const out = join(dir, 'calibrated');
  const r = await run([
    'train',
    '--dataset',
    'mnist-seg',
    '--model',
    'seg-net',
    '--model-opt',
    'width=4',
    '--subset',
    '120',
    '--validation',
    '20',
    '--test-subset',
    '30',
    '--epochs',
    '1',
    '--batch',
    '25',
    '--lr',
    '0.05',
    '--progress',
    'none',
    '--calibrate',
    'temperature',
    '--out',
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const m = /calibrated: temperature T = \S+ on (\d+) validation pixels -> .*model-calibrated\.onnx \(outputs logits, calibrated_probabilities, calibrated_logits\)/.exec(r.stdout);
  assert.ok(m, r.stdout);
  const calibrator = calibratorFromJSON(JSON.parse(readFileSync(join(out, 'calibrator.json'), 'utf8')));
  const T = calibrator.toJSON().temperature as number;
  // The suite's post-hoc step fits the same temperature on the same labelled validation pixels.
  const posthoc = await runPosthoc(out, ['temperature'], 15);
  assert.equal(posthoc.calibrators['temperature']!.calibrator['temperature'], T);
  assert.ok(Number(m[1]) > 0 && Number(m[1]) < 20 * 28 * 28, 'the labelled pixels of the 20 validation images');
  // The export: at every pixel, calibrated_probabilities = softmax(logits / T) of that pixel's 11 logits.
  const data = await loadSegmentationData(resolveTrainConfig({ ...settings, epochs: 1, out }));
  const n = 5;
  const x = (data.test as { images: Float32Array }).images.slice(0, n * 784);
  const result = await runModel('onnxruntime-node', new Uint8Array(readFileSync(join(out, 'model-calibrated.onnx'))), 'input', x, [n, 1, 28, 28]);
  const z = result['logits']!.data;
  const p = result['calibrated_probabilities']!.data;
  assert.equal(p.length, n * 11 * 784);
  let worst = 0;
  let rowSum = 0;
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < 784; s++) {
      const at = (c: number): number => i * 11 * 784 + c * 784 + s;
      let max = -Infinity;
      for (let c = 0; c < 11; c++) max = Math.max(max, z[at(c)]! / T);
      let sum = 0;
      for (let c = 0; c < 11; c++) sum += Math.exp(z[at(c)]! / T - max);
      let total = 0;
      for (let c = 0; c < 11; c++) {
        worst = Math.max(worst, Math.abs(p[at(c)]! - Math.exp(z[at(c)]! / T - max) / sum));
        total += p[at(c)]!;
      }
      rowSum = Math.max(rowSum, Math.abs(total - 1));
    }
  }
  assert.ok(worst <= 1e-6, `max |Δp| ${worst}`);
  assert.ok(rowSum <= 1e-5, `max |Σ_c p − 1| ${rowSum}`);
  assert.ok(Math.abs(T - 1) > 1e-3, `a fitted temperature (T = ${T}) moves the probabilities`);
});

test('a segmentation run with two data-parallel replicas trains like one replica (pixel means per shard, as DistributedDataParallel)', async () => {
  const one = await train(resolveTrainConfig({ ...settings, epochs: 1, out: join(dir, 'r1') }));
  const two = await train(resolveTrainConfig({ ...settings, epochs: 1, replicas: 2, out: join(dir, 'r2') }));
  assert.equal(two.status, 'completed');
  const a = one.records[0]!;
  const b = two.records[0]!;
  // Each shard's loss is its own mean over labelled pixels (the shards' pixel counts differ), so the updates are close, not equal.
  assert.notEqual(a.train_loss, b.train_loss);
  assert.ok(Math.abs(a.train_loss - b.train_loss) / a.train_loss < 0.02, `train loss ${a.train_loss} vs ${b.train_loss}`);
  assert.ok(Math.abs(a.val_nll - b.val_nll) / a.val_nll < 0.05, `validation NLL ${a.val_nll} vs ${b.val_nll}`);
  assert.ok(Number.isFinite(two.segmentation!.test.ece) && Number.isFinite(two.segmentation!.test.miou));
});

test('segmentation still refuses MC dropout, augmentation and the other settings it does not implement, before any directory is written', async () => {
  const base = ['train', '--dataset', 'mnist-seg', '--model', 'seg-net', '--subset', '100', '--epochs', '1', '--progress', 'none'];
  const mc = await run([...base, '--mc-dropout', '4', '--out', join(dir, 'y1')]);
  assert.equal(mc.code, 2);
  assert.match(mc.stderr, /^calib: error: config\.mcDropout: expected /);
  const aug = await run([...base, '--augment', 'crop', '--out', join(dir, 'y2')]);
  assert.equal(aug.code, 2);
  assert.match(aug.stderr, /config\.augment: expected its default for a segmentation dataset \(no dense augmentation/);
});
