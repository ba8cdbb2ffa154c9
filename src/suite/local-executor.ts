/**
 * Local execution of suite runs: each run is a `calib train` child process (cli/train-child.js, which exits when
 * its parent dies), `calib train --resume DIR` when the run directory holds a checkpoint, else
 * `calib train --config <id>.config.json --out DIR --force` (a run killed before its first checkpoint restarts).
 * Output goes to `<suite>/logs/<id>.txt`; finished epochs are read from the run's log.jsonl once a second.
 * Aborting sends SIGINT: the child stops after the current update and stays resumable.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clearFailureRecord, readFailureKind } from '../train/artefacts/failure-record.js';
import { runPaths, writeJson } from '../train/artefacts/run-directory.js';
import { pathExists } from '../util/path-exists.js';
import type { RunExecutor, RunOutcome, RunTask } from './run-executor.js';
import { epochsDone } from './suite-directory.js';

/** How each attempt's command line starts in logs/<id>.txt (suite-measured.ts counts the `--resume` ones). */
export const TRAIN_COMMAND_PREFIX = '$ calib train ';

/** The child entry script (dist/src/cli/train-child.js). */
export const TRAIN_CHILD_SCRIPT = fileURLToPath(new URL('../cli/train-child.js', import.meta.url));

/** Arguments of the training child for `task` (resume when a checkpoint exists). */
export async function trainArguments(task: RunTask, configFile: string): Promise<string[]> {
  const p = runPaths(task.dir);
  if (await pathExists(p.lastCheckpoint)) return ['--resume', task.dir, '--progress', 'lines'];
  await writeJson(configFile, { ...task.run.config, out: task.dir, threads: task.threads });
  return ['--config', configFile, '--out', task.dir, '--force', '--progress', 'lines'];
}

/** Run the training child of `task`, writing its output to `logFile`. */
export async function runTrainChild(task: RunTask, logDir: string, onEpoch: (epoch: number) => void, signal: AbortSignal): Promise<RunOutcome> {
  await mkdir(logDir, { recursive: true });
  const logFile = join(logDir, `${task.run.id}.txt`);
  const args = await trainArguments(task, join(logDir, `${task.run.id}.config.json`));
  await clearFailureRecord(task.dir);
  const log = createWriteStream(logFile, { flags: 'a' });
  log.write(`${TRAIN_COMMAND_PREFIX}${args.join(' ')}\n`);
  // Own process group: a terminal's Ctrl-C reaches only the suite, which forwards one SIGINT (a second would make
  // calib train quit without finishing its update); the child still exits if the suite dies (train-child.ts).
  const child = spawn(process.execPath, [TRAIN_CHILD_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  let lastError = '';
  child.stderr.on('data', (d: Buffer) => {
    const lines = d
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    if (lines.length) lastError = lines[lines.length - 1]!;
  });
  const onAbort = (): void => {
    child.kill('SIGINT');
  };
  signal.addEventListener('abort', onAbort);
  let reported = -1;
  // Set once the child has exited: a poll still in flight then must not report (the run would read as running
  // again after it ended).
  let ended = false;
  const poll = setInterval(() => {
    void epochsDone(task.dir).then((n) => {
      if (!ended && n !== reported) {
        reported = n;
        onEpoch(n);
      }
    });
  }, 1000);
  try {
    const code = await new Promise<number>((resolve) => {
      child.on('error', (e) => {
        lastError = e.message;
        resolve(1);
      });
      child.on('close', (c, sig) => resolve(c ?? (sig === 'SIGINT' ? 130 : 1)));
    });
    ended = true;
    clearInterval(poll);
    onEpoch(await epochsDone(task.dir));
    if (code === 0) return { exitCode: 0 };
    // The trainer's own record of a TrainingError; a child that exited without one failed otherwise ('error').
    const failure = code === 130 ? undefined : ((await readFailureKind(task.dir)) ?? 'error');
    return { exitCode: code, error: lastError || `calib train exited with code ${code} (see ${logFile})`, ...(failure ? { failure } : {}) };
  } finally {
    clearInterval(poll);
    signal.removeEventListener('abort', onAbort);
    await new Promise<void>((r) => log.end(r));
  }
}

/** `jobs` training children side by side. */
export function localExecutor(suiteDir: string, jobs: number): RunExecutor {
  return {
    concurrency: jobs,
    execute: (task, onEpoch, signal) => runTrainChild(task, join(suiteDir, 'logs'), onEpoch, signal),
  };
}

/** Last `n` lines of a text file ('' when unreadable). */
export async function tail(path: string, n: number): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trimEnd().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
}
