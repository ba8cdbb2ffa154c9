import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeConfig, resolveTrainConfig } from '../../src/train/train-config.js';
import { LearningRate, parseSchedule } from '../../src/train/lr-schedule-spec.js';
import { BestEpoch, type ValidationScores } from '../../src/train/run/best-epoch.js';
import { ConsoleProgress, formatDuration } from '../../src/train/run/progress.js';
import { appendRecord, readLog, writeLog, type EpochRecord } from '../../src/train/artefacts/train-log.js';
import { createRunModel, modelAlias, resolveModelSpec } from '../../src/train/run/trainer-model.js';
import { imageDataset } from '../../src/data/dataset.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { tempDir } from '../io/temp-dir.js';
import { join } from 'node:path';

const minimal = { dataset: 'mnist', out: 'runs/x' };

function throwsNaming(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message), `expected an InvalidArgumentError matching ${pattern}`);
}

test('a minimal configuration gets the documented defaults', () => {
  const c = resolveTrainConfig(minimal);
  assert.equal(c.model, 'mlp');
  assert.equal(c.loss, 'ce');
  assert.equal(c.epochs, 30);
  assert.equal(c.batch, 128);
  assert.equal(c.lr, 0.1);
  assert.equal(c.schedule, 'multistep:0.5,0.75');
  assert.equal(c.optimizer, 'sgd');
  assert.equal(c.momentum, 0.9);
  assert.equal(c.weightDecay, 5e-4);
  assert.equal(c.mixup, 0);
  assert.equal(c.select, 'accuracy');
  assert.deepEqual(c.lossOptions, {});
  assert.equal(c.secondary, undefined);
});

test("the secondary term's weight defaults to the term's (MMCE 2 as the focal-calibration code, else 1) and is recorded", () => {
  assert.equal(resolveTrainConfig(minimal).weight, 1);
  assert.equal(resolveTrainConfig({ ...minimal, secondary: 'mmce' }).weight, 2);
  assert.equal(resolveTrainConfig({ ...minimal, secondary: 'mmce-weighted' }).weight, 2);
  assert.equal(resolveTrainConfig({ ...minimal, secondary: 'mmce', weight: 4 }).weight, 4);
  assert.equal(resolveTrainConfig({ ...minimal, secondary: 'arc' }).weight, 1);
  throwsNaming(
    () => resolveTrainConfig({ ...minimal, secondary: 'arc', secondaryOptions: { beta: 3 } }),
    /^config\.secondaryOptions\.beta: expected a known key \(version, bins, ignoreIndex\), got an unknown key$/,
  );
});

test('an unknown key is an error naming its path and the close known key', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, epocs: 3 }), /^config\.epocs: expected a known key \(did you mean epochs\?\)/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, zzz: 1 }), /^config\.zzz: expected a known key \(dataset, datasetOptions, /);
});

test('bad values name the key, the expectation and the value', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, epochs: 0 }), /^config\.epochs: expected an integer ≥ 1, got 0$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, lr: -1 }), /^config\.lr: expected a finite number > 0, got -1$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, optimizer: 'adadelta' }), /^config\.optimizer: expected one of 'sgd', 'adam', 'adamw', 'rmsprop', 'adagrad', got "adadelta"$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, nesterov: 'yes' }), /^config\.nesterov: expected true or false/);
  throwsNaming(() => resolveTrainConfig({ out: 'x' }), /^config\.dataset: expected one of .*got nothing \(the key is required\)$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, mixup: 0.2, mixupKind: 'manifold', mixupLayers: [1] }), /^config\.mixupLayers\[0\]: expected a non-empty string, got 1$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, lossOptions: { a: { b: 1 } } }), /^config\.lossOptions\.a: expected a number, string, boolean or list/);
});

test('dataset and OOD-dataset options are checked against their loaders, the default OOD dataset included', () => {
  throwsNaming(
    () => resolveTrainConfig({ ...minimal, datasetOptions: { testsize: 10 } }),
    /^config\.datasetOptions: mnist options\.testsize: expected one of testSize, seed, directory \(did you mean testSize\?\), got an unknown option$/,
  );
  // mnist's default OOD dataset is fashion-mnist: a typo in its options fails now, not after training.
  throwsNaming(() => resolveTrainConfig({ ...minimal, ood: true, oodDatasetOptions: { dirctory: '/x' } }), /^config\.oodDatasetOptions: fashion-mnist options\.dirctory: expected one of directory, /);
  throwsNaming(
    () => resolveTrainConfig({ ...minimal, oodDataset: 'cifar10', oodDatasetOptions: { directory: '/x' } }),
    /^config\.oodDatasetOptions: cifar10 options\.directory: expected one of path, /,
  );
  assert.deepEqual(resolveTrainConfig({ ...minimal, ood: true, oodDatasetOptions: { directory: '/x' } }).oodDatasetOptions, { directory: '/x' });
});

test('loss names and options are validated through the loss registry, with the config path', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, loss: 'nope' }), /^config\.loss: expected one of 'ce', .*, got "nope"$/);
  throwsNaming(
    () => resolveTrainConfig({ ...minimal, loss: 'ls', lossOptions: { eps: 0.1 } }),
    /^config\.lossOptions\.eps: expected a known key \(epsilon, variant, ignoreIndex\), got an unknown key$/,
  );
  throwsNaming(() => resolveTrainConfig({ ...minimal, loss: 'ls', lossOptions: { epsilon: 2 } }), /^config\.lossOptions\.epsilon: expected a finite number ≤ 1, got 2$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, loss: 'mmce' }), /^config\.loss: expected a primary loss or combined method/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, secondary: 'ls' }), /^config\.secondary: expected a calibration term/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, secondaryOptions: { bins: 3 } }), /^config\.secondaryOptions: expected no options without a secondary loss/);
  const c = resolveTrainConfig({ ...minimal, loss: 'mbls', lossOptions: { margin: 6 }, secondary: 'mmce', weight: 2 });
  assert.deepEqual(c.lossOptions, { margin: 6 });
  assert.equal(c.weight, 2);
});

test('cross-key rules: mixup needs soft-target losses, placements need a secondary term', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, loss: 'focal', mixup: 0.2 }), /^config\.loss: expected a loss that accepts soft targets/);
  assert.equal(resolveTrainConfig({ ...minimal, loss: 'focal', mixup: 0.2, mixupKind: 'feature' }).loss, 'focal');
  throwsNaming(() => resolveTrainConfig({ ...minimal, arcPlacement: 'sources' }), /^config\.arcPlacement: expected 'mixed' unless a secondary term is given/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, secondary: 'arc', arcPlacement: 'sources' }), /^config\.arcPlacement: expected 'mixed' or 'holdout' without mixup/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, interleaved: 0.1 }), /^config\.interleaved: expected a secondary loss/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, interleaved: 1.5, secondary: 'mmce' }), /^config\.interleaved: expected a finite number ≤ 1, got 1\.5$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, mixup: 0.2, mixupKind: 'embedding' }), /^config\.mixupKind: expected 'input', 'feature' or 'manifold' for image data/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, loss: 'crl', mixup: 0.2 }), /^config\.loss: expected crl without mixup/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, schedule: 'linear' }), /^config\.schedule: expected constant, cosine, step:S\[,γ\] or multistep/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, epochs: 4, warmup: 5 }), /^config\.warmup: expected at most the 4 epochs, got 5$/);
});

test('a custom path prefix names the file the settings came from', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, epochs: 'ten' }, 'run.json'), /^run\.json\.epochs: expected an integer, got "ten"$/);
});

test('flags override a configuration file; option objects merge key by key', () => {
  const file = { dataset: 'mnist', epochs: 30, loss: 'ls', lossOptions: { epsilon: 0.1, variant: 'others' }, out: 'a' };
  const merged = mergeConfig(file, { epochs: 2, lossOptions: { epsilon: 0.05 }, seed: 3, out: undefined });
  assert.deepEqual(merged, { dataset: 'mnist', epochs: 2, loss: 'ls', lossOptions: { epsilon: 0.05, variant: 'others' }, out: 'a', seed: 3 });
  assert.deepEqual(file.lossOptions, { epsilon: 0.1, variant: 'others' }, 'the file object is not modified');
});

test('schedule strings give PyTorch-style per-epoch rates', () => {
  assert.deepEqual(parseSchedule('multistep:0.5,0.75', 20), { kind: 'multistep', milestones: [10, 15], gamma: 0.1 });
  assert.deepEqual(parseSchedule('multistep:3,7:0.2', 20), { kind: 'multistep', milestones: [3, 7], gamma: 0.2 });
  assert.deepEqual(parseSchedule('multistep:0.5,0.75', 2), { kind: 'multistep', milestones: [1, 2], gamma: 0.1 });
  assert.deepEqual(parseSchedule('multistep:0.5,0.75', 3), { kind: 'multistep', milestones: [2], gamma: 0.1 }, 'fractions rounding onto one epoch decay once');
  assert.deepEqual(parseSchedule('step:5', 20), { kind: 'step', stepSize: 5, gamma: 0.1 });
  assert.throws(() => parseSchedule('multistep:7,3', 20), /strictly increasing/);
  assert.throws(() => parseSchedule('step:x', 20), /schedule: expected a number, got "x"/);
  assert.throws(() => parseSchedule('cosine:1', 20), /'cosine' without parameters/);

  const steps = 4;
  const multi = new LearningRate(parseSchedule('multistep:0.5,0.75', 8), 0.1, 8, steps);
  const expected = [0.1, 0.1, 0.1, 0.1, 0.01, 0.01, 0.001, 0.001];
  for (let e = 0; e < 8; e++) assert.ok(Math.abs(multi.at(e, 2) - expected[e]!) < 1e-15, `epoch ${e}`);
  const cos = new LearningRate(parseSchedule('cosine', 10), 0.2, 10, steps);
  for (let e = 0; e <= 10; e++) assert.ok(Math.abs(cos.ofEpoch(e) - 0.1 * (1 + Math.cos((Math.PI * e) / 10))) < 1e-15);
  const step = new LearningRate(parseSchedule('step:3,0.5', 10), 1, 10, steps);
  assert.deepEqual(
    [0, 2, 3, 5, 6, 9].map((e) => step.ofEpoch(e)),
    [1, 1, 0.5, 0.5, 0.25, 0.125],
  );
});

test('warm-up scales the first W·steps updates linearly, starting above zero', () => {
  const lr = new LearningRate(parseSchedule('constant', 10), 0.4, 10, 5, 2); // 10 warm-up updates
  assert.ok(Math.abs(lr.at(0, 0) - 0.04) < 1e-15);
  assert.ok(Math.abs(lr.at(0, 4) - 0.2) < 1e-15);
  assert.ok(Math.abs(lr.at(1, 4) - 0.4) < 1e-15);
  assert.equal(lr.at(5, 0), 0.4);
});

test('best-epoch selection maximises accuracy, minimises NLL/ECE, keeps the earlier epoch on ties', () => {
  const s = (accuracy: number, nll: number, ece: number) => ({ accuracy, nll, ece, adaece: ece, refinement: nll, metrics: {} as ValidationScores['metrics'] });
  const acc = new BestEpoch('accuracy');
  assert.equal(acc.consider(0, s(0.5, 1, 0.1)), true);
  assert.equal(acc.consider(1, s(0.7, 2, 0.3)), true);
  assert.equal(acc.consider(2, s(0.7, 0.1, 0.01)), false, 'a tie is not an improvement');
  assert.equal(acc.consider(3, s(Number.NaN, 0.1, 0.01)), false);
  assert.deepEqual(acc.best, { metric: 'accuracy', epoch: 1, value: 0.7 });
  const nll = new BestEpoch('nll');
  nll.consider(0, s(0.5, 1, 0.1));
  assert.equal(nll.consider(1, s(0.9, 1.5, 0.1)), false);
  assert.equal(nll.consider(2, s(0.1, 0.5, 0.1)), true);
  assert.equal(nll.best.epoch, 2);
  const last = new BestEpoch('last');
  last.consider(0, s(0.9, 0, 0));
  assert.equal(last.consider(1, s(0.1, 9, 9)), true);
  const resumed = new BestEpoch('ece', { metric: 'ece', epoch: 4, value: 0.02 });
  assert.equal(resumed.consider(5, s(1, 1, 0.03)), false);
  assert.throws(() => resumed.consider(5, s(1, 1, 0.01)), /epoch: expected an epoch after 5/);
});

test('the log is JSON Lines, NaN written as null, rewritten whole on resume', async () => {
  const dir = tempDir('train-log');
  const path = join(dir, 'log.jsonl');
  const record = (epoch: number, nll: number): EpochRecord => ({
    epoch,
    steps: 10 * epoch,
    lr: 0.1,
    train_loss: 1 / epoch,
    train_terms: { ce: 1 / epoch },
    val_accuracy: 0.5,
    val_nll: nll,
    val_ece: 0.1,
    val_adaece: 0.1,
    best: epoch === 1,
    epoch_time_s: 1,
    train_time_s: 0.5,
    samples_per_s: 100,
  });
  await writeLog(path, []);
  await appendRecord(path, record(1, 0.3));
  await appendRecord(path, record(2, Number.NaN));
  const back = await readLog(path);
  assert.equal(back.length, 2);
  assert.deepEqual(back[0], record(1, 0.3));
  assert.equal(back[1]!.val_nll, null);
  await writeLog(path, [record(1, 0.3)]);
  assert.equal((await readLog(path)).length, 1);
  assert.deepEqual(await readLog(join(dir, 'missing.jsonl')), []);
});

test('progress: live bar with ETA on a terminal, plain epoch lines otherwise', () => {
  let clock = 0;
  let live = '';
  const bar = new ConsoleProgress({ write: (t: string) => (live += t) }, { live: true, width: 10, interval: 0, now: () => clock });
  bar.start({ totalSteps: 100, doneSteps: 0, epochs: 2 });
  clock = 10_000; // 10 s for 25 updates → 30 s for the remaining 75
  bar.step({ epoch: 0, doneSteps: 25, loss: 1.5, samples: 3200, trainSeconds: 8 });
  assert.match(live, /^\r\[###-------\] 25\/100  epoch 1\/2  loss 1\.5000  400 samples\/s  ETA 0:30\x1b\[K$/);
  const record: EpochRecord = {
    epoch: 1,
    steps: 50,
    lr: 0.1,
    train_loss: 1.2,
    train_terms: {},
    val_accuracy: 0.9,
    val_nll: 0.3,
    val_ece: 0.0123,
    val_adaece: 0.02,
    best: true,
    epoch_time_s: 20,
    train_time_s: 16,
    samples_per_s: 400,
  };
  live = '';
  bar.epoch(record, 2);
  assert.ok(live.startsWith('\r\x1b[K'), 'the live line is cleared before a permanent line');
  assert.match(live, /epoch 1\/2  loss 1\.2000  val acc 90\.00%  nll 0\.3000  ece 1\.23%  adaece 2\.00%  lr 0\.100  20\.0 s  400 samples\/s  \*best\n$/);
  let plain = '';
  const lines = new ConsoleProgress({ write: (t: string) => (plain += t) }, { live: false });
  lines.start({ totalSteps: 100, doneSteps: 0, epochs: 2 });
  lines.step({ epoch: 0, doneSteps: 1, loss: 1, samples: 1, trainSeconds: 1 });
  assert.equal(plain, '', 'no per-update output without a terminal');
  lines.epoch(record, 2);
  assert.equal(plain.split('\n').length, 2);
  assert.equal(formatDuration(3725), '1:02:05');
  assert.equal(formatDuration(Number.NaN), '?');
});

test('model names: zoo kinds, resnet/wrn/vgg aliases, shapes from the dataset', () => {
  assert.deepEqual(modelAlias('resnet20'), { kind: 'cifar-resnet', depth: 20 });
  assert.deepEqual(modelAlias('resnet18'), { kind: 'resnet18' });
  assert.deepEqual(modelAlias('wrn-28-10'), { kind: 'wide-resnet', depth: 28, widen: 10 });
  assert.deepEqual(modelAlias('vgg16'), { kind: 'vgg', depth: 16 });
  throwsNaming(() => modelAlias('resnet21', 'config.model'), /^config\.model: expected a model kind/);
  assert.deepEqual(modelAlias('cifar-resnet-8'), { kind: 'cifar-resnet', depth: 8 });
  assert.deepEqual(modelAlias('resnet50'), { kind: 'resnet', depth: 50 }); // the bottleneck ResNet-50, not a CIFAR 6n+2 net
  assert.deepEqual(modelAlias('resnet101'), { kind: 'resnet', depth: 101 });
  assert.deepEqual(modelAlias('preact-resnet18'), { kind: 'preact-resnet', depth: 18 });
  assert.deepEqual(modelAlias('densenet121'), { kind: 'densenet', depth: 121 });
  throwsNaming(() => modelAlias('resnet8', 'config.model'), /cifar-resnet-D/); // short CIFAR names only for 20, 32, 44, 56, 110
  throwsNaming(() => modelAlias('cifar-resnet-21', 'config.model'), /resnet50.*densenet121/);
  throwsNaming(() => modelAlias('resnet34', 'config.model'), /^config\.model: expected a model kind/);
  const images = imageDataset({ name: 't', images: new Float32Array(2 * 28 * 28), labels: new Int32Array([0, 2]), shape: [1, 28, 28], classes: 3 });
  assert.deepEqual(resolveModelSpec('cifar-resnet-8', { width: 4 }, images), { kind: 'cifar-resnet', depth: 8, width: 4, inputShape: [1, 28, 28], numClasses: 3 });
  throwsNaming(() => resolveModelSpec('mlp', { numClasses: 10 }, images), /^config\.modelOptions\.numClasses: expected 3 \(from the dataset\) or nothing, got 10$/);
  throwsNaming(() => resolveModelSpec('text-cnn', {}, images), /^config\.model: expected an image model/);
});

test('model and optimizer options are checked by their schemas at configuration time, errors naming the config path', () => {
  throwsNaming(() => resolveTrainConfig({ ...minimal, modelOptions: { hiden: [16] } }), /^config\.modelOptions\.hiden: expected a known key \(did you mean hidden\?\), got an unknown key$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, modelOptions: { dropout: 1 } }), /^config\.modelOptions\.dropout: expected a finite number < 1, got 1$/);
  throwsNaming(
    () => resolveTrainConfig({ ...minimal, model: 'cifar-resnet', modelOptions: { depth: 21 } }),
    /^config\.modelOptions\.depth: expected 6n \+ 2 with n ≥ 1 \(20, 32, 44, 56, 110\), got 21$/,
  );
  throwsNaming(() => resolveTrainConfig({ ...minimal, model: 'resnet50', modelOptions: { stem: 'tiny' } }), /^config\.modelOptions\.stem: expected one of 'imagenet', 'cifar', 'auto', got "tiny"$/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, model: 'resnet21' }), /^config\.model: expected a model kind/);
  throwsNaming(() => resolveTrainConfig({ ...minimal, nesterov: true, momentum: 0 }), /^config\.nesterov: expected momentum > 0 and dampening = 0 \(as PyTorch\), got momentum 0, dampening 0$/);
  assert.deepEqual(resolveTrainConfig({ ...minimal, model: 'resnet20', modelOptions: { width: 8 } }).modelOptions, { width: 8 });
  // The input shape and class count come from the dataset: given, they are checked against it when the model is built.
  const images = imageDataset({ name: 't', images: new Float32Array(2 * 28 * 28), labels: new Int32Array([0, 2]), shape: [1, 28, 28], classes: 3 });
  throwsNaming(() => createRunModel('mlp', { hidden: [0] }, images), /^config\.modelOptions\.hidden\[0\]: expected an integer ≥ 1, got 0$/);
  throwsNaming(() => createRunModel('cifar-resnet-8', { width: 3 }, images), /^config\.modelOptions\.width: expected an even width for option-A shortcuts, got 3$/);
});
