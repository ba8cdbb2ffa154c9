/**
 * The training measurement of issue 5: Fashion-MNIST, a small CIFAR-style ResNet on 28×28 one-channel images,
 * trained with several calibration losses under one recipe (SGD momentum 0.9, weight decay 5e-4, η₀ = 0.1, ÷10 at
 * 50 % and 75 % of the epochs, batch 128, best epoch by validation accuracy), then evaluated on the test split:
 * accuracy, ECE, AdaECE (15 bins), NLL and training throughput, one JSON line per loss and a Markdown table.
 *
 * Run: node dist/bench/train-fashion-mnist.js [--losses ce,ls,mbls,focal] [--model cifar-resnet-8] [--width 16]
 *      [--epochs 8] [--subset 10000] [--test-subset 5000] [--out runs/bench-fmnist] [--ood] [--torch]
 * With --torch, the same splits are written as .npy and bench/train_fashion_mnist_torch.py (PyTorch, /usr/bin/python3)
 * trains CE with the same recipe for comparison (accuracy, ECE and the throughput ratio).
 * Needs Fashion-MNIST (Debian's dataset-fashion-mnist package, or --data-opt style directory via CALIBKIT cache).
 * Losses take METHODS.md's defaults except MbLS m = 6 (the paper's 10-class CIFAR-10 setting) and LS ε = 0.05.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { writeNpy } from '../src/io/npy.js';
import { modelAlias } from '../src/train/run/trainer-model.js';
import { ConsoleProgress } from '../src/train/run/progress.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { train } from '../src/train/run/trainer.js';
import { loadRunData } from '../src/train/run/trainer-data.js';

const { values } = parseArgs({
  options: {
    losses: { type: 'string', default: 'ce,ls,mbls,focal' },
    model: { type: 'string', default: 'cifar-resnet-8' },
    width: { type: 'string', default: '16' },
    epochs: { type: 'string', default: '8' },
    subset: { type: 'string', default: '10000' },
    'test-subset': { type: 'string', default: '5000' },
    out: { type: 'string', default: 'runs/bench-fmnist' },
    ood: { type: 'boolean', default: false },
    torch: { type: 'boolean', default: false },
  },
});

const LOSS_OPTIONS: Readonly<Record<string, Record<string, unknown>>> = {
  ce: {},
  ls: { epsilon: 0.05 },
  mbls: { margin: 6 },
  focal: { gamma: 3 },
  flsd53: {},
  ecp: {},
};

const base = {
  dataset: 'fashion-mnist',
  model: values.model,
  modelOptions: { width: Number(values.width) },
  epochs: Number(values.epochs),
  subset: Number(values.subset),
  testSubset: Number(values['test-subset']),
  batch: 128,
  lr: 0.1,
  seed: 0,
  ood: values.ood,
  out: values.out,
};
const data = await loadRunData(resolveTrainConfig(base));
const rows: Record<string, unknown>[] = [];
for (const loss of values.losses.split(',').filter((l) => l !== '')) {
  const config = resolveTrainConfig({ ...base, loss, lossOptions: LOSS_OPTIONS[loss] ?? {}, out: `${values.out}/${loss}` });
  const t0 = performance.now();
  const result = await train(config, { overwrite: true, data, progress: new ConsoleProgress(process.stderr, { live: false }) });
  const s = result.summary!;
  const t = s.test as Record<string, number>;
  const row = {
    loss,
    options: config.lossOptions,
    model: `${values.model} width ${values.width} (${s.parameters} parameters)`,
    epochs: config.epochs,
    train: s.data.train,
    test: s.data.test,
    best_epoch: s.best_epoch,
    accuracy: t['accuracy'],
    ece: t['ece'],
    adaece: t['adaece'],
    nll: t['nll'],
    samples_per_s: s.samples_per_s,
    wall_s: (performance.now() - t0) / 1000,
    ...(result.ood ? { noise_auroc: result.ood.noise?.auroc, ood_auroc: result.ood.ood_dataset?.auroc } : {}),
  };
  rows.push(row);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
if (values.torch) {
  const dir = `${values.out}/torch-data`;
  mkdirSync(dir, { recursive: true });
  for (const [name, d] of [
    ['train', data.train],
    ['val', data.validation],
    ['test', data.test],
  ] as const) {
    if (d.kind !== 'image') throw new Error('image data expected');
    await writeNpy(`${dir}/${name}-images.npy`, d.images, [d.labels.length, ...d.shape]);
    await writeNpy(`${dir}/${name}-labels.npy`, d.labels, [d.labels.length]);
  }
  const depth = String(modelAlias(values.model)['depth'] ?? 20);
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/python3', ['bench/train_fashion_mnist_torch.py', dir, depth, values.width, values.epochs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`PyTorch peer failed (${r.status})`);
  const row: Record<string, unknown> = { ...(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>), best_epoch: '?', wall_s: (performance.now() - t0) / 1000 };
  rows.push(row);
  process.stdout.write(`${JSON.stringify(row)}\n`);
  const ours = rows.find((x) => x['loss'] === 'ce');
  if (ours) process.stdout.write(`${JSON.stringify({ throughput_ratio_pytorch_over_calibkit: (row['samples_per_s'] as number) / (ours['samples_per_s'] as number) })}\n`);
}
const pct = (v: unknown): string => (100 * (v as number)).toFixed(2);
process.stdout.write('\n| loss | accuracy % | ECE % | AdaECE % | NLL | samples/s | best epoch | wall s |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n');
for (const r of rows) {
  process.stdout.write(
    `| ${r['loss']} | ${pct(r['accuracy'])} | ${pct(r['ece'])} | ${pct(r['adaece'])} | ${(r['nll'] as number).toFixed(4)} | ${Math.round(r['samples_per_s'] as number)} | ${r['best_epoch']} | ${Math.round(r['wall_s'] as number)} |\n`,
  );
}
