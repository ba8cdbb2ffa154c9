/**
 * What a suite directory says about time: for each expanded run, whether it is done, the epochs it has trained and
 * how long each took (the `epoch_time_s` of its log.jsonl), as the input of the estimate (suite-estimate.ts). A
 * suite directory that does not exist yet reads as every run pending.
 */
import { readFile } from 'node:fs/promises';
import { runPaths } from '../../train/artefacts/run-directory.js';
import type { SuiteRun } from '../expand-suite.js';
import { costClass } from './run-cost-class.js';
import type { RunProgress } from './suite-estimate.js';
import { POSTHOC_FILE, runDirectory } from '../suite-directory.js';
import { pathExists } from '../../util/path-exists.js';
import { join } from 'node:path';

/** Wall seconds of each epoch recorded in a run directory's log.jsonl (lines without `epoch_time_s` skipped). */
export async function epochSeconds(runDir: string): Promise<number[]> {
  let text: string;
  try {
    text = await readFile(runPaths(runDir).log, 'utf8');
  } catch {
    return [];
  }
  const seconds: number[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const t = (JSON.parse(line) as { epoch_time_s?: unknown }).epoch_time_s;
      if (typeof t === 'number' && Number.isFinite(t) && t > 0) seconds.push(t);
    } catch {
      // a line cut by a crash: the epoch is not counted
    }
  }
  return seconds;
}

/**
 * CPU seconds of the epochs of a run directory's log.jsonl (`cpu_time_s`: the run's process, every thread), and
 * how many epochs it covers; null when an epoch lacks it (a log written before it was recorded).
 */
export async function epochCpuSeconds(runDir: string): Promise<{ seconds: number; epochs: number } | null> {
  let text: string;
  try {
    text = await readFile(runPaths(runDir).log, 'utf8');
  } catch {
    return null;
  }
  let seconds = 0;
  let epochs = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let t: unknown;
    try {
      t = (JSON.parse(line) as { cpu_time_s?: unknown }).cpu_time_s;
    } catch {
      continue; // a line cut by a crash, as epochSeconds
    }
    if (typeof t !== 'number' || !Number.isFinite(t)) return null;
    seconds += t;
    epochs++;
  }
  return epochs ? { seconds, epochs } : null;
}

/**
 * The progress of every run of a suite in `dir` (pending everywhere when `dir` is undefined: a suite not started),
 * each run costed with `threads` threads.
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
    // Finished: trained (summary.json) and calibrated (posthoc.json), as suite status counts 'done' before its identity checks.
    const done = (await pathExists(runPaths(rd).summary)) && (await pathExists(join(rd, POSTHOC_FILE)));
    out.push({ id: run.id, method: run.method, cost, epochs: run.config.epochs, epochsDone: done ? run.config.epochs : times.length, done, epochSeconds: times });
  }
  return out;
}
