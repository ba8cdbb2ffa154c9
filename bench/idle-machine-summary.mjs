/**
 * bench/idle-machine.sh's JSON lines → rows of the README's performance table (| what | calibkit | peer, same run |
 * ratio |), ratio = PyTorch's time ÷ calibkit's (> 1: calibkit faster; for runs per hour, calibkit's ÷ PyTorch's).
 * Every number comes from a line of the file; steps that were skipped, cut at their limit or failed are listed
 * after the table, so a missing row says why. machine.json beside the file (if there) gives the heading.
 *
 * Run: node bench/idle-machine-summary.mjs [/tmp/idle-machine.jsonl] > summary.md
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const file = process.argv[2] ?? '/tmp/idle-machine.jsonl';
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').flatMap((l) => {
  try {
    return [JSON.parse(l)];
  } catch {
    return []; // a line cut by a kill
  }
});
const machineFile = join(dirname(file), 'machine.json');
const machine = existsSync(machineFile) ? JSON.parse(readFileSync(machineFile, 'utf8')) : null;

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x, d = 1) => (Number.isFinite(x) ? x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—');
const ratio = (x) => (Number.isFinite(x) ? `${f(x, 2)}×` : '—');
const load = (l) => (Array.isArray(l.load_average) ? ` (load ${f(l.load_average[0], 2)})` : '');
const torchName = machine && typeof machine.torch === 'object' ? `PyTorch ${machine.torch.torch}` : 'PyTorch';
const MODEL_NAMES = {
  mlp: 'MLP 784-512-512-10',
  lenet: 'LeNet (no batch norm)',
  'fmnist-resnet8': 'ResNet-8 w16 on 1×28×28 (the deep scale\'s network)',
  resnet20: 'CIFAR ResNet-20 (3×32×32)',
  resnet8: 'ResNet-8 w16',
};
const rows = [];

// 1. Train steps.
for (const l of lines.filter((x) => x.section === 1 && typeof x.ms_per_step === 'number')) {
  const peer = typeof l.torch_ms_per_step === 'number'
    ? `${torchName} ${f(l.torch_ms_per_step, 2)} ms (CPU ${f(l.torch_cpu_ms_per_step, 2)} ms)`
    : 'no PyTorch peer';
  rows.push(`| train step, ${MODEL_NAMES[l.model] ?? l.model}, batch ${l.batch}, ${l.threads} thread${l.threads === 1 ? '' : 's'}, median of ${l.timed_steps} steps${load(l)} | ${f(l.ms_per_step, 2)} ms (CPU ${f(l.cpu_ms_per_step, 2)} ms) | ${peer} | ${ratio(l.ratio)} (CPU ${ratio(l.cpu_ratio)}) |`);
}

// 2. Whole runs (train-run's summary line, with the image count from its process lines).
for (const s of lines.filter((x) => x.section === 2 && x.bench === 'train-run-summary')) {
  const procs = lines.filter((x) => x.section === 2 && x.bench === 'train-run' && x.model === s.model);
  const images = procs.find((p) => p.side === 'calib' && p.train_images)?.train_images;
  const range = s.rounds > 1 ? `, range ${f(s.speedup_min, 2)}–${f(s.speedup_max, 2)}` : '';
  rows.push(`| whole run, ${MODEL_NAMES[s.model] ?? s.model}, ${s.epochs} epoch${s.epochs === 1 ? '' : 's'} on ${images ? f(images, 0) : '?'} Fashion-MNIST training images, ${s.threads} threads, median of ${s.rounds} round${s.rounds === 1 ? '' : 's'}${load(s)} | ${f(s.calib_wall_s)} s (CPU ${f(s.calib_cpu_s)} s) | ${torchName} ${f(s.torch_wall_s)} s (CPU ${f(s.torch_cpu_s)} s) | ${ratio(s.speedup_median)}${range} (CPU ${ratio(s.cpu_speedup_median)}) |`);
}
// A model whose summary never came (cut): its finished process pairs.
for (const model of new Set(lines.filter((x) => x.section === 2 && x.bench === 'train-run').map((x) => x.model))) {
  if (lines.some((x) => x.section === 2 && x.bench === 'train-run-summary' && x.model === model)) continue;
  const procs = lines.filter((x) => x.section === 2 && x.bench === 'train-run' && x.model === model);
  const c = procs.filter((p) => p.side === 'calib');
  const t = procs.filter((p) => p.side === 'torch');
  if (!c.length || !t.length) continue;
  const cw = median(c.map((p) => p.wall_s));
  const tw = median(t.map((p) => p.wall_s));
  rows.push(`| whole run, ${MODEL_NAMES[model] ?? model}, ${procs[0].epochs} epochs on ${f(c[0].train_images ?? NaN, 0)} training images, ${procs[0].threads} threads, ${c.length} + ${t.length} processes (section cut before its summary) | ${f(cw)} s (CPU ${f(median(c.map((p) => p.cpu_s)))} s) | ${torchName} ${f(tw)} s (CPU ${f(median(t.map((p) => p.cpu_s)))} s) | ${ratio(tw / cw)} |`);
}

// 3. The deep scale's whole run, per thread count.
for (const threads of [1, 2]) {
  const c = lines.find((x) => x.section === 3 && x.bench === 'deep-run' && x.side === 'calib' && x.threads === threads);
  const t = lines.find((x) => x.section === 3 && x.bench === 'deep-run' && x.side === 'torch' && x.threads === threads);
  if (!c && !t) continue;
  const side = (d) => (d && d.epochs_done > 0
    ? `${f(d.epoch_s_median)} s/epoch (${d.epochs_done} epoch${d.epochs_done === 1 ? '' : 's'}) → ${d.minutes_per_60_epoch_run === null ? 'run cut before its end' : `${f(d.minutes_per_60_epoch_run)} min per 60-epoch run`}`
    : 'not measured');
  const perRun = c && t && c.minutes_per_60_epoch_run && t.minutes_per_60_epoch_run ? t.minutes_per_60_epoch_run / c.minutes_per_60_epoch_run : NaN;
  const perEpoch = c && t && c.epoch_s_median && t.epoch_s_median ? t.epoch_s_median / c.epoch_s_median : NaN;
  rows.push(`| whole run of the deep scale (ResNet-8 w16, ${f((c ?? t).train_images, 0)} images, validation each epoch; final evaluations, temperature fit), ${threads} thread${threads === 1 ? '' : 's'}${load(c ?? t)} | ${side(c)} | ${torchName} ${side(t)} | ${ratio(perRun)} per run (per epoch ${ratio(perEpoch)}) |`);
}

// 4. Suite throughput: each split, and the best of each side.
const suites = lines.filter((x) => x.section === 4 && x.bench === 'suite-throughput');
const describe = (s) => `${s.jobs} × ${s.threads} thread${s.threads === 1 ? '' : 's'}: ${f(s.runs_per_hour)} runs/h (${s.finished}/${s.runs} runs in ${f(s.wall_s)} s${s.cut ? ', cut' : ''}; ${f(s.epochs_per_hour, 0)} epochs/h)`;
if (suites.length) {
  const calib = suites.filter((s) => s.framework === 'calib');
  const torch = suites.filter((s) => s.framework === 'torch');
  // Whole runs per hour when every configuration ran to its end; else epochs done per hour (a cut configuration's
  // unfinished runs count their epochs but not their final evaluations, so that ratio favours the cut side).
  const whole = suites.every((s) => !s.cut && s.finished === s.runs);
  const key = whole ? 'runs_per_hour' : 'epochs_per_hour';
  const best = (xs) => xs.reduce((a, b) => (b[key] > (a?.[key] ?? -1) ? b : a), null);
  const bc = best(calib);
  const bt = best(torch);
  const r = bc && bt ? bc[key] / bt[key] : NaN;
  const e = (bc ?? bt).epochs;
  rows.push(`| suite throughput at the deep scale (CE runs of ${e} epoch${e === 1 ? '' : 's'}, post-hoc step and report included for calibkit), runs side by side × threads each on 2 cores${load(bc ?? bt)} | ${calib.map(describe).join('; ') || 'not measured'} | ${torch.map((s) => `${torchName} ${describe(s)}`).join('; ') || 'not measured'} | ${ratio(r)} (best split each, ${whole ? 'runs/h' : 'epochs/h: some configurations were cut, not comparable to runs/h'}) |`);
}

const heading = machine
  ? `Idle machine: ${machine.cpu_model ?? '?'} (${machine.nproc_all} CPUs, pinned to ${machine.cores_pinned}), Node ${machine.node}, onnxruntime-node ${machine.onnxruntime_node}, ${torchName}, calibkit ${String(machine.calibkit_commit).slice(0, 12)}, ${machine.started}, load average at start ${machine.load_average?.join(' / ')}.`
  : 'Idle machine (no machine.json beside the file).';
const notes = lines.filter((x) => x.skipped || (x.cut && x.limit_s !== undefined) || x.error).map((x) => `- section ${x.section}, ${x.step}: ${x.skipped ? `skipped (${x.skipped})` : x.cut ? `cut at its limit of ${x.limit_s} s` : x.error}`);
const sections = lines.filter((x) => x.step === 'end of section').map((x) => `${x.section} ${x.name} ${x.elapsed_s} s (load ${x.load_average?.[0]})`);
process.stdout.write(`${heading}\n\n| what | calibkit | peer, same run | ratio |\n| --- | --- | --- | --- |\n${rows.join('\n')}\n\n`
  + `Ratio = PyTorch's time ÷ calibkit's (> 1: calibkit faster); suite throughput: calibkit's runs (or epochs) per hour ÷ PyTorch's.\n`
  + `Sections: ${sections.join('; ') || '—'}.\n${notes.length ? `\nNot measured or incomplete:\n${notes.join('\n')}\n` : ''}`);
