/**
 * Where a whole training run's CPU time goes outside the train steps (issue 24, "outside the step"): the run of
 * `npm run bench -- train-run` (Fashion-MNIST, 2 epochs, batch 128, SGD, per-epoch validation and checkpoints,
 * best-epoch logits, ONNX export) cut into phases on both sides, each side a fresh process per round, rounds
 * interleaved (which side goes first alternates).
 *
 * calibkit (this file re-run with --child, `train()` in process; CPU = process.cpuUsage, every thread):
 *   startup     node start-up and module loading (the CPU the process has used when the bench's code starts)
 *   decode      loadDataset: reading, gunzip and byte → float of the four IDX files
 *   split       runSplits: the validation hold-out (and the copies it makes)
 *   setup       train() until its first update: run directory, model, compile of the train and eval steps
 *   steps       the updates of every epoch (first update's start to the epoch's last update)
 *   validation  each epoch's validation logits and metrics, checkpoints and log line (last update → epoch line)
 *   final       the best checkpoint reloaded, validation and test logits, model.onnx, summary.json
 *   exit        what /usr/bin/time reports beyond the in-process phases (teardown, exit)
 *   gc_ms       V8's garbage-collection pauses (wall ms, PerformanceObserver 'gc'), in all and during the steps
 * PyTorch (bench/train_run_torch.py, its time.process_time() marks written to summary.json `phases_cpu_s`):
 *   startup (interpreter + import torch), decode, split, setup (model, optimizer), steps, validation (+ checkpoints),
 *   final (reload, logits, .npy files), export (torch.onnx.export), exit.
 *
 *   npm run -s bench -- train-run-anatomy [--model mlp|lenet|resnet20|resnet8] [--epochs 2] [--rounds 3] [--threads 1] [--no-peer]
 *
 * Prints one JSON line per process, then a summary: per side the median CPU seconds of every phase.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PerformanceObserver } from 'node:perf_hooks';
import { loadDataset } from '../src/data/load-dataset.js';
import { runSplits } from '../src/train/run/trainer-data.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { train } from '../src/train/run/trainer.js';
import type { TrainProgress } from '../src/train/run/progress.js';

const startCpu = process.cpuUsage();
const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'mlp' },
    epochs: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '1' },
    seed: { type: 'string', default: '1' },
    data: { type: 'string', default: '/usr/share/datasets/fashion-mnist' },
    'no-peer': { type: 'boolean', default: false },
    child: { type: 'string' },
  },
});
const MODELS: Record<string, string> = { mlp: 'mlp', lenet: 'lenet', resnet20: 'cifar-resnet-20', resnet8: 'cifar-resnet-8' };
if (!(values.model! in MODELS)) throw new Error(`--model: expected mlp, lenet, resnet20 or resnet8, got ${values.model}`);
const here = dirname(fileURLToPath(import.meta.url));
const PEER = join(here, '..', '..', 'bench', 'train_run_torch.py');
const PYTHON = process.env['PYTHON'] ?? '/usr/bin/python3';
const TIME = process.env['CALIBKIT_TIME'] ?? '/usr/bin/time';

const cpuSeconds = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** One calibkit run in this process; prints its phases as JSON. */
async function child(out: string): Promise<void> {
  const phases: Record<string, number> = { startup: (startCpu.user + startCpu.system) / 1e6 };
  let gcMs = 0;
  let gcStepsMs = 0;
  let inSteps = false;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gcMs += e.duration;
      if (inSteps) gcStepsMs += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  let mark = cpuSeconds();
  const lap = (phase: string): void => {
    const now = cpuSeconds();
    phases[phase] = (phases[phase] ?? 0) + now - mark;
    mark = now;
  };
  const modelOptions = values.model === 'lenet' ? { batchNorm: false } : {};
  const config = resolveTrainConfig({
    dataset: 'fashion-mnist',
    datasetOptions: { directory: values.data },
    model: MODELS[values.model!],
    modelOptions,
    epochs: Number(values.epochs),
    threads: Number(values.threads),
    seed: Number(values.seed),
    out,
  });
  const splits = await loadDataset('fashion-mnist', { directory: values.data! });
  lap('decode');
  const data = runSplits(splits, config, { owned: true });
  const stepsPerEpoch = Math.ceil(data.train.labels.length / config.batch);
  lap('split');
  const progress: TrainProgress = {
    start: () => {},
    step: () => {},
    epoch: () => {
      inSteps = false;
      lap('validation');
    },
    message: () => {},
    finish: () => {},
  };
  const result = await train(config, {
    data,
    overwrite: true,
    progress,
    onStep: (info) => {
      // CPU is read at an epoch's first and last update only (a read per step costs what it measures): the run's first
      // update is counted with setup (one of ≥ 422 steps), later epochs' first updates with the steps.
      if (phases['setup'] === undefined) lap('setup');
      else if (info.steps % stepsPerEpoch === 0) lap('steps');
      inSteps = true;
    },
  });
  lap('final');
  await new Promise((r) => setTimeout(r, 10));
  observer.disconnect();
  process.stdout.write(
    `${JSON.stringify({ phases, gc_ms: Math.round(gcMs), gc_steps_ms: Math.round(gcStepsMs), test_accuracy: result.summary?.test.accuracy, train_images: data.train.labels.length })}\n`,
  );
}

/** Run `cmd args` under /usr/bin/time; CPU seconds (user + sys) and stdout. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): { cpu: number; stdout: string } {
  const dir = mkdtempSync(join(tmpdir(), 'train-run-anatomy-'));
  const report = join(dir, 'time.txt');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', report, cmd, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
  const [, user, sys] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(dir, { recursive: true, force: true });
  return { cpu: user! + sys!, stdout: r.stdout };
}

interface Row {
  side: 'calib' | 'torch';
  round: number;
  cpu_s: number;
  phases: Record<string, number>;
  gc_ms?: number;
  gc_steps_ms?: number;
  test_accuracy?: number;
}

function runCalib(round: number, out: string): Row {
  const args = [fileURLToPath(import.meta.url), '--child', out, '--model', values.model!, '--epochs', values.epochs!, '--threads', values.threads!, '--seed', values.seed!, '--data', values.data!];
  const t = timed(process.execPath, args, process.env);
  const r = JSON.parse(t.stdout.trim().split('\n').pop()!) as { phases: Record<string, number>; gc_ms: number; gc_steps_ms: number; test_accuracy: number };
  const inside = Object.values(r.phases).reduce((a, b) => a + b, 0);
  return { side: 'calib', round, cpu_s: t.cpu, phases: { ...r.phases, exit: t.cpu - inside }, gc_ms: r.gc_ms, gc_steps_ms: r.gc_steps_ms, test_accuracy: r.test_accuracy };
}

function runTorch(round: number, out: string): Row {
  const env = { ...process.env, OMP_NUM_THREADS: values.threads!, OPENBLAS_NUM_THREADS: values.threads!, MKL_NUM_THREADS: values.threads! };
  const t = timed(PYTHON, [PEER, '--model', values.model!, '--epochs', values.epochs!, '--threads', values.threads!, '--seed', values.seed!, '--out', out, '--data', values.data!], env);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { test_accuracy: number; phases_cpu_s: Record<string, number> };
  const inside = Object.values(summary.phases_cpu_s).reduce((a, b) => a + b, 0);
  return { side: 'torch', round, cpu_s: t.cpu, phases: { ...summary.phases_cpu_s, exit: t.cpu - inside }, test_accuracy: summary.test_accuracy };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const load = [loadavg()[0]!];
  const work = mkdtempSync(join(tmpdir(), 'train-run-anatomy-'));
  const rows: Row[] = [];
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      const order: Array<'calib' | 'torch'> = values['no-peer'] ? ['calib'] : round % 2 === 0 ? ['calib', 'torch'] : ['torch', 'calib'];
      for (const side of order) {
        const out = join(work, `${side}-${round}`);
        const r = side === 'calib' ? runCalib(round, out) : runTorch(round, out);
        rows.push(r);
        load.push(loadavg()[0]!);
        process.stdout.write(
          `${JSON.stringify({ bench: 'train-run-anatomy', model: values.model, epochs: Number(values.epochs), threads: Number(values.threads), ...r, phases: Object.fromEntries(Object.entries(r.phases).map(([k, v]) => [k, r3(v)])) })}\n`,
        );
        rmSync(out, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const summary: Record<string, unknown> = {
    bench: 'train-run-anatomy',
    summary: true,
    model: values.model,
    epochs: Number(values.epochs),
    threads: Number(values.threads),
    load_min: r3(Math.min(...load)),
    load_max: r3(Math.max(...load)),
  };
  for (const side of ['calib', 'torch'] as const) {
    const mine = rows.filter((r) => r.side === side);
    if (mine.length === 0) continue;
    const names = [...new Set(mine.flatMap((r) => Object.keys(r.phases)))];
    summary[side] = {
      cpu_s: r3(median(mine.map((r) => r.cpu_s))),
      phases_median_cpu_s: Object.fromEntries(names.map((n) => [n, r3(median(mine.map((r) => r.phases[n] ?? 0)))])),
      ...(side === 'calib' ? { gc_ms: median(mine.map((r) => r.gc_ms!)), gc_steps_ms: median(mine.map((r) => r.gc_steps_ms!)) } : {}),
      test_accuracy: mine.map((r) => r.test_accuracy),
    };
  }
  const c = summary['calib'] as { cpu_s: number } | undefined;
  const t = summary['torch'] as { cpu_s: number } | undefined;
  if (c && t) summary['cpu_ratio'] = r3(t.cpu_s / c.cpu_s);
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

if (values.child !== undefined) await child(values.child);
else await main();
