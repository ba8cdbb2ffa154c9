import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readNpy } from '../../src/io/npy.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('seg-run');

test('calib train --dataset mnist-seg --model seg-net --loss mbls: a run directory with pixel metrics that calib eval reproduces', async () => {
  const out = join(dir, 'mbls');
  const args = [
    'train',
    '--dataset',
    'mnist-seg',
    '--model',
    'seg-net',
    '--model-opt',
    'width=4',
    '--loss',
    'mbls',
    '--opt',
    'margin=10',
    '--subset',
    '240',
    '--validation',
    '40',
    '--test-subset',
    '60',
    '--epochs',
    '2',
    '--batch',
    '25',
    '--lr',
    '0.05',
    '--progress',
    'none',
    '--out',
    out,
  ];
  const r = await run(args);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /test \(60 images, \d+ labelled pixels; 255 ignored\): pixel accuracy [\d.]+%  mIoU [\d.]+%/);
  assert.match(r.stdout, /without background: accuracy [\d.]+%  confidence [\d.]+%  ECE [\d.]+%/);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, any>;
  assert.equal(summary['task'], 'segmentation');
  assert.deepEqual(summary['data'], { train: 200, validation: 40, test: 60, logit_images: 60 });
  const t = summary['test'];
  for (const k of ['pixel_accuracy', 'mean_confidence', 'miou', 'ece', 'adaece', 'classwise_ece', 'nll']) assert.ok(Number.isFinite(t[k]), k);
  assert.ok(t.foreground.pixels > 0 && t.foreground.pixels < t.pixels);
  const logits = await readNpy(join(out, 'test-logits.npy'));
  const labels = await readNpy(join(out, 'test-labels.npy'));
  assert.deepEqual(logits.shape, [60, 11, 28, 28]);
  assert.deepEqual(labels.shape, [60, 28, 28]);
  const log = (await readFile(join(out, 'log.jsonl'), 'utf8')).trim().split('\n');
  assert.equal(log.length, 2);
  const record = JSON.parse(log[1]!) as { train_terms: Record<string, number>; val_accuracy: number };
  assert.deepEqual(Object.keys(record.train_terms).sort(), ['ce', 'margin']);
  // every test image's logits were written, so calib eval on the pixel rows gives summary.json's numbers
  const e = await run(['eval', '--logits', join(out, 'test-logits.npy'), '--labels', join(out, 'test-labels.npy'), '--ignore-index', '255', '--json']);
  assert.equal(e.code, 0, e.stderr);
  const m = JSON.parse(e.stdout) as Record<string, number>;
  assert.equal(m['n'], t.pixels);
  assert.ok(Math.abs(m['ece']! - t.ece) < 1e-12 && Math.abs(m['accuracy']! - t.pixel_accuracy) < 1e-12);
});

test('segmentation runs refuse what they do not implement and classifier models', async () => {
  const base = ['train', '--dataset', 'mnist-seg', '--subset', '100', '--epochs', '1', '--progress', 'none'];
  const mixup = await run([...base, '--model', 'seg-net', '--mixup', '0.2', '--out', join(dir, 'x1')]);
  assert.equal(mixup.code, 2);
  assert.match(mixup.stderr, /config\.mixup: expected its default for a segmentation dataset/);
  const crl = await run([...base, '--model', 'seg-net', '--loss', 'crl', '--out', join(dir, 'x3')]);
  assert.equal(crl.code, 2);
  assert.match(crl.stderr, /config\.loss: expected its default for a segmentation dataset \(no per-sample host state/);
  const lenet = await run([...base, '--model', 'lenet', '--out', join(dir, 'x2')]);
  assert.equal(lenet.code, 2);
  assert.match(lenet.stderr, /config\.model: expected a dense model/);
});

test('a finished segmentation run, even with its checkpoints deleted, is not replaced without --force; seg-net on a classifier dataset is refused up front', async () => {
  const out = join(dir, 'again');
  const args = [
    'train',
    '--dataset',
    'mnist-seg',
    '--model',
    'seg-net',
    '--model-opt',
    'width=2',
    '--subset',
    '40',
    '--validation',
    '10',
    '--test-subset',
    '10',
    '--epochs',
    '1',
    '--progress',
    'none',
    '--out',
    out,
  ];
  const first = await run(args);
  assert.equal(first.code, 0, first.stderr);
  const summary = await readFile(join(out, 'summary.json'), 'utf8');
  // with its checkpoints it is refused as a run to --resume (the next test); without them, by its summary.json
  await Promise.all(['checkpoint-last.ckpt', 'checkpoint-best.ckpt'].map((f) => rm(join(out, f))));
  const again = await run([...args, '--lr', '0.05']);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /^calib: error: out: expected a directory without a finished run \(replace it with --force.*holds a finished run \(summary\.json\)\n$/);
  assert.equal(await readFile(join(out, 'summary.json'), 'utf8'), summary, 'the finished run is untouched');
  const forced = await run([...args, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  const classifier = await run(['train', '--dataset', 'mnist', '--model', 'seg-net', '--subset', '50', '--epochs', '1', '--progress', 'none', '--out', join(dir, 'x4')]);
  assert.equal(classifier.code, 2);
  assert.match(classifier.stderr, /^calib: error: config\.model: expected a classifier for the classification dataset mnist/);
});

test("a segmentation run stopped between epochs is refused as a new run, and --resume ends with the uninterrupted run's numbers", async () => {
  const { train } = await import('../../src/train/run/trainer.js');
  const { resolveTrainConfig } = await import('../../src/train/train-config.js');
  const { SILENT_PROGRESS } = await import('../../src/train/run/progress.js');
  const settings = { dataset: 'mnist-seg', model: 'seg-net', modelOptions: { width: 4 }, subset: 120, validation: 20, testSubset: 30, epochs: 4, batch: 25, lr: 0.05, select: 'nll', threads: 2 };
  const whole = await train(resolveTrainConfig({ ...settings, out: join(dir, 'whole') }));
  const out = join(dir, 'stopped');
  const stop = new AbortController();
  const progress = { ...SILENT_PROGRESS, epoch: (r: { epoch: number }) => (r.epoch === 2 ? stop.abort() : undefined) };
  const first = await train(resolveTrainConfig({ ...settings, out }), { progress, signal: stop.signal });
  assert.equal(first.status, 'stopped');
  assert.equal(first.records.length, 2);
  // a new run over it would silently restart: refused, naming --resume
  const again = await run([
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
    '4',
    '--batch',
    '25',
    '--lr',
    '0.05',
    '--select',
    'nll',
    '--progress',
    'none',
    '--out',
    out,
  ]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /calib train --resume/);
  const resumed = await run(['train', '--resume', out, '--progress', 'none']);
  assert.equal(resumed.code, 0, resumed.stderr);
  const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, any>;
  assert.deepEqual(summary['test'], JSON.parse(JSON.stringify(whole.segmentation!.test)));
  assert.equal(summary['best_epoch'], whole.segmentation!.best_epoch);
  const log = (await readFile(join(out, 'log.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { val_nll: number; steps: number });
  assert.deepEqual(
    log.map((r) => [r.steps, r.val_nll]),
    whole.records.map((r) => [r.steps, r.val_nll]),
  );
});

test("the per-epoch validation scores of a segmentation run are summary.json's validation pixel metrics of the selected epoch", async () => {
  const out = join(dir, 'scores');
  for (const select of ['accuracy', 'ece']) {
    const args = [
      'train',
      '--dataset',
      'mnist-seg',
      '--model',
      'seg-net',
      '--model-opt',
      'width=2',
      '--subset',
      '60',
      '--validation',
      '20',
      '--test-subset',
      '10',
      '--epochs',
      '2',
      '--batch',
      '20',
      '--lr',
      '0.05',
      '--select',
      select,
      '--progress',
      'none',
      '--out',
      out,
      '--force',
    ];
    const r = await run(args);
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as Record<string, any>;
    const records = (await readFile(join(out, 'log.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, any>);
    const chosen = records[summary['best_epoch'] - 1]!;
    assert.equal(chosen['best'], true);
    const v = summary['validation'];
    assert.deepEqual([chosen['val_accuracy'], chosen['val_nll'], chosen['val_ece'], chosen['val_adaece']], [v.pixel_accuracy, v.nll, v.ece, v.adaece], select);
  }
});
