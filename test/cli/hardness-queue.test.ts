import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';
import { runJobId } from '../../src/suite/queue/queue-executor.js';
import { maskQueueUrl, maskSecrets, parseQueueUrl, QUEUE_NAME } from '../../src/suite/queue/queue-connection.js';
import { posthocIdentity } from '../../src/suite/identity/run-identity.js';
import { packRun, type PackedRun } from '../../src/suite/queue/run-transfer.js';

/**
 * The hardness catalogue, issue 28's queue cases: a coordinator never waits silently (unreachable Redis, no worker,
 * a lost connection, jobs Redis lost), authenticated and TLS Redis work with the password masked everywhere, and a
 * finished job's result is checked against the run's identity. Each test starts its own redis-server on 127.0.0.1.
 */

const dir = tempDir('hardness-queue');
const p = (...parts: string[]): string => join(dir, ...parts);
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const REDIS = ((): string | null => {
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
})();
const skip = REDIS === null ? 'redis-server is not installed (apt-get install redis-server; .ci/run installs it)' : false;

const SUITE = {
  name: 'queued',
  base: { dataset: 'mnist', subset: 300, testSubset: 200, validation: 100, modelOptions: { hidden: [16] }, batch: 50, epochs: 1, select: 'last' },
  methods: [{ name: 'ce' }],
};
const suiteFile = (name: string, extra: Record<string, unknown> = {}): string => {
  const file = p(`${name}.json`);
  writeFileSync(file, JSON.stringify({ ...SUITE, ...extra }));
  return file;
};

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

/** One command on a plain socket (AUTH first when `password` is given); the reply's first line. */
async function redisCommand(port: number, args: string[], password?: string): Promise<string> {
  const encode = (a: string[]): string => `*${a.length}\r\n${a.map((x) => `$${Buffer.byteLength(x)}\r\n${x}\r\n`).join('')}`;
  const commands = [...(password ? [['AUTH', password]] : []), args];
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write(commands.map(encode).join('')));
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
      const lines = text.split('\r\n').filter((l) => l !== '');
      if (lines.length >= commands.length) {
        socket.destroy();
        resolve(lines[commands.length - 1]!);
      }
    });
    socket.on('error', (e) => resolve(`error ${e.message}`));
  });
}

interface Server {
  readonly port: number;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/** A redis-server on 127.0.0.1 with `args` (no persistence), ready when this resolves. */
async function startRedis(args: string[], options: { port?: number; tlsPort?: boolean; password?: string } = {}): Promise<Server> {
  const port = options.port ?? (await freePort());
  const data = p(`redis-${port}`);
  mkdirSync(data, { recursive: true });
  const portArgs = options.tlsPort ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)];
  let child: ChildProcess;
  const launch = async (): Promise<void> => {
    child = spawn(REDIS!, [...portArgs, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', data, ...args], { stdio: 'ignore' });
    const t0 = Date.now();
    for (;;) {
      if (options.tlsPort) {
        // Wait for the port to accept connections (a plain PING cannot speak TLS).
        const open = await new Promise<boolean>((resolve) => {
          const s = createConnection({ host: '127.0.0.1', port }, () => (s.destroy(), resolve(true)));
          s.on('error', () => resolve(false));
        });
        if (open) return;
      } else if (/PONG|NOAUTH/.test(await redisCommand(port, ['PING']))) return;
      if (Date.now() - t0 > 10_000) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await launch();
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
  };
  return { port, stop, restart: launch };
}

/** A `calib` child process with its output collected. */
function start(args: string[], env: Record<string, string> = {}): { child: ChildProcess; output: () => string; exit: Promise<number> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exit = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1))));
  return { child, output: () => out, exit };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, output?: () => string): Promise<void> {
  const t0 = Date.now();
  while (!(await check())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}${output ? `\n--- output:\n${output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every file under `root` (recursively). */
function filesUnder(root: string): string[] {
  return readdirSync(root).flatMap((f) => {
    const path = join(root, f);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const PASSWORD = 'Sup3r-s3cret-pw';
const FIRST_OUT = p('auth-out');

test(
  'issue 28 queue: authenticated Redis; no worker, jobs flushed, Redis restarted are each reported and lost jobs re-queued; the password appears in no message or file',
  { skip, timeout: 600_000 },
  async () => {
    const server = await startRedis(['--requirepass', PASSWORD]);
    const url = `redis://:${PASSWORD}@127.0.0.1:${server.port}`;
    const masked = `redis://:***@127.0.0.1:${server.port}`;
    const children: ChildProcess[] = [];
    try {
      const coordinator = start(['suite', 'run', suiteFile('auth'), '--out', FIRST_OUT, '--queue', url, '--worker-wait', '1', '--threads', '1', '--progress', 'lines']);
      children.push(coordinator.child);
      const said = (pattern: RegExp) => () => pattern.test(coordinator.output());
      await until('the no-worker message', said(new RegExp(`no calib worker has been connected to ${masked.replace(/[*.]/g, '\\$&')} for \\d+ s; 1 run\\(s\\) waiting`)), 60_000, coordinator.output);
      await until('the job to wait in Redis', async () => (await redisCommand(server.port, ['LLEN', `bull:${QUEUE_NAME}:wait`], PASSWORD)) === ':1', 30_000);
      assert.equal(await redisCommand(server.port, ['FLUSHALL'], PASSWORD), '+OK');
      await until('the lost job after FLUSHALL', said(/lost job ce-seed0-[0-9a-f]{16} of run ce-seed0: Redis no longer has it \(restarted or flushed\?\); queued again/), 30_000, coordinator.output);
      await until('the job queued again', async () => (await redisCommand(server.port, ['LLEN', `bull:${QUEUE_NAME}:wait`], PASSWORD)) === ':1', 30_000);
      // Down long enough for the coordinator's calls to time out, then back empty.
      await server.stop();
      await new Promise((r) => setTimeout(r, 7000));
      await server.restart();
      await until('the lost connection', said(/lost the connection to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(.*\); retrying/), 60_000, coordinator.output);
      await until('the reconnection', said(/reconnected to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ after \d+ s/), 60_000, coordinator.output);
      await until('the job lost by the restart', () => (coordinator.output().match(/lost job ce-seed0-/g) ?? []).length >= 2, 60_000, coordinator.output);

      const worker = start(['worker', '--queue', url]);
      children.push(worker.child);
      const code = await coordinator.exit;
      assert.equal(code, 0, coordinator.output() + '\nworker:\n' + worker.output());
      assert.match(coordinator.output(), /1\/1 runs done \(1 trained now/);
      assert.match(coordinator.output(), new RegExp(`^suite queued \\(quick\\): 1 runs into .*, on the queue ${masked.replace(/[*.]/g, '\\$&')}$`, 'm'));
      assert.match(worker.output(), new RegExp(`taking runs from ${masked.replace(/[*.]/g, '\\$&')}`));
      worker.child.kill('SIGTERM');
      await worker.exit;
      for (const text of [coordinator.output(), worker.output()]) assert.ok(!text.includes(PASSWORD), 'no password in the output');
      for (const file of filesUnder(FIRST_OUT)) assert.ok(!readFileSync(file).includes(PASSWORD), `no password in ${file}`);
    } finally {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await server.stop();
    }
  },
);

test('issue 28 queue: a refused connection is one line with the password masked and nothing written; an ACL user and rediss:// (TLS) connect', { skip, timeout: 300_000 }, async () => {
  const out = p('never');
  const refusedRun = async (url: string, pattern: RegExp): Promise<void> => {
    const t0 = Date.now();
    const r = await run(['suite', 'run', suiteFile('refused'), '--out', out, '--queue', url, '--progress', 'none']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, pattern);
    assert.ok(!r.stderr.includes('hunter22') && !r.stdout.includes('hunter22'), r.stderr);
    assert.ok(Date.now() - t0 < 20_000, 'refused within the stated 10 s');
    assert.ok(!existsSync(out), `${url}: nothing written`);
  };
  const closed = await freePort();
  await refusedRun(
    `redis://:hunter22@127.0.0.1:${closed}`,
    new RegExp(`--queue: expected a Redis server that accepts the connection \\(tried for up to 10 s\\), got redis://:\\*\\*\\*@127\\.0\\.0\\.1:${closed} \\(connect ECONNREFUSED`),
  );
  await refusedRun('redis://:hunter22@127.0.0.1', /--queue: expected redis:\/\/\[USER:PASSWORD@\]HOST:PORT\[\/DB\] or rediss:\/\/… \(TLS\), got "redis:\/\/:\*\*\*@127\.0\.0\.1"/);

  const acl = await startRedis(['--user', 'default', 'off', '--user', 'alice', 'on', '>alice-pw-99', '~*', '&*', '+@all']);
  const tls = join(dir, 'tls');
  mkdirSync(tls);
  const cert = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(tls, 'key.pem'), '-out', join(tls, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  const secure =
    cert.status === 0
      ? await startRedis(
          ['--tls-cert-file', join(tls, 'cert.pem'), '--tls-key-file', join(tls, 'key.pem'), '--tls-ca-cert-file', join(tls, 'cert.pem'), '--tls-auth-clients', 'no', '--requirepass', 'tls-pw-77'],
          { tlsPort: true },
        )
      : null;
  try {
    await refusedRun(`redis://alice:hunter22@127.0.0.1:${acl.port}`, /got redis:\/\/alice:\*\*\*@127\.0\.0\.1:\d+ \(WRONGPASS invalid username-password pair/);
    await refusedRun(`redis://127.0.0.1:${acl.port}`, /\(NOAUTH Authentication required\.\)/);
    const connects = async (url: string, env: Record<string, string> = {}): Promise<void> => {
      const c = start(['suite', 'run', suiteFile('connects'), '--out', p(`connects-${Date.now()}`), '--queue', url, '--worker-wait', '1', '--progress', 'none'], env);
      try {
        await until(`${url}: connected and waiting for a worker`, () => /no calib worker has been connected/.test(c.output()), 60_000, c.output);
      } finally {
        c.child.kill('SIGINT');
      }
      assert.equal(await c.exit, 130, c.output());
      assert.match(c.output(), /continue with the same command/);
    };
    await connects(`redis://alice:alice-pw-99@127.0.0.1:${acl.port}`);
    if (secure) {
      // This process does not trust the self-signed certificate; a child told about it (NODE_EXTRA_CA_CERTS) does.
      await refusedRun(`rediss://:tls-pw-77@127.0.0.1:${secure.port}`, /got rediss:\/\/:\*\*\*@127\.0\.0\.1:\d+ \(self-signed certificate\)/);
      await connects(`rediss://:tls-pw-77@127.0.0.1:${secure.port}`, { NODE_EXTRA_CA_CERTS: join(tls, 'cert.pem') });
    }
  } finally {
    await acl.stop();
    await secure?.stop();
  }
});

test('issue 28 queue: queue URLs with credentials, a database and TLS; what is printed of them', () => {
  assert.deepEqual(parseQueueUrl('rediss://alice:p%40ss%2Fw@redis.example.org:6380/2'), {
    host: 'redis.example.org',
    port: 6380,
    username: 'alice',
    password: 'p@ss/w',
    db: 2,
    tls: {},
    maxRetriesPerRequest: null,
  });
  assert.deepEqual(parseQueueUrl('redis://:pw@[::1]:6379'), { host: '::1', port: 6379, password: 'pw', maxRetriesPerRequest: null });
  assert.equal(maskQueueUrl('rediss://alice:p%40ss@h:1/2'), 'rediss://alice:***@h:1/2');
  assert.equal(maskQueueUrl('redis://:pw@h:1'), 'redis://:***@h:1');
  assert.equal(maskQueueUrl('redis://secret@h'), 'redis://***@h');
  assert.equal(maskSecrets('AUTH failed for p@ss at rediss://alice:p%40ss@h:1', 'rediss://alice:p%40ss@h:1'), 'AUTH failed for *** at rediss://alice:***@h:1');
  assert.throws(() => parseQueueUrl('redis://:pw%zz@h:1'), /--queue: expected a percent-encoded password .*got "redis:\/\/:\*\*\*@h:1"/);
});

test('issue 28 queue: job ids hash the run identity (training settings, calibrators, bins, calibkit version)', () => {
  const a = posthocIdentity('train-hash', ['temperature'], 15);
  const ids = new Set([
    runJobId('ce-seed0', 'train-hash', a),
    runJobId('ce-seed0', 'other-training', a),
    runJobId('ce-seed0', 'train-hash', posthocIdentity('train-hash', ['temperature'], 20)),
    runJobId('ce-seed0', 'train-hash', posthocIdentity('train-hash', ['temperature', 'isotonic'], 15)),
    runJobId('ce-seed0', 'train-hash', { ...a, calibkit: '0.0.1' }),
  ]);
  assert.equal(ids.size, 5);
  assert.equal(runJobId('ce-seed0', 'train-hash', a), runJobId('ce-seed0', 'train-hash', posthocIdentity('train-hash', ['temperature'], 15)));
});

test(
  'issue 28 queue: a finished job is checked against the run: files trained with other settings are discarded and queued again, post-hoc numbers computed with other bins are refitted',
  { skip, timeout: 300_000 },
  async () => {
    assert.ok(existsSync(join(FIRST_OUT, 'runs', 'ce-seed0', 'summary.json')), 'the first test trained the run');
    const { Worker } = await import('bullmq');
    const server = await startRedis([]);
    const url = `redis://127.0.0.1:${server.port}`;
    const good = await packRun(join(FIRST_OUT, 'runs', 'ce-seed0'));
    const config = JSON.parse(Buffer.from(good.files['config.json']!, 'base64').toString('utf8')) as Record<string, unknown>;
    const tampered: PackedRun = { files: { ...good.files, 'config.json': Buffer.from(JSON.stringify({ ...config, lr: 0.5 })).toString('base64') } };
    // A stand-in worker: the first result it returns was trained with lr 0.5, the second is the run's (bins 15).
    let served = 0;
    const worker = new Worker<unknown, PackedRun>(QUEUE_NAME, async () => (served++ === 0 ? tampered : good), { connection: parseQueueUrl(url) });
    await worker.waitUntilReady();
    const out = p('checked-out');
    try {
      const r = await run(['suite', 'run', suiteFile('checked', { bins: 20 }), '--out', out, '--queue', url, '--progress', 'none']);
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.match(
        r.stderr,
        /finished job ce-seed0-[0-9a-f]{16} of run ce-seed0 holds other files than the run's settings give \(its config\.json has other training settings\): discarded and queued again/,
      );
      assert.match(r.stderr, /finished job ce-seed0-[0-9a-f]{16} of run ce-seed0: its post-hoc results were computed with other settings \(bins 15 → 20\); refitted here/);
      assert.equal(served, 2);
      const posthoc = JSON.parse(readFileSync(join(out, 'runs', 'ce-seed0', 'posthoc.json'), 'utf8')) as { bins: number; identity: { bins: number } };
      assert.equal(posthoc.bins, 20);
      assert.equal(posthoc.identity.bins, 20);
      assert.equal((JSON.parse(readFileSync(join(out, 'runs', 'ce-seed0', 'config.json'), 'utf8')) as { lr: number }).lr, 0.1);
    } finally {
      await worker.close();
      await server.stop();
    }
  },
);
