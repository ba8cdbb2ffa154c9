/**
 * What a suite directory says about time: for each expanded run, whether it is done, the epochs it has trained and
 * how long each took (the `epoch_time_s` of its log.jsonl), as the input of the estimate (suite-estimate.ts). A
 * suite directory that does not exist yet reads as every run pending.
 */
import { readFile, stat } from 'node:fs/promises';
import { runPaths } from '../../train/artefacts/run-directory.js';
import type { SuiteRun } from '../expand-suite.js';
import { costClass } from './run-cost-class.js';
import type { RunProgress } from './suite-estimate.js';
import { POSTHOC_FILE, runDirectory } from '../suite-directory.js';
import { pathExists } from '../../util/path-exists.js';
import { join } from 'node:path';
import { evaluationHash, trainingHash } from '../identity/run-identity.js';
import { readJsonObject } from '../identity/run-files.js';

/**
 * The times log.jsonl of a run directory records: the wall seconds of each epoch (`epoch_time_s`; lines without it
 * skipped), and the epochs' CPU seconds (`cpu_time_s`: the run's process, every thread) with how many epochs they
 * cover — null when an epoch lacks it (a log written before it was recorded). A line cut by a crash is not counted.
 */
export async function epochTimes(runDir: string): Promise<{ wall: number[]; cpu: { seconds: number; epochs: number } | null }> {
  let text: string;
  try {
    text = await readFile(runPaths(runDir).log, 'utf8');
  } catch {
    return { wall: [], cpu: null };
  }
  const wall: number[] = [];
  let cpuSeconds = 0;
  let cpuEpochs = 0;
  let cpuComplete = true;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let record: { epoch_time_s?: unknown; cpu_time_s?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const t = record.epoch_time_s;
    if (typeof t === 'number' && Number.isFinite(t) && t > 0) wall.push(t);
    const c = record.cpu_time_s;
    if (typeof c === 'number' && Number.isFinite(c)) {
      cpuSeconds += c;
      cpuEpochs++;
    } else cpuComplete = false;
  }
  return { wall, cpu: cpuComplete && cpuEpochs ? { seconds: cpuSeconds, epochs: cpuEpochs } : null };
}

/** Wall seconds of each epoch recorded in a run directory's log.jsonl (epochTimes' `wall`). */
export async function epochSeconds(runDir: string): Promise<number[]> {
  return (await epochTimes(runDir)).wall;
}

/**
 * Whether a finished run of `rd` is the suite's `run` (its config.json's evaluation identity, run-identity.ts), needs
 * only its finishing redone (the training identity is the suite's and the final checkpoints are there: re-evaluated,
 * run-reevaluate.ts), or must train again. A cheap reading of config.json (one it cannot read is left to the file
 * checks: 'same'); run-check.ts judges the files themselves.
 */
async function finishedRunState(rd: string, run: SuiteRun): Promise<'same' | 'finishing' | 'retrain'> {
  const p = runPaths(rd);
  const config = await readJsonObject(p.config, 'config.json');
  if ('problem' in config) return 'same';
  if (evaluationHash(config.value) === evaluationHash(run.config)) return 'same';
  if (trainingHash(config.value) !== trainingHash(run.config)) return 'retrain';
  return (await pathExists(p.lastCheckpoint)) && (await pathExists(p.bestCheckpoint)) ? 'finishing' : 'retrain';
}

/** Seconds from a run's last epoch (log.jsonl) to the end of its finishing (the later of summary.json and ood.json), or NaN. */
async function finishingSeconds(rd: string): Promise<number> {
  const p = runPaths(rd);
  const time = async (f: string): Promise<number> => (await stat(f).catch(() => null))?.mtimeMs ?? Number.NaN;
  const log = await time(p.log);
  const end = Math.max(await time(p.summary), (await time(p.ood)) || 0);
  return Number.isFinite(log) && Number.isFinite(end) && end >= log ? (end - log) / 1000 : Number.NaN;
}

/**
 * The progress of every run of a suite in `dir` (pending everywhere when `dir` is undefined: a suite not started),
 * each run costed with `threads` threads. A finished run whose settings are not the suite's counts as not done: with
 * only its evaluation settings changed, its finishing is left (`finishing`); otherwise all its epochs.
 */
export async function suiteRunProgress(dir: string | undefined, runs: readonly SuiteRun[], threads: number): Promise<RunProgress[]> {
  const out: RunProgress[] = [];
  for (const run of runs) {
    const cost = costClass(run.config, threads);
    if (dir === undefined) {
      out.push({ id: run.id, method: run.method, cost, epochs: run.config.epochs, epochsDone: 0, done: false, epochSeconds: [] });
      continue;
    }
    const times = await epochSeconds(runDirectory(dir, run.id));
    const rd = runDirectory(dir, run.id);
    const trained = await pathExists(runPaths(rd).summary);
    const state = trained ? await finishedRunState(rd, run) : 'same';
    if (state === 'finishing') {
      out.push({ id: run.id, method: run.method, cost, epochs: run.config.epochs, epochsDone: run.config.epochs, done: false, epochSeconds: times, finishing: await finishingSeconds(rd) });
      continue;
    }
    // Finished: trained (summary.json) and calibrated (posthoc.json), as suite status counts 'done' before its identity checks.
    const done = state === 'same' && trained && (await pathExists(join(rd, POSTHOC_FILE)));
    const epochsDone = done ? run.config.epochs : state === 'retrain' ? 0 : times.length;
    out.push({ id: run.id, method: run.method, cost, epochs: run.config.epochs, epochsDone, done, epochSeconds: times });
  }
  return out;
}
