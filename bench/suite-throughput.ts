/**
 * Whole-suite throughput: a built-in suite (default `demo` at `--scale quick`: 5 runs on the embedded MNIST digits)
 * run start to finish under several `--jobs` × `--threads` splits of the machine's cores, and — when redis-server is
 * installed — through a local Redis queue with two `calib worker --jobs 1 --threads 1` processes. Each configuration
 * is a fresh suite directory timed as a whole (training, post-hoc step, report). Prints one JSON line per
 * configuration (wall seconds, runs, runs/hour, whether every run's posthoc.json equals the first configuration's
 * byte for byte) and a summary line with the best split.
 *
 * Run: npm run bench -- suite-throughput [--suite demo] [--scale quick] [--splits 1x2,2x1,1x1] [--no-queue]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: 'demo' },
    scale: { type: 'string', default: 'quick' },
    splits: { type: 'string', default: '1x2,2x1,1x1' },
    'no-queue': { type: 'boolean', default: false },
  },
});
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
const work = mkdtempSync(join(tmpdir(), 'suite-throughput-'));

interface Result {
  readonly bench: 'suite-throughput';
  readonly config: string;
  readonly jobs: number;
  readonly threads: number;
  readonly wall_s: number;
  readonly runs: number;
  readonly runs_per_hour: number;
  readonly posthoc_identical_to_first: boolean | null;
}

/** Every run's posthoc.json text, by run id. */
function posthocFiles(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const id of readdirSync(join(out, 'runs')).sort()) files.set(id, readFileSync(join(out, 'runs', id, 'posthoc.json'), 'utf8'));
  return files;
}

let first: Map<string, string> | null = null;
function record(config: string, jobs: number, threads: number, wall: number, out: string): Result {
  const files = posthocFiles(out);
  const identical = first === null ? null : files.size === first.size && [...files].every(([id, text]) => first!.get(id) === text);
  first ??= files;
  const result: Result = {
    bench: 'suite-throughput',
    config,
    jobs,
    threads,
    wall_s: +wall.toFixed(2),
    runs: files.size,
    runs_per_hour: +((files.size * 3600) / wall).toFixed(1),
    posthoc_identical_to_first: identical,
  };
  process.stdout.write(JSON.stringify(result) + '\n');
  return result;
}

function local(jobs: number, threads: number): Result {
  const out = join(work, `local-${jobs}x${threads}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'suite', 'run', values.suite!, '--scale', values.scale!, '--out', out, '--jobs', String(jobs), '--threads', String(threads), '--progress', 'none'], {
    encoding: 'utf8',
  });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`suite run --jobs ${jobs} --threads ${threads} exited with ${r.status}: ${(r.stdout + r.stderr).slice(-2000)}`);
  return record(`local --jobs ${jobs} --threads ${threads}`, jobs, threads, wall, out);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

async function queued(): Promise<Result | null> {
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  if (which.status !== 0) {
    process.stderr.write('suite-throughput: redis-server is not installed; the queue configuration is skipped\n');
    return null;
  }
  const port = await freePort();
  const server = spawn(which.stdout.trim(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', work], { stdio: 'ignore' });
  const workers: ChildProcess[] = [];
  try {
    await new Promise((r) => setTimeout(r, 500));
    const url = `redis://127.0.0.1:${port}`;
    for (let i = 0; i < 2; i++) workers.push(spawn(process.execPath, [CLI, 'worker', '--queue', url, '--jobs', '1', '--threads', '1'], { stdio: 'ignore' }));
    await new Promise((r) => setTimeout(r, 1500));
    const out = join(work, 'queue-2-workers');
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'suite', 'run', values.suite!, '--scale', values.scale!, '--out', out, '--queue', url, '--threads', '1', '--progress', 'none'], { encoding: 'utf8' });
    const wall = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`suite run --queue exited with ${r.status}: ${(r.stdout + r.stderr).slice(-2000)}`);
    return record('queue, 2 workers × --jobs 1 --threads 1', 2, 1, wall, out);
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    server.kill('SIGTERM');
  }
}

const results: Result[] = [];
for (const split of values.splits!.split(',')) {
  const [jobs, threads] = split.split('x').map(Number);
  if (!Number.isInteger(jobs) || !Number.isInteger(threads) || jobs! < 1 || threads! < 1) throw new Error(`--splits: expected JOBSxTHREADS items such as 2x1, got ${split}`);
  results.push(local(jobs!, threads!));
}
if (!values['no-queue']) {
  const q = await queued();
  if (q) results.push(q);
}
const best = results.reduce((a, b) => (b.runs_per_hour > a.runs_per_hour ? b : a));
process.stdout.write(
  JSON.stringify({
    bench: 'suite-throughput-summary',
    suite: values.suite,
    scale: values.scale,
    best: best.config,
    runs_per_hour: Object.fromEntries(results.map((r) => [r.config, r.runs_per_hour])),
  }) + '\n',
);
rmSync(work, { recursive: true, force: true });
