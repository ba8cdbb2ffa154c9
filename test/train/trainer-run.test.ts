import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { readNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { matrix } from '../../src/util/matrix.js';
import { loadCheckpoint } from '../../src/train/artefacts/checkpoint.js';
import { EvalStep } from '../../src/train/steps/compile-eval-step.js';
import { predictLogits } from '../../src/train/evaluation/predict.js';
import { readLog } from '../../src/train/artefacts/train-log.js';
import { resolveTrainConfig, type TrainConfig } from '../../src/train/train-config.js';
import { resumeTraining, train, type TrainResult } from '../../src/train/run/trainer.js';
import { loadRunData, type RunData } from '../../src/train/run/trainer-data.js';
import { createRunModel } from '../../src/train/run/trainer-model.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { availableParallelism } from 'node:os';

const dir = tempDir('trainer-run');

// A tiny MNIST run: 600 training samples (540 train + 60 validation), 200 test samples, MLP 784-32-10, 2 epochs.
const base = resolveTrainConfig({
  dataset: 'mnist',
  subset: 600,
  testSubset: 200,
  modelOptions: { hidden: [32] },
  epochs: 2,
  batch: 64,
  evalBatch: 128,
  lr: 0.1,
  out: join(dir, 'a'),
});
const data: RunData = await loadRunData(base);
const at = (name: string, extra: Partial<TrainConfig> = {}): TrainConfig => ({ ...base, ...extra, out: join(dir, name) });

let full: TrainResult | undefined;
async function uninterrupted(): Promise<TrainResult> {
  full ??= await train(at('a'), { data });
  return full;
}

test('the splits are stratified subsets of the requested sizes, disjoint between train and validation', () => {
  assert.equal(data.train.labels.length, 540);
  assert.equal(data.validation.labels.length, 60);
  assert.equal(data.test.labels.length, 200);
  const perClass = new Array<number>(10).fill(0);
  for (const y of data.validation.labels) perClass[y]!++;
  assert.ok(
    perClass.every((c) => c >= 5 && c <= 7),
    `validation classes ${perClass}`,
  );
  const key = (d: RunData['train'], i: number): string => Buffer.from((d as { images: Float32Array }).images.buffer, i * 3136, 3136).toString('base64');
  const trainKeys = new Set(Array.from({ length: 540 }, (_, i) => key(data.train, i)));
  const overlap = Array.from({ length: 60 }, (_, i) => key(data.validation, i)).filter((k) => trainKeys.has(k)).length;
  assert.ok(overlap <= 1, `validation images found in train: ${overlap}`); // MNIST holds a few exact duplicate digits
});

test('a tiny end-to-end run writes every run-directory file, readable by calib eval', async () => {
  const result = await uninterrupted();
  assert.equal(result.status, 'completed');
  const p = result.paths;
  for (const f of [p.config, p.log, p.lastCheckpoint, p.bestCheckpoint, p.valLogits, p.valLabels, p.testLogits, p.testLabels, p.onnx, p.summary]) {
    assert.ok(existsSync(f), `${f} exists`);
  }
  const config = JSON.parse(readFileSync(p.config, 'utf8')) as TrainConfig;
  assert.deepEqual(resolveTrainConfig(config), config, 'config.json is a resolved configuration');

  const log = await readLog(p.log);
  assert.deepEqual(
    log.map((r) => r.epoch),
    [1, 2],
  );
  assert.deepEqual(
    log.map((r) => r.steps),
    [9, 18],
    '540 samples in batches of 64: 9 updates per epoch',
  );
  for (const r of log) {
    for (const k of ['train_loss', 'val_accuracy', 'val_nll', 'val_ece', 'val_adaece', 'lr', 'epoch_time_s', 'samples_per_s']) {
      assert.ok(Number.isFinite(r[k as keyof typeof r]), `${k} = ${String(r[k as keyof typeof r])}`);
    }
    assert.deepEqual(Object.keys(r.train_terms), ['ce']);
    // The epoch's CPU time (this process, every thread): positive, and at most wall time × the cores it could use.
    assert.ok(r.cpu_time_s! > 0 && r.cpu_time_s! <= r.epoch_time_s * (availableParallelism() + 1) + 0.05, `cpu_time_s ${r.cpu_time_s} vs epoch_time_s ${r.epoch_time_s}`);
  }
  assert.equal(log[0]!.lr, 0.1);
  assert.ok(Math.abs(log[1]!.lr - 0.01) < 1e-12, 'multistep 0.5,0.75 of 2 epochs decays at epoch 1');
  assert.ok(log[1]!.train_loss < log[0]!.train_loss);

  const logits = await readNpy(p.testLogits);
  const labels = await readNpy(p.testLabels);
  assert.equal(logits.dtype, 'float32');
  assert.deepEqual(logits.shape, [200, 10]);
  assert.equal(labels.dtype, 'int32');
  assert.deepEqual(Array.from(labels.data as Int32Array), Array.from(data.test.labels));
  assert.deepEqual((await readNpy(p.valLogits)).shape, [60, 10]);

  const summary = JSON.parse(readFileSync(p.summary, 'utf8')) as { test: { accuracy: number; ece: number }; best_epoch: number };
  const cli = await run(['eval', '--logits', p.testLogits, '--labels', p.testLabels, '--json']);
  assert.equal(cli.code, 0, cli.stderr);
  const metrics = JSON.parse(cli.stdout) as { accuracy: number; ece: number };
  assert.equal(metrics.accuracy, summary.test.accuracy);
  assert.ok(Math.abs(metrics.ece - summary.test.ece) < 1e-12);
  assert.ok(summary.test.accuracy > 0.5, `test accuracy ${summary.test.accuracy}`);
  const bestLine = log.filter((r) => r.best).at(-1)!;
  assert.equal(summary.best_epoch, bestLine.epoch);
});

test("the exported logits and model.onnx are the best checkpoint's weights", async () => {
  const result = await uninterrupted();
  const p = result.paths;
  const model = createRunModel(base.model, base.modelOptions, data.train);
  const best = await loadCheckpoint(p.bestCheckpoint, { model });
  const step = new EvalStep(model);
  const expected = predictLogits(step, best.state, data.test.kind === 'image' ? data.test.images : data.test.tokens, 128);
  step.dispose();
  const written = (await readNpy(p.testLogits)).data as Float32Array;
  assert.deepEqual(Array.from(written), Array.from(expected));
  const session = await ort.InferenceSession.create(new Uint8Array(await readFile(p.onnx)));
  const images = (data.test as { images: Float32Array }).images.subarray(0, 37 * 784);
  const out = await session.run({ input: new ort.Tensor('float32', images, [37, 1, 28, 28]) });
  const onnxLogits = out['logits']!.data as Float32Array;
  for (let i = 0; i < onnxLogits.length; i++) assert.ok(Math.abs(onnxLogits[i]! - expected[i]!) < 1e-4, `logit ${i}`);
  const m = evaluate(matrix(200, 10, written), data.test.labels, { input: 'logits' });
  const summary = JSON.parse(readFileSync(p.summary, 'utf8')) as { test: { nll: number } };
  assert.equal(m.nll, summary.test.nll);
});

test('a run stopped mid-epoch and resumed ends with the same weights, bit for bit, as an uninterrupted run', async () => {
  const a = await uninterrupted();
  const controller = new AbortController();
  const stopped = await train(at('b'), {
    data,
    signal: controller.signal,
    onStep: ({ epoch, steps }) => {
      if (epoch === 1 && steps === 13) controller.abort(); // 4 updates into the second epoch
    },
  });
  assert.equal(stopped.status, 'stopped');
  assert.equal(stopped.epochs, 1);
  assert.equal((await readLog(stopped.paths.log)).length, 1);
  const resumed = await resumeTraining(join(dir, 'b'), { data });
  assert.equal(resumed.status, 'completed');
  assert.ok(Buffer.from(a.state.params.buffer).equals(Buffer.from(resumed.state.params.buffer)), 'parameters identical');
  assert.ok(Buffer.from(a.state.opt['momentum']!.buffer).equals(Buffer.from(resumed.state.opt['momentum']!.buffer)), 'momentum identical');
  assert.equal(resumed.state.step, a.state.step);
  for (const f of ['test-logits.npy', 'val-logits.npy', 'model.onnx']) {
    assert.ok(readFileSync(join(dir, 'a', f)).equals(readFileSync(join(dir, 'b', f))), `${f} identical`);
  }
  const strip = (r: { epoch_time_s: number; cpu_time_s?: number; train_time_s: number; samples_per_s: number }) => ({ ...r, epoch_time_s: 0, cpu_time_s: 0, train_time_s: 0, samples_per_s: 0 });
  assert.deepEqual((await readLog(join(dir, 'b', 'log.jsonl'))).map(strip), (await readLog(join(dir, 'a', 'log.jsonl'))).map(strip));
});

test('resuming is exact with dropout and manifold mixup too (random draws come from the checkpoint and the epoch)', async () => {
  const extra: Partial<TrainConfig> = { modelOptions: { hidden: [32, 16], dropout: 0.3 }, mixup: 0.4, mixupKind: 'manifold', epochs: 2 };
  const a = await train(at('c', extra), { data });
  const controller = new AbortController();
  await train(at('d', extra), { data, signal: controller.signal, onStep: ({ epoch }) => epoch === 1 && controller.abort() });
  const resumed = await resumeTraining(join(dir, 'd'), { data });
  assert.ok(Buffer.from(a.state.params.buffer).equals(Buffer.from(resumed.state.params.buffer)));
  assert.ok(readFileSync(join(dir, 'c', 'test-logits.npy')).equals(readFileSync(join(dir, 'd', 'test-logits.npy'))));
  const other = await train(at('e', { ...extra, seed: 1 }), { data });
  assert.ok(!Buffer.from(a.state.params.buffer).equals(Buffer.from(other.state.params.buffer)), 'another seed gives other weights');
});

test('an existing run is not overwritten by accident, and --resume needs a checkpoint', async () => {
  await uninterrupted();
  await assert.rejects(train(at('a'), { data }), /^InvalidArgumentError: out: expected a directory without a run/);
  await assert.rejects(resumeTraining(join(dir, 'nothing-here'), { data }), /--resume: expected a run directory with checkpoint-last\.ckpt/);
  const stale = join(dir, 'f', 'ood.json');
  await train(at('f', { epochs: 1 }), { data });
  writeFileSync(stale, '{}');
  mkdirSync(join(dir, 'f', 'shift'));
  writeFileSync(join(dir, 'f', 'shift', 'in-logits.npy'), 'stale');
  await train(at('f', { epochs: 1 }), { data, overwrite: true });
  assert.ok(!existsSync(stale), 'outputs of a replaced run are removed');
  assert.ok(!existsSync(join(dir, 'f', 'shift')), "the replaced run's shift logits too");
});

test('CRL trains with its correctness history and resumes exactly', async () => {
  const extra: Partial<TrainConfig> = { loss: 'crl', epochs: 3 };
  const a = await train(at('crl-a', extra), { data });
  assert.deepEqual(Object.keys(a.records[0]!.train_terms).sort(), ['ce', 'ranking']);
  assert.equal(a.records[0]!.train_terms['ranking'], 0, 'first epoch: all counts 0, no ranking pairs differ');
  assert.ok(a.records[2]!.train_terms['ranking']! > 0, 'later epochs rank by history');
  const controller = new AbortController();
  await train(at('crl-b', extra), { data, signal: controller.signal, onStep: ({ epoch, steps }) => epoch === 2 && steps === 20 && controller.abort() });
  const resumed = await resumeTraining(join(dir, 'crl-b'), { data });
  assert.ok(Buffer.from(a.state.params.buffer).equals(Buffer.from(resumed.state.params.buffer)));
});
