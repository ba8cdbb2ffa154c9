/**
 * Whole training runs, `calib train` against a PyTorch script doing the same work (bench/train_run_torch.py): the
 * same model, initialisation scheme, optimizer, schedule, batch, no augmentation, validation metrics and a log line
 * each epoch, checkpoints, best-epoch logits, ONNX export. Each round runs both (alternating which goes first) as
 * separate processes under /usr/bin/time: wall seconds of the whole process (start-up, data loading and compile
 * included) and peak RSS. PyTorch runs with OMP_NUM_THREADS = --threads (without it OpenMP oversubscribes the cores).
 *
 * Run: npm run bench -- train-run --model resnet20|resnet8|lenet|mlp [--epochs 2] [--rounds 3] [--threads 2] [--seed 1] [--replicas R] [--no-peer]
 * LeNet runs without batch norm (`--model-opt batchNorm=false`), as the PyTorch peer's. The default seed is 1: LeNet
 * without batch norm at lr 0.1 stays at chance for some seeds in either framework's
 * random stream (calib's seed 0 is one; 1 of 9 seeds tried), which would not change the timing but would confuse
 * the accuracy columns. (With identical weights and batches, the MLP's loss over 200 steps matches PyTorch's to
 * 3–4 digits: the two runs differ only by their random streams.)
 * resnet8 is the deep-scale architecture (cifar-resnet-8, width 16; src/suite/papers/scales.ts DEEP) at this bench's
 * recipe (all 54,000 training images, weight decay 5e-4), so one epoch is a short whole run of it.
 * Each process's CPU seconds (user + sys, from /usr/bin/time) are reported beside wall time: on a machine shared
 * with other work, wall time stretches with the load, CPU time much less (use --threads 1 for a load-robust ratio).
 * Prints one JSON line per process run, then a summary line: median wall time of each, speed-up = PyTorch / calib
 * (> 1: calib is faster) with its min and max over rounds, peak RSS, and each side's test accuracy.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: 'mlp' },
    epochs: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    threads: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
    replicas: { type: 'string', default: '1' },
    data: { type: 'string', default: '/usr/share/datasets/fashion-mnist' },
    'no-peer': { type: 'boolean', default: false },
  },
});
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const CLI = join(here, '..', 'src', 'cli', 'main.js');
const PEER = join(root, 'bench', 'train_run_torch.py');
/** $PYTHON: the Python with torch (default /usr/bin/python3); $CALIBKIT_TIME: a GNU-time-compatible timer (default /usr/bin/time; bench/gnu_time.py where it is missing). */
const PYTHON = process.env['PYTHON'] ?? '/usr/bin/python3';
const TIME = process.env['CALIBKIT_TIME'] ?? '/usr/bin/time';
const MODELS: Record<string, string> = { mlp: 'mlp', lenet: 'lenet', resnet20: 'cifar-resnet-20', resnet8: 'cifar-resnet-8' };
if (!(values.model! in MODELS)) throw new Error(`--model: expected mlp, lenet, resnet20 or resnet8, got ${values.model}`);

interface Timed {
  readonly side: 'calib' | 'torch';
  readonly round: number;
  readonly wall_s: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  readonly test_accuracy: number;
  /** Images the run trained on (after the validation hold-out): 54,000 with the full training file. */
  readonly train_images?: number;
}

/** Run `cmd args` under /usr/bin/time; wall seconds, CPU seconds (user + sys) and peak RSS from its report. */
function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv): { wall: number; cpu: number; rssMb: number } {
  const dir = mkdtempSync(join(tmpdir(), 'train-run-time-'));
  const report = join(dir, 'time.txt');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', report, cmd, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr.slice(-2000)}`);
  const [wall, user, sys, kb] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(dir, { recursive: true, force: true });
  return { wall: wall!, cpu: user! + sys!, rssMb: kb! / 1024 };
}

function runCalib(round: number, out: string): Timed {
  // The PyTorch peer's LeNet has no batch norm (calib's lenet has it by default): compare the same network.
  const modelOptions = values.model === 'lenet' ? ['--model-opt', 'batchNorm=false'] : [];
  const args = [
    CLI,
    'train',
    '--dataset',
    'fashion-mnist',
    '--data-opt',
    `directory=${values.data}`,
    '--model',
    MODELS[values.model!]!,
    ...modelOptions,
    '--epochs',
    values.epochs!,
    '--threads',
    values.threads!,
    '--seed',
    values.seed!,
    '--replicas',
    values.replicas!,
    '--out',
    out,
    '--force',
    '--progress',
    'none',
  ];
  const t = timed(process.execPath, args, process.env);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { test: { accuracy: number }; data?: { train?: number } };
  return {
    side: 'calib',
    round,
    wall_s: t.wall,
    cpu_s: t.cpu,
    peak_rss_mb: t.rssMb,
    test_accuracy: summary.test.accuracy,
    ...(summary.data?.train !== undefined ? { train_images: summary.data.train } : {}),
  };
}

function runTorch(round: number, out: string): Timed {
  const env = { ...process.env, OMP_NUM_THREADS: values.threads!, OPENBLAS_NUM_THREADS: values.threads!, MKL_NUM_THREADS: values.threads! };
  const t = timed(PYTHON, [PEER, '--model', values.model!, '--epochs', values.epochs!, '--threads', values.threads!, '--seed', values.seed!, '--out', out, '--data', values.data!], env);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { test_accuracy: number; train_images?: number };
  return {
    side: 'torch',
    round,
    wall_s: t.wall,
    cpu_s: t.cpu,
    peak_rss_mb: t.rssMb,
    test_accuracy: summary.test_accuracy,
    ...(summary.train_images !== undefined ? { train_images: summary.train_images } : {}),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const work = mkdtempSync(join(tmpdir(), 'train-run-'));
const results: Timed[] = [];
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const order: Array<'calib' | 'torch'> = values['no-peer'] ? ['calib'] : round % 2 === 0 ? ['calib', 'torch'] : ['torch', 'calib'];
    for (const side of order) {
      const out = join(work, `${side}-${round}`);
      const r = side === 'calib' ? runCalib(round, out) : runTorch(round, out);
      results.push(r);
      process.stdout.write(`${JSON.stringify({ bench: 'train-run', model: values.model, replicas: Number(values.replicas), epochs: Number(values.epochs), threads: Number(values.threads), ...r })}\n`);
      rmSync(out, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const calib = results.filter((r) => r.side === 'calib');
const torch = results.filter((r) => r.side === 'torch');
const summary: Record<string, unknown> = {
  bench: 'train-run-summary',
  model: values.model,
  replicas: Number(values.replicas),
  epochs: Number(values.epochs),
  threads: Number(values.threads),
  rounds: calib.length,
  calib_wall_s: median(calib.map((r) => r.wall_s)),
  calib_cpu_s: median(calib.map((r) => r.cpu_s)),
  calib_peak_rss_mb: Math.max(...calib.map((r) => r.peak_rss_mb)),
  calib_test_accuracy: calib.map((r) => r.test_accuracy),
};
if (torch.length) {
  const ratios = calib.map((c, i) => torch[i]!.wall_s / c.wall_s);
  Object.assign(summary, {
    torch_wall_s: median(torch.map((r) => r.wall_s)),
    torch_cpu_s: median(torch.map((r) => r.cpu_s)),
    torch_peak_rss_mb: Math.max(...torch.map((r) => r.peak_rss_mb)),
    torch_test_accuracy: torch.map((r) => r.test_accuracy),
    speedup_median: median(ratios),
    speedup_min: Math.min(...ratios),
    speedup_max: Math.max(...ratios),
    cpu_speedup_median: median(calib.map((c, i) => torch[i]!.cpu_s / c.cpu_s)),
    load_average: loadavg().map((v) => Number(v.toFixed(1))),
  });
}
process.stdout.write(`${JSON.stringify(summary)}\n`);
