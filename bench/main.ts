/**
 * Benchmark dispatcher: `npm run bench -- <name> [flags]` runs dist/bench/<name>.js with the flags in a child
 * process (each bench keeps its own argv conventions and prints its own JSON). `npm run bench -- list` prints
 * the registered benches. Any other compiled bench file can be run by name too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** Registered benches and what they measure. */
const BENCHES: Readonly<Record<string, string>> = {
  'train-step': 'one compiled train step (MLP / CIFAR ResNet) vs PyTorch, interleaved: --model mlp|resnet20 --batch 128 --steps N [--profile: ORT kernels by op type and by op family] [--no-nchwc]',
  'train-step-anatomy':
    "where a train step's CPU time goes (step, feeds, native run, gradient-only graph, forward, batch gather) at several batch sizes vs PyTorch, with the fit a + b·batch: [--model mlp|lenet] [--batches 1,16,64,128,256,512] [--steps 30] [--rounds 5] [--no-torch]",
  'engine-step-ab':
    'two engine builds (dist dirs) on the same train or eval step in one process, alternating, CPU ms per step: --base DIR --candidate DIR [--model fmnist-resnet8] [--mode train|eval] [--steps 30]',
  'engine-ops': 'engine gradient recipes at ResNet-20 shapes vs PyTorch [--quick]',
  gemm: 'single-precision GEMMs alone, MLAS (one-node ONNX model) vs torch.mm vs NumPy at the MLP / ResNet-20 step shapes, GFLOP/s: [--threads 1,2] [--only mlp|resnet20|square|floor] [--quick]',
  'metrics-throughput': 'every calibration metric on N × C probabilities vs NumPy: [N] [C] [repeats]',
  'metrics-compare-builds': 'tolerance review: every metric of two builds (dist dirs) on the real predictions and N × C random rows, max relative difference per metric: DIST_A DIST_B [N] [C]',
  'posthoc-temperature': 'temperature scaling fit on 50k × 100 logits vs PyTorch [--no-peer]',
  'posthoc-fit-progress': 'fitCalibrator with and without the progress callback on 300k × 100 logits [--methods isotonic,bbq] [--rows N] [--classes C] [--rounds R]',
  'posthoc-ensemble-temperature': "ensemble temperature scaling fit on 50k × 100 logits [--official DIR: vs the authors' code]",
  data: 'dataset loaders, batching, augmentation and corruptions',
  io: '.npy / CSV reading and atomic writes vs NumPy: [rows] [cols]',
  'report-figures': 'reliability diagrams and histograms rendered to SVG/PNG: [outDir]',
  'losses-overhead': 'per-step cost of each calibration loss vs CE, alone and inside the ResNet-20 step',
  'metrics-sweep': 'monotonic-sweep ECE on highly accurate models (N = 100,000)',
  'train-run':
    'whole calib train runs on Fashion-MNIST vs a PyTorch script doing the same work, interleaved (wall and CPU seconds): --model resnet20|resnet8|lenet|mlp [--epochs 2] [--rounds 3] [--threads 2]',
  'train-run-anatomy':
    'a whole train-run (Fashion-MNIST, 2 epochs) cut into phases on both sides, CPU s: start-up, decode, split, setup, steps, validation, final, exit (+ GC pauses): --model mlp|lenet|resnet20|resnet8 [--epochs 2] [--rounds 3] [--threads 1] [--no-peer]',
  'ood-anatomy':
    "a finished run's finishing (logits, model.onnx, summary, OOD / corruption sets) redone from its best checkpoint, CPU per piece, files compared with the run's: --run DIR --out DIR [--compare] [--threads T]",
  'suite-throughput': 'a whole built-in suite (demo, quick) under --jobs × --threads splits and two queue workers: runs/hour [--splits 1x2,2x1,1x1] [--no-queue]',
  'train-fashion-mnist': 'Fashion-MNIST training with several calibration losses: accuracy, ECE, NLL, throughput',
  'deep-scale-pilot':
    'issue 23 pilot: run one setting (calib or PyTorch, resumable, timed) or write docs/reproductions/deep-scale-pilot.{md,json}: run|table [--framework calib|torch --epochs E --train N --width W --loss ce|focal --seed S --threads T]',
  'posthoc-real-predictions':
    'issue 25 item 6: test log loss, ECE and fit CPU seconds of temperature, ts-mix, svs, sms, vector, matrix, dirichlet on DenseNet-40 CIFAR-10 and three CIFAR-100 sets [--only NAME] [--include-sms] [--seed S]',
  'posthoc-sms-fit':
    'issue 25: one SMS (or --method svs) fit at C = 100 on DenseNet-BC-100 CIFAR-100 (even/odd rows): CPU s, L-BFGS evaluations, CPU s per evaluation, test log loss vs probmetrics [--variants all] [--tolerance T] [--max-iterations N]',
  'real-predictions': 'raw and every calibrator on the real published predictions in ../shared [--markdown] [--only NAME] [--with-matrix]',
};

const here = dirname(fileURLToPath(import.meta.url));

function list(): void {
  const lines = Object.entries(BENCHES).map(([n, d]) => `  ${n.padEnd(28)} ${d}${existsSync(join(here, `${n}.js`)) ? '' : ' (not built)'}`);
  const extra = readdirSync(here)
    .filter((f) => f.endsWith('.js') && f !== 'main.js')
    .map((f) => f.slice(0, -3))
    .filter((n) => !(n in BENCHES));
  process.stdout.write(`usage: npm run bench -- <name> [flags]\n\nbenches:\n${lines.join('\n')}\n${extra.length ? `  also built: ${extra.join(', ')}\n` : ''}`);
}

const [name, ...flags] = process.argv.slice(2);
if (!name || name === 'list' || name === '--help' || name === '-h') {
  list();
  process.exit(name ? 0 : 2);
}
if (!/^[\w-]+$/.test(name) || name === 'main' || !existsSync(join(here, `${name}.js`))) {
  process.stderr.write(`error: unknown bench ${JSON.stringify(name)}; run \`npm run bench -- list\`\n`);
  process.exit(2);
}
const r = spawnSync(process.execPath, [join(here, `${name}.js`), ...flags], { stdio: 'inherit' });
process.exit(r.status ?? 1);
