/**
 * The deep-scale pilot of issue 23: which setting puts cross-entropy in the papers' regime (it memorises its training
 * set and keeps sharpening its softmax), by three criteria — training accuracy ≥ 99.5 % (eval mode, the training
 * images), temperature T ≥ 2 fitted by NLL on the validation split, ≥ 70 % of test confidences above 0.99 — and what
 * one run costs. A setting is a CIFAR-style BN ResNet (depth, width) trained on N Fashion-MNIST images for E epochs
 * (5,000 more images validate; SGD η₀ = 0.1, momentum 0.9, no weight decay, batch 128, ÷10 at 50 % and 75 %, no
 * augmentation, the last epoch), by calibkit (`calib train`) and by PyTorch (bench/deep_scale_pilot_torch.py, the
 * same images).
 *
 *   run   --root DIR --framework calib|torch [--epochs 60] [--train 10000] [--width 16] [--depth 8]
 *         [--loss ce|focal] [--seed 0] [--threads 1]
 *         one run into DIR/<setting>/<framework>-<loss>-seed<s>; a finished run is skipped, a stopped one resumes
 *         (`calib train --resume`, the PyTorch script's epoch checkpoint). Each process is timed by /usr/bin/time;
 *         one JSON line per process (wall and CPU seconds, load average at start and end) is appended to
 *         <run>.times.jsonl, so minutes per run add up over resumptions.
 *   table --root DIR --out PREFIX
 *         reads every finished run, writes PREFIX.json (every run's numbers) and PREFIX.md (one row per setting,
 *         framework and loss: mean ± std over seeds of each criterion, pass/fail, minutes per run).
 *
 * Minutes per run are measured on a shared 2-core machine: wall minutes depend on what else runs, so the table
 * shows CPU minutes too (user + sys of the process). With `--threads 1` and two runs side by side on an otherwise
 * idle 2-core machine (`calib suite run --jobs 2 --threads 1`), a run's wall time is close to its CPU time.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readNpy, writeNpy } from '../src/io/npy.js';
import { evaluate } from '../src/metrics/evaluate.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { loadRunData } from '../src/train/trainer-data.js';
import { atomicWriteFile } from '../src/util/atomic-write.js';

const here = dirname(fileURLToPath(import.meta.url));
const CLI = join(here, '..', 'src', 'cli', 'main.js');
const PEER = join(here, '..', '..', 'bench', 'deep_scale_pilot_torch.py');
const VALIDATION = 5000;
/** The commit the first pilot runs were made with (before their records named it: main at 9dca112 plus this script). */
const PILOT_COMMIT = '9dca1127940d68d5f8454622cebe1677e1420bb9';

/** The pilot's criteria (issue 23). */
export const CRITERIA = { trainAccuracy: 0.995, temperature: 2, fractionAbove099: 0.7 } as const;

interface Setting {
  readonly depth: number;
  readonly width: number;
  readonly train: number;
  readonly epochs: number;
}

function settingId(s: Setting): string {
  return `resnet${s.depth}-w${s.width}-n${s.train}-e${s.epochs}`;
}

function parseSettingId(id: string): Setting | null {
  const m = /^resnet(\d+)-w(\d+)-n(\d+)-e(\d+)$/.exec(id);
  return m ? { depth: Number(m[1]), width: Number(m[2]), train: Number(m[3]), epochs: Number(m[4]) } : null;
}

/**
 * The commit of the code that runs: `git rev-parse HEAD` beside this script, or a COMMIT file at the root of a
 * copied build (a pilot runs from a frozen copy of dist/ so that rebuilding the worktree cannot change it).
 */
function codeCommit(): string {
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: here, encoding: 'utf8' });
  if (git.status === 0) return git.stdout.trim();
  const file = join(here, '..', '..', 'COMMIT');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : 'unknown';
}

/** Run `cmd args` under /usr/bin/time; append wall/CPU seconds and the load average to `timesFile`. */
function timed(cmd: string, args: string[], timesFile: string, log: string, env: NodeJS.ProcessEnv = process.env): number {
  const report = join(tmpdir(), `deep-scale-pilot-${process.pid}-${Date.now()}.time`);
  const loadStart = loadavg()[0];
  const fd = openSync(log, 'a');
  const out = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', report, cmd, ...args], { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const [wall, user, sys] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  appendFileSync(timesFile, `${JSON.stringify({ command: [cmd, ...args].join(' '), status: out.status, wall_s: wall, cpu_s: user! + sys!, load_start: loadStart, load_end: loadavg()[0], at: new Date().toISOString(), commit: codeCommit() })}\n`);
  return out.status ?? 1;
}

/** Write calibkit's splits (class-stratified subset, validation hold-out, test) as .npy for the PyTorch peer. */
async function exportSplits(dir: string, train: number): Promise<void> {
  if (existsSync(join(dir, 'test-labels.npy'))) return;
  mkdirSync(dir, { recursive: true });
  const data = await loadRunData(resolveTrainConfig({ dataset: 'fashion-mnist', subset: train + VALIDATION, validation: VALIDATION, out: dir }));
  for (const [name, d] of [['train', data.train], ['val', data.validation], ['test', data.test]] as const) {
    if (d.kind !== 'image') throw new Error('image data expected');
    await writeNpy(join(dir, `${name}-images.npy`), d.images, [d.labels.length, ...d.shape]);
    await writeNpy(join(dir, `${name}-labels.npy`), d.labels, [d.labels.length]);
  }
}

async function run(values: Record<string, string | undefined>): Promise<number> {
  const setting: Setting = { depth: Number(values['depth']), width: Number(values['width']), train: Number(values['train']), epochs: Number(values['epochs']) };
  const { root, framework, loss, seed, threads } = values as Record<string, string>;
  if (framework !== 'calib' && framework !== 'torch') throw new Error(`--framework: expected calib or torch, got ${framework}`);
  if (loss !== 'ce' && loss !== 'focal') throw new Error(`--loss: expected ce or focal, got ${loss}`);
  const dir = join(root, settingId(setting), `${framework}-${loss}-seed${seed}${threads === '1' ? '' : `-t${threads}`}`);
  if (existsSync(join(dir, 'summary.json')) && (framework === 'torch' || existsSync(join(dir, 'calibrator.json')))) return 0;
  mkdirSync(dirname(dir), { recursive: true });
  const times = `${dir}.times.jsonl`;
  const log = `${dir}.log`;
  if (framework === 'torch') {
    const splits = join(root, `splits-n${setting.train}`);
    await exportSplits(splits, setting.train);
    const args = [PEER, '--splits', splits, '--out', dir, '--epochs', String(setting.epochs), '--width', String(setting.width), '--depth', String(setting.depth), '--loss', loss, '--seed', seed, '--threads', threads];
    return timed('/usr/bin/python3', args, times, log, { ...process.env, OMP_NUM_THREADS: threads });
  }
  const resume = existsSync(join(dir, 'config.json')) && readdirSync(dir).some((f) => f.startsWith('checkpoint-'));
  const args = resume
    ? [CLI, 'train', '--resume', dir, '--progress', 'lines', '--progress-seconds', '0']
    : [
        CLI, 'train', '--dataset', 'fashion-mnist', '--subset', String(setting.train + VALIDATION), '--validation', String(VALIDATION),
        '--model', `cifar-resnet-${setting.depth}`, '--model-opt', `width=${setting.width}`, '--loss', loss, ...(loss === 'focal' ? ['--opt', 'gamma=3'] : []),
        '--epochs', String(setting.epochs), '--batch', '128', '--lr', '0.1', '--momentum', '0.9', '--weight-decay', '0', '--schedule', 'multistep:0.5,0.75',
        '--augment', 'none', '--select', 'last', '--evaluate-train', '--calibrate', 'temperature', '--seed', seed, '--threads', threads,
        '--progress', 'lines', '--progress-seconds', '0', '--out', dir, '--force',
      ];
  return timed(process.execPath, args, times, log);
}

interface RunRow {
  readonly setting: string;
  readonly framework: 'calib' | 'torch';
  readonly loss: string;
  readonly seed: number;
  readonly threads: number;
  readonly train_accuracy: number;
  readonly test_accuracy: number;
  readonly mean_confidence: number;
  readonly ece: number;
  readonly temperature: number;
  readonly fraction_above_0_99: number;
  readonly ece_after_temperature: number;
  readonly wall_minutes: number;
  readonly cpu_minutes: number;
  /** Wall seconds of the epochs (training + validation pass), from the run's log. */
  readonly epoch_seconds: number;
  /** The rest of the run (start-up, final evaluations, export, TS fit) in epochs: (wall − epochs' wall) / mean epoch wall. */
  readonly overhead_epochs: number;
  readonly mean_load_average: number;
  readonly processes: number;
  readonly passes: boolean;
  /** calibkit commits that ran it (its processes'). */
  readonly commits: readonly string[];
  /** PyTorch's version (PyTorch runs). */
  readonly torch?: string;
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Test metrics of calib's logits, raw and divided by T (the toolkit's metrics code), and the fraction of confidences > 0.99. */
async function calibTestMetrics(dir: string, t: number): Promise<{ raw: ReturnType<typeof evaluate>; scaled: ReturnType<typeof evaluate>; above: number }> {
  const z = await readNpy(join(dir, 'test-logits.npy'));
  const y = await readNpy(join(dir, 'test-labels.npy'));
  const [rows, cols] = z.shape as [number, number];
  const data = Float64Array.from(z.data as Float32Array);
  const labels = Int32Array.from(y.data as Int32Array);
  const raw = evaluate({ rows, cols, data }, labels, { input: 'logits' });
  const scaled = evaluate({ rows, cols, data: data.map((v) => v / t) }, labels, { input: 'logits' });
  let above = 0;
  for (let i = 0; i < rows; i++) {
    let m = -Infinity;
    for (let k = 0; k < cols; k++) m = Math.max(m, data[i * cols + k]!);
    let s = 0;
    for (let k = 0; k < cols; k++) s += Math.exp(data[i * cols + k]! - m);
    if (1 / s > 0.99) above++;
  }
  return { raw, scaled, above: above / rows };
}

function timesOf(dir: string): { wall: number; cpu: number; load: number; processes: number; commits: string[] } {
  const lines = readFileSync(`${dir}.times.jsonl`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { wall_s: number; cpu_s: number; load_start: number; load_end: number; commit?: string });
  const wall = lines.reduce((a, l) => a + l.wall_s, 0);
  const cpu = lines.reduce((a, l) => a + l.cpu_s, 0);
  const load = lines.reduce((a, l) => a + ((l.load_start + l.load_end) / 2) * l.wall_s, 0) / wall;
  return { wall, cpu, load, processes: lines.length, commits: [...new Set(lines.map((l) => l.commit ?? PILOT_COMMIT))] };
}

/** Wall seconds of each epoch in a run's log.jsonl (calib: epoch_time_s; the PyTorch script: epoch_s). */
function epochTimes(dir: string): number[] {
  return readFileSync(join(dir, 'log.jsonl'), 'utf8').trim().split('\n').map((l) => {
    const r = JSON.parse(l) as { epoch_time_s?: number; epoch_s?: number };
    return (r.epoch_time_s ?? r.epoch_s)!;
  });
}

function passes(r: Pick<RunRow, 'train_accuracy' | 'temperature' | 'fraction_above_0_99'>): boolean {
  return r.train_accuracy >= CRITERIA.trainAccuracy && r.temperature >= CRITERIA.temperature && r.fraction_above_0_99 >= CRITERIA.fractionAbove099;
}

async function readRun(root: string, setting: string, name: string): Promise<RunRow | null> {
  const m = /^(calib|torch)-(ce|focal)-seed(\d+)(?:-t(\d+))?$/.exec(name);
  const dir = join(root, setting, name);
  if (!m || !existsSync(join(dir, 'summary.json')) || !existsSync(`${dir}.times.jsonl`)) return null;
  if (m[1] === 'calib' && !existsSync(join(dir, 'calibrator.json'))) return null;
  const s = readJson(join(dir, 'summary.json'));
  const time = timesOf(dir);
  const epochs = epochTimes(dir);
  const epochWall = epochs.reduce((a, v) => a + v, 0);
  const common = {
    setting, framework: m[1] as 'calib' | 'torch', loss: m[2]!, seed: Number(m[3]), threads: Number(m[4] ?? 1),
    wall_minutes: time.wall / 60, cpu_minutes: time.cpu / 60, epoch_seconds: epochWall, overhead_epochs: (time.wall - epochWall) / (epochWall / epochs.length),
    mean_load_average: time.load, processes: time.processes, commits: time.commits,
  };
  let row: Omit<RunRow, 'passes'>;
  if (m[1] === 'torch') {
    const test = s['test'] as Record<string, number>;
    row = {
      ...common,
      train_accuracy: (s['train'] as Record<string, number>)['accuracy']!,
      test_accuracy: test['accuracy']!,
      mean_confidence: test['mean_confidence']!,
      ece: test['ece']!,
      temperature: s['temperature'] as number,
      fraction_above_0_99: test['fraction_confidence_above_0_99']!,
      ece_after_temperature: (s['test_after_temperature'] as Record<string, number>)['ece']!,
      torch: s['torch'] as string,
    };
  } else {
    const t = readJson(join(dir, 'calibrator.json'))['temperature'] as number;
    const { raw, scaled, above } = await calibTestMetrics(dir, t);
    row = {
      ...common,
      train_accuracy: (s['train'] as Record<string, number>)['accuracy']!,
      test_accuracy: raw.accuracy,
      mean_confidence: raw.mean_confidence,
      ece: raw.ece,
      temperature: t,
      fraction_above_0_99: above,
      ece_after_temperature: scaled.ece,
    };
  }
  return { ...row, passes: passes(row) };
}

interface Spread {
  readonly mean: number;
  readonly std: number;
}

function meanStd(values: number[]): Spread {
  const mean = values.reduce((a, v) => a + v, 0) / values.length;
  const std = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : 0;
  return { mean, std };
}

const METRICS = ['train_accuracy', 'test_accuracy', 'mean_confidence', 'ece', 'temperature', 'fraction_above_0_99', 'ece_after_temperature', 'wall_minutes', 'cpu_minutes', 'overhead_epochs', 'mean_load_average'] as const;

/** One row of the table: a setting, framework, loss and thread count over its seeds. */
function summarise(g: RunRow[]) {
  const first = g[0]!;
  const stats = Object.fromEntries(METRICS.map((k) => [k, meanStd(g.map((r) => r[k]))])) as Record<(typeof METRICS)[number], Spread>;
  return { setting: first.setting, ...parseSettingId(first.setting)!, framework: first.framework, loss: first.loss, threads: first.threads, seeds: g.map((r) => r.seed), ...stats, all_seeds_pass: g.every((r) => r.passes) };
}
type Row = ReturnType<typeof summarise>;

async function table(root: string, out: string): Promise<void> {
  const runs: RunRow[] = [];
  for (const setting of readdirSync(root).filter((d) => parseSettingId(d) !== null).sort()) {
    for (const name of readdirSync(join(root, setting)).sort()) {
      const row = await readRun(root, setting, name);
      if (row) runs.push(row);
    }
  }
  const groups = new Map<string, RunRow[]>();
  for (const r of runs) {
    const key = `${r.setting}|${r.framework}|${r.loss}|${r.threads}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const cost = (r: Row): number => r.train * r.epochs;
  const rows = [...groups.values()].map(summarise).sort((a, b) => cost(b) - cost(a) || a.setting.localeCompare(b.setting) || a.framework.localeCompare(b.framework) || a.loss.localeCompare(b.loss) || a.threads - b.threads);
  // The cheapest calibkit setting whose CE runs (at least two seeds, one thread) all meet every criterion.
  const passing = rows.filter((r) => r.framework === 'calib' && r.loss === 'ce' && r.threads === 1 && r.seeds.length >= 2 && r.all_seeds_pass);
  const chosen = passing.sort((a, b) => a.cpu_minutes.mean - b.cpu_minutes.mean)[0];
  const referenceCosts = rows
    .filter((r) => r.framework === 'calib' && r.loss === 'ce')
    .map((r) => ({
      setting: r.setting, model: `cifar-resnet-${r.depth}`, width: r.width, train: r.train, validation: VALIDATION, epochs: r.epochs, batch: 128, threads: r.threads,
      // on `threads` cores of its own (a multi-thread run is taken to keep its cores busy)
      seconds_per_epoch: (r.cpu_minutes.mean * 60) / (r.epochs + r.overhead_epochs.mean) / r.threads,
      overhead_epochs: r.overhead_epochs.mean,
      runs: r.seeds.length,
    }));
  const commit = [...new Set(runs.flatMap((r) => r.commits))].join(', ');
  const json = { criteria: CRITERIA, validation: VALIDATION, calibkit_commit: commit, generated_by: 'node dist/bench/deep-scale-pilot.js table', chosen: chosen?.setting ?? null, reference_costs: referenceCosts, summary: rows, runs };
  await atomicWriteFile(`${out}.json`, `${JSON.stringify(json, null, 2)}\n`);
  await atomicWriteFile(`${out}.md`, page(rows, chosen, commit, runs.find((r) => r.torch)?.torch ?? 'not run'));
  process.stdout.write(`wrote ${out}.json ${out}.md\n`);
}

/** The pilot's page: the protocol, the table and the choice, from the rows. */
function page(rows: Row[], chosen: Row | undefined, commit: string, torch: string): string {
  const pct = (v: Spread) => `${(100 * v.mean).toFixed(2)} ± ${(100 * v.std).toFixed(2)}`;
  const num = (v: Spread, d = 2) => `${v.mean.toFixed(d)} ± ${v.std.toFixed(d)}`;
  const name = (r: Row) => `ResNet-${r.depth} w${r.width}, ${r.train.toLocaleString('en')} images, ${r.epochs} epochs`;
  const table = [
    '| setting | framework | loss | seeds | train acc. % | test acc. % | mean conf. % | ECE % | T | conf. > 0.99 % | ECE after TS % | criteria | CPU min/run | wall min/run | threads | load |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) =>
      `| ${name(r)} | ${r.framework === 'calib' ? 'calibkit' : 'PyTorch'} | ${r.loss === 'focal' ? 'focal γ = 3' : 'CE'} | ${r.seeds.length} | ${pct(r.train_accuracy)} | ${pct(r.test_accuracy)} | ${pct(r.mean_confidence)} | ${pct(r.ece)} | ${num(r.temperature)} | ${pct(r.fraction_above_0_99)} | ${pct(r.ece_after_temperature)} | ${r.loss === 'ce' ? (r.all_seeds_pass ? 'pass' : 'fail') : '—'} | ${num(r.cpu_minutes, 1)} | ${num(r.wall_minutes, 1)} | ${r.threads} | ${r.mean_load_average.mean.toFixed(0)} |`,
    ),
  ];
  const ratios = rows
    .filter((r) => r.framework === 'calib' && r.threads === 1)
    .flatMap((c) => {
      const t = rows.find((r) => r.framework === 'torch' && r.setting === c.setting && r.loss === c.loss && r.threads === 1);
      return t ? [`${name(c)}, ${c.loss === 'ce' ? 'CE' : 'focal'}: PyTorch ${t.cpu_minutes.mean.toFixed(1)} CPU-min, calibkit ${c.cpu_minutes.mean.toFixed(1)} (calibkit ÷ PyTorch = ${(c.cpu_minutes.mean / t.cpu_minutes.mean).toFixed(2)})`] : [];
    });
  const threadRatio = rows
    .filter((r) => r.framework === 'calib' && r.threads === 2)
    .flatMap((two) => {
      const one = rows.find((r) => r.framework === 'calib' && r.setting === two.setting && r.loss === two.loss && r.threads === 1);
      if (!one) return [];
      const ratio = two.cpu_minutes.mean / one.cpu_minutes.mean;
      return [`${name(two)}: one run at 2 threads used ${two.cpu_minutes.mean.toFixed(1)} CPU-min, at 1 thread ${one.cpu_minutes.mean.toFixed(1)}: on two idle cores \`--jobs 2 --threads 1\` would train ${ratio.toFixed(2)}× the runs per hour of \`--jobs 1 --threads 2\` (if the two-thread run keeps both cores busy, as ONNX Runtime's spinning thread pool does).`];
    });
  return `# Deep-scale pilot: where cross-entropy memorises (issue 23)

Generated by \`node dist/bench/deep-scale-pilot.js table\` from the runs' own records (summary.json, calibrator.json,
logits, and the /usr/bin/time record of every process); raw numbers per run in
[deep-scale-pilot.json](deep-scale-pilot.json). calibkit at commit ${commit.split(', ').map((c) => `\`${c.slice(0, 12)}\``).join(', ')} (the training
engine before the convolution speed-up of issue 24), PyTorch ${torch} (Debian, /usr/bin/python3).

**Criteria** (issue 23): cross-entropy reaches ≥ ${100 * CRITERIA.trainAccuracy} % training accuracy (eval mode, on the training
images), a temperature T ≥ ${CRITERIA.temperature} fitted by NLL on the validation split, and ≥ ${100 * CRITERIA.fractionAbove099} % of test confidences
above 0.99. A setting passes when every CE seed meets all three.

**Recipe** (every row): a CIFAR-style BN ResNet (option-A shortcuts, kaiming-normal init; one basic block per
stage for ResNet-8, widths w/2w/4w) on Fashion-MNIST: a class-stratified subset of the training split, of which
${VALIDATION.toLocaleString('en')} images validate; the full 10,000-image test split; SGD η₀ = 0.1, momentum 0.9, **no weight decay**,
batch 128, η ÷ 10 at 50 % and 75 % of the epochs, no augmentation, the last epoch's weights. calibkit: \`calib
train … --select last --evaluate-train --calibrate temperature\`; PyTorch: bench/deep_scale_pilot_torch.py on the
same images (exported from calibkit's splits). ECE: 15 equal-width bins, (l, u]. ± is the standard deviation over
seeds (0 with one seed).

**Minutes per run.** Every run had one thread (\`--threads 1\`, \`OMP_NUM_THREADS=1\`) unless the threads column
says otherwise, and ran beside other work on a shared 2-core machine (the load column is the mean 1-minute load
average during the run): wall minutes there measure the other work more than the run. CPU minutes (user + sys of
the whole process: start-up, data, training, final evaluations) are what one run costs on a core of its own, i.e.
with \`calib suite run --jobs 2 --threads 1\` on an otherwise idle 2-core machine.

${table.join('\n')}

${chosen ? `**Chosen for the deep scale: ${name(chosen)}** — the cheapest calibkit setting whose CE runs (${chosen.seeds.length} seeds) all pass: training accuracy ${pct(chosen.train_accuracy)} %, T = ${num(chosen.temperature)}, ${pct(chosen.fraction_above_0_99)} % of test confidences above 0.99, ${chosen.cpu_minutes.mean.toFixed(1)} CPU-minutes per run.` : '**No calibkit setting has passed with at least two seeds yet.**'}

calibkit vs PyTorch, CPU minutes per run (same setting, one thread each):
${ratios.length ? ratios.map((r) => `- ${r}`).join('\n') : '- (no setting run by both)'}
${threadRatio.length ? `\nThreads: ${threadRatio.join(' ')}\n` : ''}`;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    root: { type: 'string', default: '/work/repro/pilot' },
    framework: { type: 'string', default: 'calib' },
    epochs: { type: 'string', default: '60' },
    train: { type: 'string', default: '10000' },
    width: { type: 'string', default: '16' },
    depth: { type: 'string', default: '8' },
    loss: { type: 'string', default: 'ce' },
    seed: { type: 'string', default: '0' },
    threads: { type: 'string', default: '1' },
    out: { type: 'string', default: 'docs/reproductions/deep-scale-pilot' },
  },
});
if (positionals[0] === 'run') process.exitCode = await run(values);
else if (positionals[0] === 'table') await table(values.root!, values.out!);
else {
  process.stderr.write('usage: node dist/bench/deep-scale-pilot.js run|table [flags] (see the file comment)\n');
  process.exitCode = 2;
}
