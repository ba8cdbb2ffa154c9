/**
 * JSON lines of bench/idle-machine.sh that no existing bench prints (plain Node, no build needed):
 *
 *   machine --out FILE --python PY --cores C --budget S --started ISO   machine.json: CPU count and model, versions, load
 *   deep-run --side calib|torch --dir RUN --time FILE --status N --threads T --epochs E [--train N]
 *       one whole run of the deep-scale recipe: the epoch seconds of its log.jsonl (calib: epoch_time_s; the PyTorch
 *       pilot: epoch_s; both training + validation pass), the process's wall and CPU seconds (GNU time's
 *       '%e %U %S %M' in FILE), the rest of the process (wall − Σ epochs: start-up, data, compile-free final
 *       evaluations, temperature fit, export) and minutes per 60-epoch run = (rest + 60 × median epoch) ÷ 60.
 *   suite --dir SUITE --wall S --jobs J --threads T --status N --runs R --epochs E
 *       one `calib suite run`: runs finished (runs/<id>/posthoc.json), epochs done (log lines), runs and epochs per hour.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const [command, ...rest] = process.argv.slice(2);
const { values: v } = parseArgs({
  args: rest,
  options: Object.fromEntries(['out', 'python', 'cores', 'budget', 'started', 'side', 'dir', 'time', 'status', 'threads', 'epochs', 'train', 'wall', 'jobs', 'runs'].map((k) => [k, { type: 'string' }])),
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x, d = 3) => (x === null || !Number.isFinite(x) ? null : Number(x.toFixed(d)));
const jsonLines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l)) : []);
const load = () => loadavg().map((x) => round(x, 2));

if (command === 'machine') {
  const torch = spawnSync(v.python, ['-c', 'import torch, json; print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(), "config": torch.__config__.parallel_info().splitlines()[:12]}))'], { encoding: 'utf8' });
  const lscpu = spawnSync('lscpu', [], { encoding: 'utf8' });
  const ortPackage = join('node_modules', 'onnxruntime-node', 'package.json');
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' });
  const machine = {
    started: v.started,
    nproc_all: cpus().length,
    nproc_available_to_this_process: availableParallelism(),
    cores_pinned: v.cores,
    cpu_model: cpus()[0]?.model ?? null,
    lscpu: lscpu.status === 0 ? Object.fromEntries(lscpu.stdout.split('\n').filter((l) => /^(Model name|Architecture|CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|L2 cache|L3 cache|Flags)/.test(l)).map((l) => [l.split(':')[0].trim(), l.slice(l.indexOf(':') + 1).trim().slice(0, 400)])) : 'lscpu not found',
    node: process.version,
    onnxruntime_node: existsSync(ortPackage) ? JSON.parse(readFileSync(ortPackage, 'utf8')).version : null,
    python: v.python,
    torch: torch.status === 0 ? JSON.parse(torch.stdout.trim().split('\n').pop()) : `unavailable: ${torch.stderr?.slice(-300)}`,
    calibkit_commit: git.status === 0 ? git.stdout.trim() : existsSync('COMMIT') ? readFileSync('COMMIT', 'utf8').trim() : 'unknown',
    budget_s: Number(v.budget),
    load_average: load(),
  };
  writeFileSync(v.out, `${JSON.stringify(machine, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ bench: 'machine', load_average: machine.load_average, cpu_model: machine.cpu_model, torch: machine.torch.torch ?? machine.torch })}\n`);
} else if (command === 'deep-run') {
  const lines = jsonLines(join(v.dir, 'log.jsonl'));
  const epochs = lines.map((l) => l.epoch_time_s ?? l.epoch_s);
  // GNU time's last line; a process cut at its limit leaves no (or an empty) report.
  const report = existsSync(v.time) ? readFileSync(v.time, 'utf8').trim().split('\n').pop().split(' ').map(Number) : [];
  const [wall, user, sys, kb] = report.length === 4 ? report : [NaN, NaN, NaN, NaN];
  const sum = epochs.reduce((a, b) => a + b, 0);
  const m = median(epochs);
  const restOfRun = Number(v.status) === 0 ? wall - sum : null; // only a process that ran to its end has its final part in it
  process.stdout.write(`${JSON.stringify({
    bench: 'deep-run', side: v.side, threads: Number(v.threads), epochs_planned: Number(v.epochs), epochs_done: epochs.length, train_images: Number(v.train),
    epoch_s: epochs.map((x) => round(x, 2)), epoch_s_median: round(m, 2), epoch_s_after_first_median: round(median(epochs.slice(1)), 2),
    wall_s: round(wall, 2), cpu_s: round(user + sys, 2), peak_rss_mb: round(kb / 1024, 0), rest_of_run_s: round(restOfRun, 2),
    minutes_per_60_epoch_run: restOfRun === null || m === null ? null : round((restOfRun + 60 * m) / 60, 2),
    status: Number(v.status), cut: Number(v.status) === 124 || Number(v.status) === 137, load_average: load(),
  })}\n`);
} else if (command === 'suite') {
  const runsDir = join(v.dir, 'runs');
  const ids = existsSync(runsDir) ? readdirSync(runsDir) : [];
  const finished = ids.filter((id) => existsSync(join(runsDir, id, 'posthoc.json'))).length;
  const epochsDone = ids.reduce((a, id) => a + jsonLines(join(runsDir, id, 'log.jsonl')).length, 0);
  const wall = Number(v.wall);
  process.stdout.write(`${JSON.stringify({
    bench: 'suite-throughput', framework: 'calib', jobs: Number(v.jobs), threads: Number(v.threads), runs: Number(v.runs), epochs: Number(v.epochs),
    finished, epochs_done: epochsDone, wall_s: round(wall, 2), runs_per_hour: round((finished * 3600) / wall, 1), epochs_per_hour: round((epochsDone * 3600) / wall, 1),
    status: Number(v.status), cut: Number(v.status) === 124 || Number(v.status) === 137, load_average: load(),
  })}\n`);
} else {
  process.stderr.write('usage: node bench/idle-machine-record.mjs machine|deep-run|suite [flags] (see the file comment)\n');
  process.exit(2);
}
