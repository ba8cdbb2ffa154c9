import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

const dir = tempDir('suite-queue');
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function redisServerPath(): string | null {
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
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

async function redisReady(port: number, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
      socket.on('data', (d) => {
        socket.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - t0 > timeoutMs) throw new Error('redis-server did not answer PING');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A child process with its output collected line by line. */
function start(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const redis = redisServerPath();

test(
  'a suite on a BullMQ queue with two workers, one killed mid-run, ends with the same results as the local run',
  { skip: redis === null ? 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)' : false, timeout: 300_000 },
  async () => {
    const port = await freePort();
    const redisDir = join(dir, 'redis');
    spawnSync('mkdir', ['-p', redisDir]);
    const server = spawn(redis!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir, '--daemonize', 'no'], { stdio: 'ignore' });
    const workers: ChildProcess[] = [];
    try {
      await redisReady(port, 10_000);
      const url = `redis://127.0.0.1:${port}`;
      const suite = {
        name: 'queued',
        base: { dataset: 'mnist', subset: 300, testSubset: 200, validation: 100, modelOptions: { hidden: [16] }, batch: 25, epochs: 6, select: 'last' },
        methods: [{ name: 'ce' }, { name: 'ls', loss: 'ls' }, { name: 'mbls', loss: 'mbls' }],
        posthoc: ['temperature'],
        compare: ['mbls < ce on ece'],
      };
      const file = join(dir, 'queued.json');
      writeFileSync(file, JSON.stringify(suite));

      const a = start(['worker', '--queue', url, '--jobs', '1', '--lock', '2']);
      const b = start(['worker', '--queue', url, '--jobs', '1', '--lock', '2']);
      workers.push(a.child, b.child);
      await until('both workers to connect', () => /taking runs/.test(a.output()) && /taking runs/.test(b.output()), 60_000);

      const out = join(dir, 'queued-out');
      const coordinator = run(['suite', 'run', file, '--out', out, '--queue', url, '--threads', '1', '--progress', 'lines']);
      await until('worker A to start a run', () => /^start /m.test(a.output()), 120_000);
      const killedRun = /^start queued\/(\S+)/m.exec(a.output())![1]!;
      // Kill at once: its training child is still starting, so the run cannot have finished (a fixed delay raced
      // with the run itself on an idle machine, where these tiny runs take about a second).
      a.child.kill('SIGKILL');
      const r = await coordinator;
      assert.equal(r.code, 0, r.stdout + r.stderr + '\nworker B:\n' + b.output());
      assert.match(r.stdout, /3\/3 runs done \(3 trained now/);
      assert.doesNotMatch(a.output(), new RegExp(`^done  queued/${killedRun}$`, 'm'), 'worker A was killed before finishing its run');
      assert.match(b.output(), new RegExp(`^done  queued/${killedRun}$`, 'm'), 'the killed run was retried by worker B');

      const local = join(dir, 'local-out');
      const l = await run(['suite', 'run', file, '--out', local, '--threads', '1', '--progress', 'none']);
      assert.equal(l.code, 0, l.stdout);
      for (const id of ['ce-seed0', 'ls-seed0', 'mbls-seed0']) {
        const q = JSON.parse(readFileSync(join(out, 'runs', id, 'posthoc.json'), 'utf8')) as Record<string, unknown>;
        const p = JSON.parse(readFileSync(join(local, 'runs', id, 'posthoc.json'), 'utf8')) as Record<string, unknown>;
        assert.deepEqual(q, p, id);
        const log = (d: string): unknown[] =>
          readFileSync(join(d, 'runs', id, 'log.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((x) => {
              const e = JSON.parse(x) as Record<string, unknown>;
              delete e['epoch_time_s'];
              delete e['cpu_time_s'];
              delete e['train_time_s'];
              delete e['samples_per_s'];
              return e;
            });
        assert.deepEqual(log(out), log(local), `${id} log`);
      }
      const qr = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { verdicts: unknown; tables: unknown };
      const lr = JSON.parse(readFileSync(join(local, 'report.json'), 'utf8')) as { verdicts: unknown; tables: unknown };
      assert.deepEqual(qr.tables, lr.tables);
      assert.deepEqual(qr.verdicts, lr.verdicts);
      const cfg = JSON.parse(readFileSync(join(out, 'runs', 'ce-seed0', 'config.json'), 'utf8')) as { out: string };
      assert.equal(cfg.out, join(out, 'runs', 'ce-seed0'), 'config.json names where the run lives on the coordinator');
    } finally {
      for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
      await Promise.all(workers.map((w) => (w.exitCode !== null || w.signalCode !== null ? null : new Promise((r) => w.on('close', r)))));
      server.kill('SIGTERM');
      await new Promise((r) => server.on('close', r));
    }
  },
);

test(
  'a run that diverges on a queue worker is recorded as diverged, as a local run is, and its job is not retried',
  { skip: redis === null ? 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)' : false, timeout: 180_000 },
  async () => {
    const port = await freePort();
    const redisDir = join(dir, 'redis-diverged');
    spawnSync('mkdir', ['-p', redisDir]);
    const server = spawn(redis!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir, '--daemonize', 'no'], { stdio: 'ignore' });
    let worker: ChildProcess | undefined;
    try {
      await redisReady(port, 10_000);
      const url = `redis://127.0.0.1:${port}`;
      // The settings of suite-run.test's local divergence (tiny-suite.ts), whose training loss becomes NaN.
      const suite = tinySuite({
        name: 'queued-nan',
        methods: [
          { name: 'ce', label: 'CE' },
          { name: 'hot', label: 'CE at lr 1e10', lr: 1e10 },
        ],
        compare: [],
      });
      const file = join(dir, 'queued-nan.json');
      writeFileSync(file, JSON.stringify(suite));
      const w = start(['worker', '--queue', url, '--jobs', '1']);
      worker = w.child;
      await until('the worker to connect', () => /taking runs/.test(w.output()), 60_000);
      const out = join(dir, 'queued-nan-out');
      const r = await run(['suite', 'run', file, '--out', out, '--queue', url, '--threads', '1', '--progress', 'none']);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      const failed = JSON.parse(readFileSync(join(out, 'logs', 'hot-seed0.failed.json'), 'utf8')) as { kind: string; error: string };
      assert.equal(failed.kind, 'diverged', 'the kind travels through the queue');
      assert.match(failed.error, /the training loss became (NaN|-?Infinity)/);
      assert.doesNotMatch(failed.error, /^queue job \S+ failed: diverged:/, 'the kind is not left in the message');
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { diverged: { id: string }[] };
      assert.deepEqual(
        report.diverged.map((d) => d.id),
        ['hot-seed0'],
      );
      assert.equal(w.output().match(/^start queued-nan\/hot-seed0 /gm)?.length, 1, 'a diverged job is not retried (training is deterministic)\n' + w.output());
    } finally {
      if (worker && worker.exitCode === null && worker.signalCode === null) {
        worker.kill('SIGTERM');
        await new Promise((r) => worker!.on('close', r));
      }
      server.kill('SIGTERM');
      await new Promise((r) => server.on('close', r));
    }
  },
);

test('--queue takes redis://HOST:PORT (or with credentials, or rediss://)', async () => {
  const r = await run(['suite', 'run', 'demo', '--out', join(dir, 'x'), '--queue', 'localhost:6379']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^calib: error: --queue: expected redis:\/\/\[USER:PASSWORD@\]HOST:PORT\[\/DB\] or rediss:\/\/… \(TLS\), got "localhost:6379"$/m);
  const w = await run(['worker', '--queue', 'redis://h:99999']);
  assert.match(w.stderr, /--queue: expected a port in 1…65535/);
});
