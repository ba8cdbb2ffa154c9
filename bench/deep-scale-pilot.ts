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
 *         (`calib train --resume --calibrate temperature`, the PyTorch script's epoch checkpoint). Each process is
 *         timed by /usr/bin/time; one JSON line per process (wall and CPU seconds, load average at start and end,
 *         epoch lines in the run's log before and after it) is appended to <run>.times.jsonl.
 *   table --root DIR --out PREFIX
 *         reads every run, writes PREFIX.json (every run's numbers) and PREFIX.md: per setting, framework and loss
 *         the finished seeds' criteria (mean ± std) and pass/fail, the setting chosen (or provisional with one
 *         seed), CPU seconds per epoch and per run, and the unfinished runs with their epochs and resume command.
 *
 * Minutes per run are measured on a shared 2-core machine: wall minutes depend on what else runs, so the table
 * shows CPU minutes too (user + sys of the process). With `--threads 1` and two runs side by side on an otherwise
 * idle 2-core machine (`calib suite run --jobs 2 --threads 1`), a run's wall time is close to its CPU time.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readNpy, writeNpy } from '../src/io/npy.js';
import { evaluate } from '../src/metrics/accumulators/evaluate.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { loadRunData } from '../src/train/run/trainer-data.js';
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

/** Epoch lines in a run's log.jsonl (0 before the run starts). */
function epochsLogged(path: string): number {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '').length
    : 0;
}

/** Run `cmd args` under /usr/bin/time; append wall/CPU seconds and the load average to `timesFile`. */
function timed(cmd: string, args: string[], timesFile: string, log: string, epochsLog: string, env: NodeJS.ProcessEnv = process.env): number {
  const epochsBefore = epochsLogged(epochsLog);
  const report = join(tmpdir(), `deep-scale-pilot-${process.pid}-${Date.now()}.time`);
  const loadStart = loadavg()[0];
  const fd = openSync(log, 'a');
  const out = spawnSync('/usr/bin/time', ['-f', '%e %U %S', '-o', report, cmd, ...args], { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const [wall, user, sys] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  appendFileSync(
    timesFile,
    `${JSON.stringify({ command: [cmd, ...args].join(' '), status: out.status, wall_s: wall, cpu_s: user! + sys!, load_start: loadStart, load_end: loadavg()[0], epochs_before: epochsBefore, epochs_after: epochsLogged(epochsLog), at: new Date().toISOString(), commit: codeCommit() })}\n`,
  );
  return out.status ?? 1;
}

/** Write calibkit's splits (class-stratified subset, validation hold-out, test) as .npy for the PyTorch peer. */
async function exportSplits(dir: string, train: number): Promise<void> {
  if (existsSync(join(dir, 'test-labels.npy'))) return;
  mkdirSync(dir, { recursive: true });
  const data = await loadRunData(resolveTrainConfig({ dataset: 'fashion-mnist', subset: train + VALIDATION, validation: VALIDATION, out: dir }));
  for (const [name, d] of [
    ['train', data.train],
    ['val', data.validation],
    ['test', data.test],
  ] as const) {
    if (d.kind !== 'image') throw new Error('image data expected');
    await writeNpy(join(dir, `${name}-images.npy`), d.images, [d.labels.length, ...d.shape]);
    await writeNpy(join(dir, `${name}-labels.npy`), d.labels, [d.labels.length]);
  }
}

async function run(values: Record<string, string | undefined>): Promise<number> {
  const setting: Setting = { depth: Number(values['depth']), width: Number(values['width']), train: Number(values['train']), epochs: Number(values['epochs']) };
  const { root, framework, loss, seed, threads } = values as { root: string; framework: string; loss: string; seed: string; threads: string };
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
    const args = [
      PEER,
      '--splits',
      splits,
      '--out',
      dir,
      '--epochs',
      String(setting.epochs),
      '--width',
      String(setting.width),
      '--depth',
      String(setting.depth),
      '--loss',
      loss,
      '--seed',
      seed,
      '--threads',
      threads,
    ];
    return timed('/usr/bin/python3', args, times, log, join(dir, 'log.jsonl'), { ...process.env, OMP_NUM_THREADS: threads });
  }
  const resume = existsSync(join(dir, 'config.json')) && readdirSync(dir).some((f) => f.startsWith('checkpoint-'));
  const args = resume
    ? [CLI, 'train', '--resume', dir, '--calibrate', 'temperature', '--progress', 'lines', '--progress-seconds', '0']
    : [
        CLI,
        'train',
        '--dataset',
        'fashion-mnist',
        '--subset',
        String(setting.train + VALIDATION),
        '--validation',
        String(VALIDATION),
        '--model',
        `cifar-resnet-${setting.depth}`,
        '--model-opt',
        `width=${setting.width}`,
        '--loss',
        loss,
        ...(loss === 'focal' ? ['--opt', 'gamma=3'] : []),
        '--epochs',
        String(setting.epochs),
        '--batch',
        '128',
        '--lr',
        '0.1',
        '--momentum',
        '0.9',
        '--weight-decay',
        '0',
        '--schedule',
        'multistep:0.5,0.75',
        '--augment',
        'none',
        '--select',
        'last',
        '--evaluate-train',
        '--calibrate',
        'temperature',
        '--seed',
        seed,
        '--threads',
        threads,
        '--progress',
        'lines',
        '--progress-seconds',
        '0',
        '--out',
        dir,
        '--force',
      ];
  return timed(process.execPath, args, times, log, join(dir, 'log.jsonl'));
}

/** One process of a run, as `timed` recorded it (epochs_before/after: epoch lines in the run's log around it). */
interface ProcessTime {
  readonly status: number | null;
  readonly wall_s: number;
  readonly cpu_s: number;
  readonly load_start: number;
  readonly load_end: number;
  readonly epochs_before: number;
  readonly epochs_after: number;
  readonly commit?: string;
}

/** The criteria's numbers of a finished run (test split unless named). */
interface Outcome {
  readonly train_accuracy: number;
  readonly test_accuracy: number;
  readonly mean_confidence: number;
  readonly ece: number;
  readonly temperature: number;
  readonly fraction_above_0_99: number;
  readonly ece_after_temperature: number;
}

interface RunRow {
  readonly setting: string;
  readonly framework: 'calib' | 'torch';
  readonly loss: string;
  readonly seed: number;
  readonly threads: number;
  /** Epoch lines in the run's log; `epochs` of the setting when it finished. */
  readonly epochs_reached: number;
  readonly epochs: number;
  /** The run's outcome; null while it has not finished (summary.json, and calibrator.json for calibkit). */
  readonly outcome: Outcome | null;
  readonly passes: boolean | null;
  /** The last epoch's training loss and validation accuracy (from its log). */
  readonly last_train_loss: number;
  readonly last_val_accuracy: number;
  /** Wall seconds of the logged epochs (training + validation pass), mean per epoch. */
  readonly wall_seconds_per_epoch: number;
  /** Recorded processes (a process killed with its machine leaves no record: its epochs are in the log, not here). */
  readonly processes: readonly ProcessTime[];
  /** calibkit commits that ran it (of its recorded processes). */
  readonly commits: readonly string[];
  /** CPU seconds of the whole run when it finished and every part of it was measured (wholeRunCpu); else null. */
  readonly whole_run_cpu_s: number | null;
  /** PyTorch's version (finished PyTorch runs). */
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

function processTimes(dir: string): ProcessTime[] {
  const file = `${dir}.times.jsonl`;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ProcessTime);
}

/** The epoch lines of a run's log.jsonl (calib: epoch_time_s, val_accuracy; the PyTorch script: epoch_s, val_accuracy). */
function epochLog(dir: string): { seconds: number; trainLoss: number; valAccuracy: number }[] {
  const file = join(dir, 'log.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const r = JSON.parse(l) as { epoch_time_s?: number; epoch_s?: number; train_loss: number; val_accuracy: number };
      return { seconds: (r.epoch_time_s ?? r.epoch_s)!, trainLoss: r.train_loss, valAccuracy: r.val_accuracy };
    });
}

function passes(r: Outcome): boolean {
  return r.train_accuracy >= CRITERIA.trainAccuracy && r.temperature >= CRITERIA.temperature && r.fraction_above_0_99 >= CRITERIA.fractionAbove099;
}

async function outcomeOf(dir: string, framework: 'calib' | 'torch', s: Record<string, unknown>): Promise<Outcome> {
  const trainAccuracy = (s['train'] as Record<string, number>)['accuracy']!;
  if (framework === 'torch') {
    const test = s['test'] as Record<string, number>;
    return {
      train_accuracy: trainAccuracy,
      test_accuracy: test['accuracy']!,
      mean_confidence: test['mean_confidence']!,
      ece: test['ece']!,
      temperature: s['temperature'] as number,
      fraction_above_0_99: test['fraction_confidence_above_0_99']!,
      ece_after_temperature: (s['test_after_temperature'] as Record<string, number>)['ece']!,
    };
  }
  const t = readJson(join(dir, 'calibrator.json'))['temperature'] as number;
  const { raw, scaled, above } = await calibTestMetrics(dir, t);
  return {
    train_accuracy: trainAccuracy,
    test_accuracy: raw.accuracy,
    mean_confidence: raw.mean_confidence,
    ece: raw.ece,
    temperature: t,
    fraction_above_0_99: above,
    ece_after_temperature: scaled.ece,
  };
}

/**
 * CPU seconds of a whole finished run. PyTorch: the script's own counter (summary.json `cpu_s`, carried across
 * resumes in its checkpoints; it leaves out Python's start-up and work lost with a killed process). calibkit: the
 * sum over its recorded processes when they cover epochs 0 → the last without a gap (each process's start-up and
 * any work lost with a killed process included, so this errs high); null when a process went unrecorded.
 */
function wholeRunCpu(framework: 'calib' | 'torch', summary: Record<string, unknown>, processes: ProcessTime[], epochs: number): number | null {
  if (framework === 'torch') return typeof summary['cpu_s'] === 'number' ? summary['cpu_s'] : null;
  let reached = 0;
  for (const p of [...processes].sort((a, b) => a.epochs_before - b.epochs_before)) {
    if (p.epochs_before !== reached) return null;
    reached = p.epochs_after;
  }
  return reached === epochs ? processes.reduce((a, p) => a + p.cpu_s, 0) : null;
}

async function readRun(root: string, setting: string, name: string): Promise<RunRow | null> {
  const m = /^(calib|torch)-(ce|focal)-seed(\d+)(?:-t(\d+))?$/.exec(name);
  const dir = join(root, setting, name);
  const epochs = epochLog(dir);
  if (!m || epochs.length === 0) return null;
  const framework = m[1] as 'calib' | 'torch';
  const finished = existsSync(join(dir, 'summary.json')) && (framework === 'torch' || existsSync(join(dir, 'calibrator.json')));
  const outcome = finished ? await outcomeOf(dir, framework, readJson(join(dir, 'summary.json'))) : null;
  const processes = processTimes(dir);
  const last = epochs[epochs.length - 1]!;
  return {
    setting,
    framework,
    loss: m[2]!,
    seed: Number(m[3]),
    threads: Number(m[4] ?? 1),
    epochs_reached: epochs.length,
    epochs: parseSettingId(setting)!.epochs,
    outcome,
    passes: outcome ? passes(outcome) : null,
    last_train_loss: last.trainLoss,
    last_val_accuracy: last.valAccuracy,
    wall_seconds_per_epoch: epochs.reduce((a, e) => a + e.seconds, 0) / epochs.length,
    processes,
    commits: [...new Set(processes.map((p) => p.commit ?? PILOT_COMMIT))],
    whole_run_cpu_s: finished ? wholeRunCpu(framework, readJson(join(dir, 'summary.json')), processes, parseSettingId(setting)!.epochs) : null,
    ...(finished && framework === 'torch' ? { torch: readJson(join(dir, 'summary.json'))['torch'] as string } : {}),
  };
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

/**
 * CPU cost of one run of a group, from its recorded processes: seconds per epoch = Σ CPU ÷ Σ epochs over the
 * processes that trained epochs and did not end their run (each includes its own start-up, so this errs high);
 * the end of a run (final evaluations of the training, validation and test splits, export, temperature fit, and
 * that process's start-up) = a finishing process's CPU − its epochs × seconds per epoch, in epochs. Null parts
 * when no such process was recorded.
 */
function cpuCost(g: RunRow[]): { seconds_per_epoch: number | null; epochs_measured: number; overhead_epochs: number | null; minutes_per_run: number | null } {
  const ends = (r: RunRow, p: ProcessTime) => p.status === 0 && r.outcome !== null && p.epochs_after === r.epochs;
  const middle = g.flatMap((r) => r.processes.filter((p) => !ends(r, p) && p.epochs_after > p.epochs_before));
  const epochsMeasured = middle.reduce((a, p) => a + p.epochs_after - p.epochs_before, 0);
  const perEpoch = epochsMeasured > 0 ? middle.reduce((a, p) => a + p.cpu_s, 0) / epochsMeasured : null;
  const finishing = g.flatMap((r) => r.processes.filter((p) => ends(r, p)));
  const overhead = perEpoch !== null && finishing.length ? meanStd(finishing.map((p) => (p.cpu_s - (p.epochs_after - p.epochs_before) * perEpoch) / perEpoch)).mean : null;
  const epochs = g[0]!.epochs;
  return {
    seconds_per_epoch: perEpoch,
    epochs_measured: epochsMeasured,
    overhead_epochs: overhead,
    minutes_per_run: perEpoch !== null && overhead !== null ? (perEpoch * (epochs + overhead)) / 60 : null,
  };
}

/** Whole-run CPU seconds over the runs of a group whose every process was recorded (wholeRunCpu), with their seeds. */
function wholeRunSpread(g: RunRow[]): { seeds: number[]; seconds: Spread } | null {
  const measured = g.filter((r) => r.whole_run_cpu_s !== null);
  return measured.length ? { seeds: measured.map((r) => r.seed), seconds: meanStd(measured.map((r) => r.whole_run_cpu_s!)) } : null;
}

const OUTCOMES = ['train_accuracy', 'test_accuracy', 'mean_confidence', 'ece', 'temperature', 'fraction_above_0_99', 'ece_after_temperature'] as const;

/** One row of the table: a setting, framework, loss and thread count over its finished seeds (and the cost of all its runs). */
function summarise(g: RunRow[]) {
  const first = g[0]!;
  const done = g.filter((r) => r.outcome !== null);
  const stats = done.length ? (Object.fromEntries(OUTCOMES.map((k) => [k, meanStd(done.map((r) => r.outcome![k]))])) as Record<(typeof OUTCOMES)[number], Spread>) : null;
  return {
    setting: first.setting,
    ...parseSettingId(first.setting)!,
    framework: first.framework,
    loss: first.loss,
    threads: first.threads,
    seeds: done.map((r) => r.seed),
    unfinished: g.filter((r) => r.outcome === null).map((r) => ({ seed: r.seed, epochs_reached: r.epochs_reached })),
    outcome: stats,
    all_seeds_pass: done.length > 0 && done.every((r) => r.passes),
    wall_seconds_per_epoch: meanStd(g.map((r) => r.wall_seconds_per_epoch)).mean,
    cpu: cpuCost(g),
    whole_run_cpu: wholeRunSpread(g),
  };
}
type Row = ReturnType<typeof summarise>;

/** The command that continues (or starts) a run, as the pilot's page prints it. */
function resumeCommand(r: RunRow): string {
  const s = parseSettingId(r.setting)!;
  return `node dist/bench/deep-scale-pilot.js run --root ROOT --framework ${r.framework} --depth ${s.depth} --width ${s.width} --train ${s.train} --epochs ${s.epochs} --loss ${r.loss} --seed ${r.seed} --threads ${r.threads}`;
}

async function table(root: string, out: string): Promise<void> {
  const runs: RunRow[] = [];
  for (const setting of readdirSync(root)
    .filter((d) => parseSettingId(d) !== null)
    .sort()) {
    for (const name of readdirSync(join(root, setting))
      .filter((n) => statSync(join(root, setting, n)).isDirectory())
      .sort()) {
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
  const rows = [...groups.values()]
    .map(summarise)
    .sort((a, b) => cost(b) - cost(a) || a.setting.localeCompare(b.setting) || a.framework.localeCompare(b.framework) || a.loss.localeCompare(b.loss) || a.threads - b.threads);
  const calibCe = rows.filter((r) => r.framework === 'calib' && r.loss === 'ce' && r.threads === 1 && r.all_seeds_pass);
  const cheapest = (c: Row[]) => c.sort((a, b) => cost(a) - cost(b))[0];
  // Chosen: the cheapest calibkit setting whose CE runs (at least two finished seeds, one thread) all meet every criterion.
  const chosen = cheapest(calibCe.filter((r) => r.seeds.length >= 2));
  // Provisional, until a second seed finishes: the cheapest whose finished CE seeds (one or more) all meet every criterion.
  const provisional = chosen ? undefined : cheapest(calibCe);
  const referenceCosts = rows
    .filter((r) => r.framework === 'calib' && r.loss === 'ce' && r.cpu.seconds_per_epoch !== null && r.cpu.overhead_epochs !== null)
    .map((r) => ({
      setting: r.setting,
      model: `cifar-resnet-${r.depth}`,
      width: r.width,
      train: r.train,
      validation: VALIDATION,
      epochs: r.epochs,
      batch: 128,
      threads: r.threads,
      // on `threads` cores of its own (a multi-thread run is taken to keep its cores busy)
      seconds_per_epoch: r.cpu.seconds_per_epoch! / r.threads,
      overhead_epochs: r.cpu.overhead_epochs!,
      epochs_measured: r.cpu.epochs_measured,
    }));
  const commit = [...new Set(runs.flatMap((r) => r.commits))].join(', ') || PILOT_COMMIT;
  const unfinished = runs.filter((r) => r.outcome === null);
  const json = {
    criteria: CRITERIA,
    validation: VALIDATION,
    calibkit_commit: commit,
    generated_by: 'node dist/bench/deep-scale-pilot.js table',
    chosen: chosen?.setting ?? null,
    provisional: provisional?.setting ?? null,
    reference_costs: referenceCosts,
    summary: rows,
    unfinished: unfinished.map((r) => ({ setting: r.setting, framework: r.framework, loss: r.loss, seed: r.seed, epochs_reached: r.epochs_reached, epochs: r.epochs, resume: resumeCommand(r) })),
    runs,
  };
  await atomicWriteFile(`${out}.json`, `${JSON.stringify(json, null, 2)}\n`);
  await atomicWriteFile(`${out}.md`, page(rows, { chosen, provisional }, commit, runs.find((r) => r.torch)?.torch ?? 'not finished', unfinished));
  process.stdout.write(`wrote ${out}.json ${out}.md\n`);
}

/** The pilot's page: the protocol, the table and the choice, from the rows. */
function page(rows: Row[], choice: { chosen: Row | undefined; provisional: Row | undefined }, commit: string, torch: string, unfinished: RunRow[]): string {
  const pct = (v: Spread) => `${(100 * v.mean).toFixed(2)} ± ${(100 * v.std).toFixed(2)}`;
  const num = (v: Spread, d = 2) => `${v.mean.toFixed(d)} ± ${v.std.toFixed(d)}`;
  const name = (r: { depth: number; width: number; train: number; epochs: number }) => `ResNet-${r.depth} w${r.width}, ${r.train.toLocaleString('en')} images, ${r.epochs} epochs`;
  const fw = (f: string) => (f === 'calib' ? 'calibkit' : 'PyTorch');
  const lossName = (l: string) => (l === 'focal' ? 'focal γ = 3' : 'CE');
  const finished = rows.filter((r) => r.outcome !== null);
  const table = [
    '| setting | framework | loss | seeds | train acc. % | test acc. % | mean conf. % | ECE % | T | conf. > 0.99 % | ECE after TS % | criteria | threads |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...finished.map((r) => {
      const o = r.outcome!;
      return `| ${name(r)} | ${fw(r.framework)} | ${lossName(r.loss)} | ${r.seeds.join(', ')} | ${pct(o.train_accuracy)} | ${pct(o.test_accuracy)} | ${pct(o.mean_confidence)} | ${pct(o.ece)} | ${num(o.temperature)} | ${pct(o.fraction_above_0_99)} | ${pct(o.ece_after_temperature)} | ${r.loss === 'ce' ? (r.all_seeds_pass ? 'pass' : 'fail') : '—'} | ${r.threads} |`;
    }),
  ];
  const costs = [
    '| setting | framework | loss | threads | CPU s/epoch | epochs it is measured over | end of a run, epochs | CPU min/run | wall s/epoch here (logs) |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${name(r)} | ${fw(r.framework)} | ${lossName(r.loss)} | ${r.threads} | ${r.cpu.seconds_per_epoch?.toFixed(1) ?? '—'} | ${r.cpu.epochs_measured} | ${r.cpu.overhead_epochs?.toFixed(2) ?? '—'} | ${r.cpu.minutes_per_run?.toFixed(1) ?? '—'} | ${r.wall_seconds_per_epoch.toFixed(0)} |`,
    ),
  ];
  const ratios = rows
    .filter((r) => r.framework === 'calib' && r.threads === 1 && r.cpu.seconds_per_epoch !== null)
    .flatMap((c) => {
      const t = rows.find((r) => r.framework === 'torch' && r.setting === c.setting && r.loss === c.loss && r.threads === 1 && r.cpu.seconds_per_epoch !== null);
      return t
        ? [
            `${name(c)}, ${lossName(c.loss)}: PyTorch ${t.cpu.seconds_per_epoch!.toFixed(1)} CPU-s/epoch, calibkit ${c.cpu.seconds_per_epoch!.toFixed(1)} (calibkit ÷ PyTorch = ${(c.cpu.seconds_per_epoch! / t.cpu.seconds_per_epoch!).toFixed(2)})`,
          ]
        : [];
    });
  const wholeRuns = rows
    .filter((r) => r.framework === 'calib' && r.threads === 1 && r.whole_run_cpu !== null)
    .flatMap((c) => {
      const t = rows.find((r) => r.framework === 'torch' && r.setting === c.setting && r.loss === c.loss && r.threads === 1 && r.whole_run_cpu !== null);
      if (!t) return [];
      const seeds = (x: Row) => `seed${x.whole_run_cpu!.seeds.length === 1 ? '' : 's'} ${x.whole_run_cpu!.seeds.join(', ')}`;
      return [
        `${name(c)}, ${lossName(c.loss)}, whole run (every epoch, the final evaluations and the temperature fit): PyTorch ${t.whole_run_cpu!.seconds.mean.toFixed(0)} CPU-s (${seeds(t)}), calibkit ${c.whole_run_cpu!.seconds.mean.toFixed(0)} CPU-s (${seeds(c)}) (calibkit ÷ PyTorch = ${(c.whole_run_cpu!.seconds.mean / t.whole_run_cpu!.seconds.mean).toFixed(2)}; < 1 = calibkit faster)`,
      ];
    });
  const o = (r: Row) => r.outcome!;
  const verdict = choice.chosen
    ? `**Chosen for the deep scale: ${name(choice.chosen)}** — the cheapest calibkit setting whose CE runs (${choice.chosen.seeds.length} seeds) all pass: training accuracy ${pct(o(choice.chosen).train_accuracy)} %, T = ${num(o(choice.chosen).temperature)}, ${pct(o(choice.chosen).fraction_above_0_99)} % of test confidences above 0.99.`
    : choice.provisional
      ? `**No calibkit setting has passed with two seeds yet. Provisional: ${name(choice.provisional)}** — its ${choice.provisional.seeds.length} finished CE seed${choice.provisional.seeds.length === 1 ? '' : 's'} pass${choice.provisional.seeds.length === 1 ? 'es' : ''} every criterion (training accuracy ${pct(o(choice.provisional).train_accuracy)} %, T = ${num(o(choice.provisional).temperature)}, ${pct(o(choice.provisional).fraction_above_0_99)} % of test confidences above 0.99); it becomes the choice when a second seed passes too.`
      : '**No calibkit setting has passed yet.**';
  const pending = unfinished.length
    ? `## Runs not finished

Their epochs so far are in the runs' logs; each resumes from its last checkpoint with the command shown (from a build
of this repository; ROOT is the pilot's directory, /work/repro/pilot on the machine that ran it).

| setting | framework | loss | seed | epochs reached | last training loss | last val. acc. % | continue with |
| --- | --- | --- | --- | --- | --- | --- | --- |
${unfinished.map((r) => `| ${name(parseSettingId(r.setting)!)} | ${fw(r.framework)} | ${lossName(r.loss)} | ${r.seed} | ${r.epochs_reached} / ${r.epochs} | ${r.last_train_loss.toFixed(4)} | ${(100 * r.last_val_accuracy).toFixed(2)} | \`${resumeCommand(r)}\` |`).join('\n')}
`
    : '';
  return `# Deep-scale pilot: where cross-entropy memorises (issue 23)

Generated by \`node dist/bench/deep-scale-pilot.js table\` from the runs' own records (log.jsonl, summary.json,
calibrator.json, logits, and the /usr/bin/time record of every process that ended); raw numbers per run in
[deep-scale-pilot.json](deep-scale-pilot.json). calibkit at commit ${commit
    .split(', ')
    .map((c) => `\`${c.slice(0, 12)}\``)
    .join(', ')} (the training
engine before the convolution speed-up of issue 24), PyTorch ${torch} (Debian, /usr/bin/python3).

**Criteria** (issue 23): cross-entropy reaches ≥ ${100 * CRITERIA.trainAccuracy} % training accuracy (eval mode, on the training
images), a temperature T ≥ ${CRITERIA.temperature} fitted by NLL on the validation split, and ≥ ${100 * CRITERIA.fractionAbove099} % of test confidences
above 0.99. A setting passes when every finished CE seed meets all three; it is chosen when at least two seeds have.

**Recipe** (every row): a CIFAR-style BN ResNet (option-A shortcuts, kaiming-normal init; one basic block per
stage for ResNet-8, widths w/2w/4w) on Fashion-MNIST: a class-stratified subset of the training split, of which
${VALIDATION.toLocaleString('en')} images validate; the full 10,000-image test split; SGD η₀ = 0.1, momentum 0.9, **no weight decay**,
batch 128, η ÷ 10 at 50 % and 75 % of the epochs, no augmentation, the last epoch's weights. calibkit: \`calib
train … --select last --evaluate-train --calibrate temperature\`; PyTorch: bench/deep_scale_pilot_torch.py on the
same images (exported from calibkit's splits). ECE: 15 equal-width bins, (l, u]. ± is the standard deviation over
seeds (0 with one seed).

## Finished runs

${finished.length ? table.join('\n') : '(none yet)'}

${verdict}

## Cost per run

Every run had one thread (\`--threads 1\`, \`OMP_NUM_THREADS=1\`) unless the threads column says otherwise, on a
shared 2-core machine whose 1-minute load average was often above 20: wall seconds per epoch there measure the other
work, not the run. CPU seconds (user + sys of the process) are what a run costs on a core of its own, i.e. with
\`calib suite run --jobs 2 --threads 1\` on an otherwise idle 2-core machine. Seconds per epoch: Σ CPU ÷ Σ epochs of
the recorded processes that did not end their run (each includes its start-up, so this errs high); end of a run:
the finishing process's CPU (its start-up, its epochs, the final evaluations of the training, validation and test
splits, export, temperature fit) minus its epochs, in epochs. Processes killed with their machine left no record;
their epochs count in no cost. CPU min/run = seconds per epoch × (epochs + end) ÷ 60.

${costs.join('\n')}

calibkit vs PyTorch, CPU seconds (same setting, one thread each; per epoch from the processes that trained without
ending their run, whole runs from runs measured end to end):
${[...ratios, ...wholeRuns].length ? [...ratios, ...wholeRuns].map((r) => `- ${r}`).join('\n') : '- (no setting measured in both yet)'}

${pending}`;
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
