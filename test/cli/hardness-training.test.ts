/**
 * Catalogue of the ways a training run can be broken (issue 16, training-run classes), each with a test:
 * stops and kills at any point (resumed exactly, with real child processes), two processes on one run directory,
 * corrupted or foreign checkpoints, divergence, a run that does not learn, progress without a terminal, settings
 * that only mean something together, and user mistakes that must not look like crashes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { decodeCheckpoint, encodeCheckpoint, loadCheckpoint } from '../../src/train/artefacts/checkpoint.js';
import { ConsoleProgress } from '../../src/train/run/progress.js';
import { chanceWarning } from '../../src/train/run/run-evaluate.js';
import { lockRunDirectory } from '../../src/train/artefacts/run-lock.js';
import { readLog, type EpochRecord } from '../../src/train/artefacts/train-log.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { loadRunData } from '../../src/train/run/trainer-data.js';
import { CorrectnessHistory, CRL_HOST_STATE } from '../../src/losses/combined/crl-history.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('hardness-training');
const CLI = new URL('../../src/cli/main.js', import.meta.url).pathname;

/** A small MNIST MLP run: 540 training samples, batch 8 → 68 updates per epoch, 2 epochs. */
const tiny = ['--dataset', 'mnist', '--subset', '600', '--test-subset', '200', '--model-opt', 'hidden=[32]', '--epochs', '2', '--batch', '8', '--eval-batch', '200', '--threads', '1'];

interface Child {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run the built CLI as a child process; `onLine` sees each stdout line and may return a signal to send (once).
 */
function cli(args: string[], onLine?: (line: string, pid: number) => NodeJS.Signals | null): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    let sent = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const signal = !sent && onLine ? onLine(line, child.pid!) : null;
        if (signal) {
          sent = true;
          child.kill(signal);
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** "N/T  epoch e/E …" progress lines: updates done. */
function updatesDone(line: string): number | null {
  const m = /^(\d+)\/(\d+)  epoch \d+\/\d+  loss/.exec(line);
  return m ? Number(m[1]) : null;
}

/** The files that must be identical between an uninterrupted and a stopped-and-resumed run. */
const RESULT_FILES = ['test-logits.npy', 'val-logits.npy', 'model.onnx'];

function assertSameRun(a: string, b: string): void {
  for (const f of RESULT_FILES) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} identical, bit for bit`);
  const strip = (r: EpochRecord) => ({ ...r, epoch_time_s: 0, cpu_time_s: 0, train_time_s: 0, samples_per_s: 0 });
  const logA = readFileSync(join(a, 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => strip(JSON.parse(l) as EpochRecord));
  const logB = readFileSync(join(b, 'log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => strip(JSON.parse(l) as EpochRecord));
  assert.deepEqual(logB, logA, 'the same log (losses, validation metrics, steps), timings aside');
}

let reference: Promise<string> | undefined;
/** The uninterrupted run every stopped run is compared with. */
function uninterrupted(): Promise<string> {
  reference ??= (async () => {
    const out = join(dir, 'reference');
    const r = await cli(['train', ...tiny, '--out', out, '--progress', 'none']);
    assert.equal(r.code, 0, r.stderr);
    return out;
  })();
  return reference;
}

// ---------------------------------------------------------------------------------------------------------------
// Stops and kills resume exactly

test('SIGTERM during the first epoch saves a checkpoint, prints one line naming --resume, and the resumed run ends bit-identical', async () => {
  const ref = await uninterrupted();
  const out = join(dir, 'sigterm');
  const stopped = await cli(['train', ...tiny, '--out', out, '--progress', 'lines', '--progress-seconds', '0.001'], (line) => {
    const n = updatesDone(line);
    return n !== null && n >= 3 ? 'SIGTERM' : null;
  });
  assert.equal(stopped.code, 143, stopped.stderr);
  const hint = stopped.stdout
    .trim()
    .split('\n')
    .filter((l) => updatesDone(l) === null);
  assert.deepEqual(hint.length, 1, `one line besides progress: ${stopped.stdout}`);
  assert.match(hint[0]!, /^stopped at epoch 1, update \d+ \(checkpoint saved\); continue with: calib train --resume /);
  assert.equal(stopped.stderr, '', 'SIGTERM prints nothing on stderr');
  assert.equal((await readLog(join(out, 'log.jsonl'))).length, 0, 'no epoch finished');
  assert.ok(!existsSync(join(out, 'run.lock')), 'the lock is released on a stop');
  const resumed = await cli(['train', '--resume', out, '--progress', 'none']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assertSameRun(ref, out);
});

test('SIGINT (Ctrl-C) stops the same way with exit code 130', async () => {
  const ref = await uninterrupted();
  const out = join(dir, 'sigint');
  const stopped = await cli(['train', ...tiny, '--out', out, '--progress', 'lines', '--progress-seconds', '0.001'], (line) => {
    const n = updatesDone(line);
    return n !== null && n >= 75 ? 'SIGINT' : null; // in the second epoch
  });
  assert.equal(stopped.code, 130, stopped.stderr);
  assert.match(stopped.stdout, /stopped at epoch 2, update \d+ \(checkpoint saved\); continue with: calib train --resume /);
  const resumed = await cli(['train', '--resume', out, '--progress', 'none']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assertSameRun(ref, out);
});

test('SIGKILL mid-epoch loses only the updates after the last mid-epoch checkpoint; the stale lock is taken over and the resumed run ends bit-identical', async () => {
  const ref = await uninterrupted();
  const out = join(dir, 'sigkill');
  const killed = await cli(['train', ...tiny, '--out', out, '--progress', 'lines', '--progress-seconds', '0.001', '--checkpoint-steps', '5'], (line) => {
    const n = updatesDone(line);
    return n !== null && n >= 12 ? 'SIGKILL' : null;
  });
  assert.equal(killed.signal, 'SIGKILL');
  assert.ok(existsSync(join(out, 'run.lock')), 'a killed process leaves its lock behind');
  const ckpt = await loadCheckpoint(join(out, 'checkpoint-last.ckpt'));
  assert.ok(ckpt.header.step >= 10 && ckpt.header.step % 5 === 0, `a mid-epoch checkpoint (step ${ckpt.header.step})`);
  assert.equal((ckpt.header.metadata as { epoch: number }).epoch, 0, 'inside the first epoch');
  const resumed = await cli(['train', '--resume', out, '--progress', 'none']);
  assert.equal(resumed.code, 0, resumed.stderr);
  assertSameRun(ref, out);
});

// ---------------------------------------------------------------------------------------------------------------
// One process per run directory

test('a second calib train into a run directory in use is refused (exit 2) while the first runs, which still completes', async () => {
  const out = join(dir, 'locked');
  let second: Promise<Child> | undefined;
  let holder = 0;
  const first = await cli(['train', ...tiny, '--out', out, '--progress', 'lines', '--progress-seconds', '0.001'], (line, pid) => {
    if (second === undefined && updatesDone(line) !== null) {
      holder = pid;
      process.kill(pid, 'SIGSTOP'); // frozen mid-epoch, holding the lock, until the second process has been answered
      second = cli(['train', ...tiny, '--out', out, '--force', '--progress', 'none']);
      void second.finally(() => process.kill(pid, 'SIGCONT'));
    }
    return null;
  });
  assert.equal(first.code, 0, first.stderr);
  const r = await second!;
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr.split('\n').length, 2, 'one line');
  assert.match(r.stderr, new RegExp(`^calib: error: out: expected a run directory no other process uses, got .* is in use by running process ${holder} `));
  assert.ok(existsSync(join(out, 'summary.json')) && !existsSync(join(out, 'run.lock')), 'the first run completed and released its lock');
});

test('run.lock: a live holder is refused, a dead PID is stale and taken over, another host is refused naming the file', async () => {
  const d = join(dir, 'lock-unit');
  mkdirSync(d);
  const held = await lockRunDirectory(d);
  await assert.rejects(lockRunDirectory(d), /already being trained by this process/);
  await held.release();
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  writeFileSync(join(d, 'run.lock'), JSON.stringify({ pid: dead, host: hostname(), started: 'then' }));
  const taken = await lockRunDirectory(d);
  assert.equal((JSON.parse(readFileSync(join(d, 'run.lock'), 'utf8')) as { pid: number }).pid, process.pid);
  await taken.release();
  assert.ok(!existsSync(join(d, 'run.lock')));
  writeFileSync(join(d, 'run.lock'), JSON.stringify({ pid: 1, host: 'elsewhere.example', started: 'then' }));
  await assert.rejects(lockRunDirectory(d), /locked by process 1 on host elsewhere\.example \(delete .*run\.lock if that process is gone\)/);
});

/** Runs `processes` node children that all call lockRunDirectory(d) at the same instant; their outcomes. */
async function simultaneousLocks(d: string, processes: number): Promise<string[]> {
  const lockModule = new URL('../../src/train/artefacts/run-lock.js', import.meta.url).href;
  const start = Date.now() + 600; // every child has started and waits for this instant
  // Each child marks its decision in `decided`; a holder keeps the lock until every child has decided (so a child
  // that starts late on a loaded machine still meets the lock held, never a released one).
  const decided = `${d}.decided`;
  mkdirSync(decided);
  const script =
    `const { lockRunDirectory } = await import(${JSON.stringify(lockModule)});` +
    `const fs = await import('node:fs');` +
    `while (Date.now() < ${start});` +
    `let lock; try { lock = await lockRunDirectory(${JSON.stringify(d)}); console.log('held'); }` +
    `catch (e) { console.log('refused: ' + e.message); }` +
    `fs.writeFileSync(${JSON.stringify(decided)} + '/' + process.pid, '');` +
    `while (lock && fs.readdirSync(${JSON.stringify(decided)}).length < ${processes} && Date.now() < ${start + 60_000}) await new Promise((r) => setTimeout(r, 20));` +
    `await lock?.release();`;
  const children = Array.from({ length: processes }, () => spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] }));
  return Promise.all(
    children.map(
      (child) =>
        new Promise<string>((resolve) => {
          let out = '';
          child.stdout.on('data', (b: Buffer) => (out += b));
          child.stderr.on('data', (b: Buffer) => (out += b));
          child.on('close', () => resolve(out.trim()));
        }),
    ),
  );
}

test('run.lock: processes that find the same stale lock at the same instant — exactly one takes it over, the others are refused', async () => {
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  for (let round = 0; round < 4; round++) {
    const d = join(dir, `lock-race-${round}`);
    mkdirSync(d);
    writeFileSync(join(d, 'run.lock'), JSON.stringify({ pid: dead, host: hostname(), started: `round ${round}` }));
    const outcomes = await simultaneousLocks(d, 4);
    assert.equal(outcomes.filter((o) => o === 'held').length, 1, `round ${round}: ${outcomes.join(' | ')}`);
    for (const o of outcomes.filter((x) => x !== 'held')) assert.match(o, /^refused: --out: .* is in use by running process \d+/);
    assert.deepEqual(readdirSync(d), [], `round ${round}: the holder exited and released; no draft or token is left`);
  }
  // A takeover token left by a process that died mid-takeover: refused after the wait, naming the token to delete.
  const d = join(dir, 'lock-stuck');
  mkdirSync(d);
  const stale = JSON.stringify({ pid: dead, host: hostname(), started: 'stuck' });
  writeFileSync(join(d, 'run.lock'), stale);
  const token = `run.lock.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
  writeFileSync(join(d, token), stale);
  await assert.rejects(lockRunDirectory(d), new RegExp(`takeover of its stale lock in progress for over 5 s \\(delete .*${token} if no process`));
  assert.deepEqual(readdirSync(d).sort(), ['run.lock', token].sort(), 'nothing else is left behind');
});

// ---------------------------------------------------------------------------------------------------------------
// Checkpoints: any corruption is an error, never a silent resume from the wrong place

test('a checkpoint with any byte changed — header, step counter or data — is refused by its whole-file CRC', async () => {
  const ref = await uninterrupted();
  const bytes = new Uint8Array(readFileSync(join(ref, 'checkpoint-last.ckpt')));
  assert.doesNotThrow(() => decodeCheckpoint(bytes));
  const text = new TextDecoder().decode(bytes.subarray(0, 4096));
  const stepAt = text.indexOf('"step":') + 7;
  const epochAt = text.indexOf('"epoch":') + 8;
  for (const [what, at] of [
    ['magic-free header length', 9],
    ['step counter', stepAt],
    ['metadata epoch', epochAt],
    ['data', bytes.length - 100],
    ['trailer', bytes.length - 1],
  ] as const) {
    const bad = bytes.slice();
    bad[at] = bad[at]! ^ 0x01;
    assert.throws(() => decodeCheckpoint(bad), /CRC-32 \d+ over the whole file, got \d+ \(the file is corrupted or truncated\)/, what);
  }
  assert.throws(() => decodeCheckpoint(bytes.subarray(0, bytes.length - 10)), /corrupted or truncated/);
  const corrupt = join(dir, 'corrupt');
  mkdirSync(corrupt);
  for (const f of ['config.json', 'log.jsonl']) writeFileSync(join(corrupt, f), readFileSync(join(ref, f)));
  const flipped = bytes.slice();
  flipped[stepAt] = flipped[stepAt]! ^ 0x01;
  writeFileSync(join(corrupt, 'checkpoint-last.ckpt'), flipped);
  const r = await run(['train', '--resume', corrupt, '--progress', 'none']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^calib: error: .*checkpoint-last\.ckpt: checkpoint: expected CRC-32 .* \(the file is corrupted or truncated\)\n$/);
});

test('a checkpoint with a missing field, or a checkpoint path that is a directory, is a one-line error with exit 2', async () => {
  const ref = await uninterrupted();
  const ckpt = decodeCheckpoint(new Uint8Array(readFileSync(join(ref, 'checkpoint-last.ckpt'))));
  const { records: _records, ...withoutRecords } = ckpt.header.metadata as Record<string, unknown>;
  // Re-encode with the same content but the metadata's `records` left out (a valid CRC: a foreign or hand-made file).
  const { createRunModel } = await import('../../src/train/run/trainer-model.js');
  const config = resolveTrainConfig(JSON.parse(readFileSync(join(ref, 'config.json'), 'utf8')));
  const data = await loadRunData(config);
  const { runOptimizer } = await import('../../src/train/run/run-setup.js');
  const model = createRunModel(config.model, config.modelOptions, data.train);
  const missing = join(dir, 'missing-field');
  mkdirSync(missing);
  writeFileSync(join(missing, 'config.json'), readFileSync(join(ref, 'config.json')));
  writeFileSync(join(missing, 'checkpoint-last.ckpt'), encodeCheckpoint({ model, optimizer: runOptimizer(config), state: ckpt.state, metadata: withoutRecords }));
  const r = await run(['train', '--resume', missing, '--progress', 'none']);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^calib: error: .*checkpoint-last\.ckpt: metadata\.records: expected 2 epoch records, got nothing \(missing field; not a checkpoint written by calib train\?\)\n$/);

  const isDir = join(dir, 'ckpt-is-dir');
  mkdirSync(join(isDir, 'checkpoint-last.ckpt'), { recursive: true });
  writeFileSync(join(isDir, 'config.json'), readFileSync(join(ref, 'config.json')));
  const d = await run(['train', '--resume', isDir, '--progress', 'none']);
  assert.equal(d.code, 2, d.stderr);
  assert.match(d.stderr, /^calib: error: .*checkpoint-last\.ckpt: expected a checkpoint file, got a directory\n$/);
});

// ---------------------------------------------------------------------------------------------------------------
// Divergence and runs that do not learn

test('a loss that becomes NaN stops the run at that step: exit 1, one line naming epoch and step, log and last good checkpoint kept', async () => {
  const out = join(dir, 'diverged');
  const r = await run(['train', ...tiny, '--lr', '1e10', '--checkpoint-steps', '1', '--out', out, '--progress', 'none']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.split('\n').length, 2, 'one line');
  const m = /^calib: error: training failed: the training loss became (NaN|-?Infinity) at epoch 1, step (\d+) of 68 \(update (\d+) of the run\)/.exec(r.stderr);
  assert.ok(m, r.stderr);
  assert.ok(existsSync(join(out, 'log.jsonl')), 'the log is kept');
  const last = await loadCheckpoint(join(out, 'checkpoint-last.ckpt'));
  assert.equal(last.header.step, Number(m[3]) - 1, 'the last checkpoint is the update before the bad one');
  assert.ok(
    last.state.params.every((v) => Number.isFinite(v)),
    'and it holds finite weights',
  );
  assert.ok(!existsSync(join(out, 'run.lock')), 'the lock is released');
  assert.ok(!existsSync(join(out, 'summary.json')), 'nothing is reported as a result');
  const failure = JSON.parse(readFileSync(join(out, 'failure.json'), 'utf8'));
  assert.equal(failure.kind, 'diverged', 'failure.json records the kind, machine-readable');
  assert.match(failure.error, /^the training loss became (NaN|-?Infinity) at epoch 1/);
});

test('weights that overflow to infinite validation outputs while the loss stays finite are a divergence too: failure.json kind "diverged"', async () => {
  // Measured: at these settings the training loss stays finite for 2 epochs but the validation logits reach -Infinity.
  const out = join(dir, 'diverged-outputs');
  const r = await run([
    'train',
    '--dataset',
    'mnist',
    '--subset',
    '200',
    '--test-subset',
    '100',
    '--validation',
    '100',
    '--model-opt',
    'hidden=[8]',
    '--batch',
    '50',
    '--epochs',
    '2',
    '--lr',
    '1e10',
    '--threads',
    '1',
    '--out',
    out,
    '--progress',
    'none',
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr.split('\n').length, 2, 'one line: ' + r.stderr);
  assert.match(r.stderr, /^calib: error: training failed: the model's validation outputs became (NaN|-?Infinity) at epoch \d+ \(output \d+\)/);
  const failure = JSON.parse(readFileSync(join(out, 'failure.json'), 'utf8'));
  assert.equal(failure.kind, 'diverged');
  assert.ok(!existsSync(join(out, 'summary.json')), 'nothing is reported as a result');
});

test('a run at chance accuracy for its first epochs says so (warning on stderr, the run goes on)', async () => {
  const config = resolveTrainConfig({ dataset: 'mnist', subset: 300, testSubset: 100, modelOptions: { hidden: [8] }, epochs: 2, batch: 64, out: join(dir, 'chance') });
  const data = await loadRunData(config);
  // Identical (all-zero) images: every validation sample gets the same prediction, so accuracy ≤ the majority share.
  const blank = {
    ...data,
    train: { ...data.train, images: new Float32Array((data.train as { images: Float32Array }).images.length) },
    validation: { ...data.validation, images: new Float32Array((data.validation as { images: Float32Array }).images.length) },
  } as typeof data;
  const warnings: string[] = [];
  const result = await train(config, { data: blank, onWarning: (w) => warnings.push(w) });
  assert.equal(result.status, 'completed');
  assert.equal(warnings.length, 1, 'warned once');
  assert.match(warnings[0]!, /^validation accuracy is at chance after 2 epoch\(s\) \(\d+\.\d%, \d+\.\d%; the majority class is \d+\.\d% of the validation split\)/);
  const rec = (acc: number): EpochRecord => ({
    epoch: 1,
    steps: 1,
    lr: 0.1,
    train_loss: 1,
    train_terms: {},
    val_accuracy: acc,
    val_nll: 1,
    val_ece: 0,
    val_adaece: 0,
    best: true,
    epoch_time_s: 1,
    train_time_s: 1,
    samples_per_s: 1,
  });
  assert.equal(chanceWarning([rec(0.1), rec(0.5)], 10, 0.1), null, 'learning in epoch 2: no warning');
  assert.equal(chanceWarning([rec(0.1)], 10, 0.1), null, 'not before the second epoch');
  assert.equal(chanceWarning([rec(0.1), rec(0.1), rec(0.1)], 10, 0.1), null, 'only once, after the second epoch');
  assert.notEqual(chanceWarning([rec(0.1)], 1, 0.1), null, 'a one-epoch run is judged after its epoch');
});

// ---------------------------------------------------------------------------------------------------------------
// Progress without a terminal

test('without a terminal, progress lines come at a steady interval within an epoch', () => {
  let clock = 0;
  let text = '';
  const p = new ConsoleProgress({ write: (t: string) => (text += t) }, { live: false, lineInterval: 30_000, now: () => clock });
  p.start({ totalSteps: 1000, doneSteps: 0, epochs: 2 });
  for (let s = 1; s <= 400; s++) {
    clock = s * 250; // 4 updates per second → a line every 120 updates
    p.step({ epoch: 0, doneSteps: s, loss: 2, samples: 32 * s, trainSeconds: s / 4 });
  }
  const lines = text.trim().split('\n');
  assert.equal(lines.length, 3, text);
  assert.equal(lines[0], '120/1000  epoch 1/2  loss 2.0000  128 samples/s  ETA 3:40');
  assert.ok(
    lines.every((l) => !l.includes('\r')),
    'plain lines, no carriage returns',
  );
  text = '';
  const quiet = new ConsoleProgress({ write: (t: string) => (text += t) }, { live: false, lineInterval: 0, now: () => clock });
  quiet.start({ totalSteps: 10, doneSteps: 0, epochs: 1 });
  clock += 1e9;
  quiet.step({ epoch: 0, doneSteps: 1, loss: 1, samples: 1, trainSeconds: 1 });
  assert.equal(text, '', '--progress-seconds 0: epoch lines only');
});

// ---------------------------------------------------------------------------------------------------------------
// Settings refused up front instead of failing late or being ignored

test('settings that only mean something with another one are refused, not ignored (exit 2, naming both)', async () => {
  const out = ['--out', join(dir, 'never')];
  const cases: [string[], RegExp][] = [
    [['--loss', 'soft-ce'], /config\.loss: expected a loss for hard labels \('soft-ce' needs soft targets/],
    [['--loss', 'soft-ce', '--mixup', '0.2', '--mixup-kind', 'feature'], /'soft-ce' needs soft targets/],
    [['--weight', '2'], /--weight is the weight of the secondary term; give --secondary NAME too/],
    [['--weight', '1'], /--weight is the weight of the secondary term/],
    [['--holdout', '0.2'], /--holdout is the held-out fraction of --arc-placement holdout/],
    [['--mixup-kind', 'manifold'], /--mixup-kind needs --mixup ALPHA > 0/],
  ];
  for (const [flags, pattern] of cases) {
    const r = await run(['train', '--dataset', 'mnist', ...flags, ...out]);
    assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, flags.join(' '));
    assert.equal(r.stderr.split('\n').length, 2, 'one line');
  }
  // The same in a config file (values other than the defaults; a resolved config.json holds the defaults).
  for (const [key, value, pattern] of [
    ['weight', 3, /config.*\.weight: expected a weight only together with a secondary term/],
    ['holdout', 0.3, /\.holdout: expected a held-out fraction only with arcPlacement 'holdout'/],
    ['mixupKind', 'feature', /\.mixupKind: expected a mixup kind only with mixup > 0/],
  ] as const) {
    const file = join(dir, `cfg-${key}.json`);
    writeFileSync(file, JSON.stringify({ dataset: 'mnist', [key]: value }));
    const r = await run(['train', '--config', file, ...out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, pattern);
  }
  assert.ok(!existsSync(join(dir, 'never')), 'nothing was created');
});

test('a config file that is a JSON array, or --out naming an existing file, is a one-line error with exit 2', async () => {
  const file = join(dir, 'array.json');
  writeFileSync(file, '[{"dataset": "mnist"}]');
  const a = await run(['train', '--config', file]);
  assert.equal(a.code, 2);
  assert.equal(a.stderr, 'calib: error: --config: expected a JSON object of settings, got array\n');
  const plain = join(dir, 'a-file');
  writeFileSync(plain, 'mine');
  const f = await run(['train', ...tiny, '--out', plain]);
  assert.equal(f.code, 2, f.stderr);
  assert.match(f.stderr, /^calib: error: out: expected a run directory \(an existing directory or a new path\), got ".*a-file" is a file\n$/);
  assert.equal(readFileSync(plain, 'utf8'), 'mine', 'the file is untouched');
  const r = await run(['train', '--resume', plain]);
  assert.equal(r.code, 2, r.stderr);
});

test('re-running into an existing run names --resume and --force', async () => {
  const ref = await uninterrupted();
  const r = await run(['train', ...tiny, '--out', ref]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /continue it with calib train --resume .*reference, replace it with --force, or choose another --out/);
});

// ---------------------------------------------------------------------------------------------------------------
// The host-state protocol of stateful losses

test('CRL host state: save → restore gives the same feeds; a state of the wrong size is an error naming the field', () => {
  const live = CRL_HOST_STATE.create(6, 3);
  const idx = Int32Array.from([0, 2, 5]);
  live.record(idx, Float32Array.from([3, 1, 0, 0, 2, 1, 0, 0, 9]), Int32Array.from([0, 1, 2])); // correct, correct, correct
  live.endEpoch();
  live.record(Int32Array.from([2]), Float32Array.from([5, 0, 0]), Int32Array.from([1])); // wrong
  const restored = CRL_HOST_STATE.restore(JSON.parse(JSON.stringify(live.save())), 6, 3, 'lossState');
  const all = Int32Array.from([0, 1, 2, 3, 4, 5]);
  assert.deepEqual(restored.feed(all), live.feed(all));
  assert.deepEqual(Array.from(live.feed(all)['crl-counts'] as Float32Array), [1, 0, 1, 0, 0, 1]);
  assert.equal(live.feed(all)['crl-epochs'], 1);
  assert.throws(() => CRL_HOST_STATE.restore(live.save(), 7, 3, 'lossState'), /lossState\.counts: expected 7 non-negative integer counts/);
  assert.throws(() => CorrectnessHistory.restore({ counts: [0], completed: -1 }, 1, 's'), /s\.completed: expected an integer ≥ 0/);
});

test('time-based mid-epoch checkpoints: a run that crashes (an exception) mid-epoch resumes from the last one and ends bit-identical', async () => {
  const config = resolveTrainConfig({ dataset: 'mnist', subset: 300, testSubset: 100, modelOptions: { hidden: [16] }, epochs: 2, batch: 16, out: join(dir, 'timed-a') });
  const data = await loadRunData(config);
  const a = await train(config, { data });
  const out = join(dir, 'timed-b');
  // seconds ≈ 0: a checkpoint after every update by the wall-clock criterion (steps criterion off).
  await assert.rejects(
    train(
      { ...config, out },
      {
        data,
        checkpointEvery: { seconds: 1e-9 },
        onStep: ({ steps }) => {
          if (steps === 7) throw new Error('simulated crash');
        },
      },
    ),
    /simulated crash/,
  );
  assert.equal((await loadCheckpoint(join(out, 'checkpoint-last.ckpt'))).header.step, 6, 'the checkpoint of the update before the crash');
  assert.ok(!existsSync(join(out, 'run.lock')), 'the lock is released on an exception');
  const { resumeTraining } = await import('../../src/train/run/trainer.js');
  const b = await resumeTraining(out, { data });
  assert.ok(Buffer.from(a.state.params.buffer).equals(Buffer.from(b.state.params.buffer)), 'same weights, bit for bit');
  assert.ok(readFileSync(join(dir, 'timed-a', 'test-logits.npy')).equals(readFileSync(join(out, 'test-logits.npy'))));
});

test("--resume accepts the checkpoint and progress flags (they are not part of the run's config) and refuses settings", async () => {
  const ref = await uninterrupted();
  const ok = await run(['train', '--resume', ref, '--checkpoint-steps', '3', '--checkpoint-minutes', '1', '--progress', 'none', '--progress-seconds', '10']);
  assert.equal(ok.code, 0, ok.stderr);
  const bad = await run(['train', '--resume', ref, '--lr', '0.5']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--resume continues a run with its own config\.json; remove --lr/);
  const negative = await run(['train', '--resume', ref, '--checkpoint-minutes', '-1']);
  assert.equal(negative.code, 2);
  assert.match(negative.stderr, /--checkpoint-minutes: expected a finite number ≥ 0, got -1/);
});
