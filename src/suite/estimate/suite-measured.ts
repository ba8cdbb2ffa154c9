/**
 * Measured machine time of a suite directory, from what its runs already hold (issue #23: the rerun's machine-hours
 * stated beside the plan). Two measures, both reported:
 *
 *   machine-hours = Σ run time ÷ runs side by side
 *       where a run's time is the wall seconds of its trained epochs (log.jsonl `epoch_time_s`) plus its finishing
 *       (the later mtime of summary.json and ood.json − mtime of log.jsonl: test and training-split evaluation,
 *       ONNX export, OOD and corruption sets; not the post-hoc step — seconds, and posthoc.json is rewritten whenever
 *       the suite's post-hoc settings change, so its mtime says nothing of the run), for the runs trained in this directory (finished or not; runs copied in
 *       by `--reuse-from` cost nothing here), and the runs side by side are the `--jobs` every `calib suite run`
 *       recorded in sessions.json (suite-sessions.ts), else the number the caller gives. This is the plan's own unit
 *       (suite-estimate.ts: runs × wall minutes per run measured with N side by side ÷ N), so the two compare.
 *       Not counted: each attempt's start-up before its first epoch (seconds), epochs lost to a stop after the last
 *       checkpoint and trained again.
 *   wall span = the length of the union of the runs' intervals [start, end], start = when the suite first launched
 *       the run (mtime of logs/<id>.config.json, else of the run's config.json), end = its finishing as above
 *       (finished) or its last epoch (log.jsonl): the clock time during which at least one run was in progress. Gaps when no
 *       run was in progress are excluded; the pause of a run that was stopped and resumed later is inside its own
 *       interval (the number of resumed runs is stated), so with resumed runs the span is an upper bound.
 *
 * On a loaded machine both are wall times and include what other work took from the runs.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runPaths } from '../../train/artefacts/run-directory.js';
import type { SuiteRun } from '../expand-suite.js';
import { POSTHOC_FILE, runDirectory } from '../suite-directory.js';
import { TRAIN_COMMAND_PREFIX } from '../local-executor.js';
import { epochTimes } from './suite-run-times.js';
import { readSuiteSessions, recordedJobs } from './suite-sessions.js';
import { formatHours } from './suite-estimate.js';

/** What one run of the directory contributed. */
export interface MeasuredRun {
  readonly id: string;
  /** finished: trained here and post-hoc step done; unfinished: some epochs trained here; reused: copied from another suite. */
  readonly kind: 'finished' | 'unfinished' | 'reused';
  readonly epochs: number;
  /** Σ epoch_time_s of its log.jsonl. */
  readonly epochSeconds: number;
  /** posthoc.json − log.jsonl modification times (finished runs; 0 otherwise). */
  readonly finishSeconds: number;
  /** Σ cpu_time_s of its epochs and their count (null: a log without CPU times). */
  readonly epochCpu: { readonly seconds: number; readonly epochs: number } | null;
  /** Its wall interval in ms since the epoch (null when a time is missing). */
  readonly start: number | null;
  readonly end: number | null;
  /** Times the suite resumed it from a checkpoint (`calib train --resume` lines of logs/<id>.txt). */
  readonly resumes: number;
}

export interface SuiteMeasurement {
  readonly runs: readonly MeasuredRun[];
  /** Runs of the suite (suite.json). */
  readonly total: number;
  readonly finished: number;
  readonly unfinished: number;
  readonly reused: number;
  /** Σ (epoch seconds + finish seconds) over the runs trained here. */
  readonly runSeconds: number;
  /** Runs side by side the machine-hours divide by, and where that number came from (null: not known). */
  readonly jobs: number | null;
  readonly jobsSource: 'recorded' | 'given' | null;
  /** The distinct `jobs` of the recorded sessions (null: a queue session). */
  readonly recordedJobs: readonly (number | null)[];
  /** runSeconds ÷ jobs (NaN when jobs is not known). */
  readonly machineSeconds: number;
  /** Σ run time of the finished runs trained here, and its mean (NaN without one). */
  readonly finishedSeconds: number;
  readonly secondsPerFinishedRun: number;
  /** Length of the union of the runs' wall intervals. */
  readonly spanSeconds: number;
  /** Runs resumed at least once. */
  readonly resumed: number;
  /**
   * The epochs' CPU time (log.jsonl cpu_time_s) over the trained runs whose logs record it: what the training cost
   * whatever else the machine ran; `cpuEpochs` epochs of `cpuRuns` runs (0 when no log records it).
   */
  readonly cpuSeconds: number;
  readonly cpuEpochs: number;
  readonly cpuRuns: number;
}

/** Total length, in seconds, of the union of intervals given in milliseconds (reversed or non-finite ones are skipped). */
export function unionSeconds(intervals: readonly (readonly [number, number])[]): number {
  const sorted = intervals.filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b) && b >= a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let open: [number, number] | null = null;
  for (const [a, b] of sorted) {
    if (open !== null && a <= open[1]) open[1] = Math.max(open[1], b);
    else {
      if (open !== null) total += open[1] - open[0];
      open = [a, b];
    }
  }
  if (open !== null) total += open[1] - open[0];
  return total / 1000;
}

async function mtime(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

async function isReused(runDir: string): Promise<boolean> {
  try {
    const identity = JSON.parse(await readFile(join(runDir, 'identity.json'), 'utf8')) as { reusedFrom?: unknown } | null;
    return typeof identity?.reusedFrom === 'string';
  } catch {
    return false;
  }
}

async function resumes(logFile: string): Promise<number> {
  try {
    return (await readFile(logFile, 'utf8')).split('\n').filter((l) => l.startsWith(`${TRAIN_COMMAND_PREFIX}--resume`)).length;
  } catch {
    return 0;
  }
}

/** One run's contribution; undefined for a run with no epoch trained (nothing measured). */
async function measureRun(dir: string, id: string): Promise<MeasuredRun | undefined> {
  const runDir = runDirectory(dir, id);
  const paths = runPaths(runDir);
  const logTime = await mtime(paths.log);
  const posthocTime = await mtime(join(runDir, POSTHOC_FILE));
  const summaryTime = await mtime(paths.summary);
  const done = posthocTime !== null && summaryTime !== null;
  // The trainer's last output: summary.json, or ood.json where a build wrote the summary before the OOD evaluation.
  const finishedAt = Math.max(summaryTime ?? 0, (await mtime(paths.ood)) ?? 0);
  if (done && (await isReused(runDir))) return { id, kind: 'reused', epochs: 0, epochSeconds: 0, finishSeconds: 0, epochCpu: null, start: null, end: null, resumes: 0 };
  const { wall: seconds, cpu } = await epochTimes(runDir);
  if (seconds.length === 0) return undefined;
  const finishSeconds = done && logTime !== null ? Math.max(0, (finishedAt - logTime) / 1000) : 0;
  const start = (await mtime(join(dir, 'logs', `${id}.config.json`))) ?? (await mtime(paths.config));
  return {
    id,
    kind: done ? 'finished' : 'unfinished',
    epochs: seconds.length,
    epochSeconds: seconds.reduce((a, s) => a + s, 0),
    finishSeconds,
    epochCpu: cpu,
    start,
    end: done ? finishedAt : logTime,
    resumes: await resumes(join(dir, 'logs', `${id}.txt`)),
  };
}

/**
 * The measured time of the runs of suite directory `dir` (see the module comment); `givenJobs` is used when the
 * sessions do not record one number of runs side by side.
 */
export async function measureSuite(dir: string, runs: readonly SuiteRun[], givenJobs?: number): Promise<SuiteMeasurement> {
  const measured: MeasuredRun[] = [];
  for (const run of runs) {
    const m = await measureRun(dir, run.id);
    if (m !== undefined) measured.push(m);
  }
  const trained = measured.filter((r) => r.kind !== 'reused');
  const finished = trained.filter((r) => r.kind === 'finished');
  const runTime = (r: MeasuredRun): number => r.epochSeconds + r.finishSeconds;
  const runSeconds = trained.reduce((a, r) => a + runTime(r), 0);
  const finishedSeconds = finished.reduce((a, r) => a + runTime(r), 0);
  const recorded = recordedJobs(await readSuiteSessions(dir));
  const jobs = recorded.jobs ?? givenJobs ?? null;
  const jobsSource = recorded.jobs !== null ? 'recorded' : givenJobs !== undefined ? 'given' : null;
  const intervals = trained.filter((r) => r.start !== null && r.end !== null).map((r) => [r.start!, r.end!] as const);
  return {
    runs: measured,
    total: runs.length,
    finished: finished.length,
    unfinished: trained.length - finished.length,
    reused: measured.length - trained.length,
    runSeconds,
    jobs,
    jobsSource,
    recordedJobs: recorded.values,
    machineSeconds: jobs === null ? Number.NaN : runSeconds / jobs,
    finishedSeconds,
    secondsPerFinishedRun: finished.length ? finishedSeconds / finished.length : Number.NaN,
    spanSeconds: unionSeconds(intervals),
    resumed: trained.filter((r) => r.resumes > 0).length,
    cpuSeconds: trained.reduce((a, r) => a + (r.epochCpu?.seconds ?? 0), 0),
    cpuEpochs: trained.reduce((a, r) => a + (r.epochCpu?.epochs ?? 0), 0),
    cpuRuns: trained.filter((r) => r.epochCpu !== null).length,
  };
}

/** "2 side by side (recorded in sessions.json)", "1 side by side (--jobs; not recorded)", … */
export function jobsText(m: SuiteMeasurement): string {
  if (m.jobs === null) return 'runs side by side not recorded';
  if (m.jobsSource === 'recorded') return `${m.jobs} side by side (recorded in sessions.json)`;
  const why = m.recordedJobs.length > 1 ? `the sessions ran ${m.recordedJobs.map((j) => (j === null ? 'on a queue' : String(j))).join(' and ')}` : 'not recorded in sessions.json';
  return `${m.jobs} side by side (--jobs; ${why})`;
}

/** The definition stated beside the numbers (status, budget, report). */
export const MEASURE_DEFINITION =
  "machine-hours = Σ run time ÷ runs side by side, a run's time = its epochs' wall seconds (log.jsonl epoch_time_s) + its finishing (log.jsonl → the later of summary.json and ood.json); wall span = union of the runs' intervals from launch to that (or the last epoch)";

/** The lines `calib suite status` prints about the time measured so far. */
export function formatMeasured(m: SuiteMeasurement): string[] {
  const trained = m.finished + m.unfinished;
  if (trained === 0) return [`measured so far: no run trained in this directory${m.reused ? ` (${m.reused} reused from other suites)` : ''}`];
  const machine = Number.isFinite(m.machineSeconds) ? ` = ${(m.machineSeconds / 3600).toFixed(2)} machine-hours` : '';
  const perRun = Number.isFinite(m.secondsPerFinishedRun) ? `; ${(m.secondsPerFinishedRun / 60).toFixed(1)} min per finished run` : '';
  const resumed = m.resumed ? ` (${m.resumed} run(s) resumed after a stop: their pauses are inside it)` : '';
  return [
    `measured so far: ${trained} runs trained here (${m.finished} finished, ${m.unfinished} unfinished; ${m.reused} reused): ${formatHours(m.runSeconds)} of run time ÷ ${jobsText(m)}${machine}${perRun}`,
    `  wall span with a run in progress: ${formatHours(m.spanSeconds)}${resumed}`,
    ...(m.cpuEpochs ? [`  ${cpuText(m)}`] : []),
    `  (${MEASURE_DEFINITION})`,
  ];
}

/** The epochs' CPU time, load-independent: "CPU time of the epochs …: 0.52 CPU-hours over 120 epochs of 2 runs, 15.6 CPU-s per epoch". */
export function cpuText(m: SuiteMeasurement): string {
  return `CPU time of the epochs (log.jsonl cpu_time_s, every thread of a run; not slowed by other work on the machine): ${(m.cpuSeconds / 3600).toFixed(2)} CPU-hours over ${m.cpuEpochs} epochs of ${m.cpuRuns} run(s), ${(m.cpuSeconds / m.cpuEpochs).toFixed(1)} CPU-s per epoch`;
}

/** The report's "Compute" paragraph (report.md / report.html). */
export function computeText(m: SuiteMeasurement): string {
  const trained = m.finished + m.unfinished;
  const copied = `${m.reused} copied from other suites (--reuse-from)`;
  if (trained === 0) return `no run trained in this directory; ${copied}.`;
  const minutes = (s: number): string => (Number.isFinite(s) ? (s / 60).toFixed(1) : '?');
  const machine = Number.isFinite(m.machineSeconds)
    ? ` ÷ ${jobsText(m)} = ${(m.machineSeconds / 3600).toFixed(2)} machine-hours; ${minutes(m.secondsPerFinishedRun)} wall minutes per finished run (${minutes(m.secondsPerFinishedRun / m.jobs!)} machine-minutes)`
    : `; runs side by side not recorded (the suite started before sessions.json existed): machine-hours not stated (calib report DIR --jobs N, or calib suite status DIR --jobs N, states them for N side by side); ${minutes(m.secondsPerFinishedRun)} wall minutes per finished run`;
  const resumed = m.resumed ? ` (${m.resumed} run(s) resumed after a stop: their pauses are inside it)` : '';
  return (
    `${m.finished} runs trained in this directory and finished, ${m.unfinished} unfinished, ${copied}. Run time ${(m.runSeconds / 3600).toFixed(2)} h (each run's epochs, log.jsonl epoch_time_s, ` +
    `plus its finishing, log.jsonl to the later of summary.json and ood.json: final evaluations, export, OOD and corruption sets)${machine}. ` +
    `Wall span with at least one run in progress: ${(m.spanSeconds / 3600).toFixed(2)} h${resumed}. Wall times include what other work on the machine took from the runs.` +
    (m.cpuEpochs ? ` ${cpuText(m)}.` : '')
  );
}

/** report.json's `compute`: the measurement (hours; null where not known). */
export function computeJson(m: SuiteMeasurement): Record<string, unknown> {
  const n = (x: number): number | null => (Number.isFinite(x) ? x : null);
  return {
    runs_finished: m.finished,
    runs_unfinished: m.unfinished,
    runs_reused: m.reused,
    run_hours: m.runSeconds / 3600,
    jobs: m.jobs,
    jobs_source: m.jobsSource,
    machine_hours: n(m.machineSeconds / 3600),
    minutes_per_finished_run: n(m.secondsPerFinishedRun / 60),
    span_hours: m.spanSeconds / 3600,
    runs_resumed: m.resumed,
    cpu_hours: m.cpuEpochs ? m.cpuSeconds / 3600 : null,
    cpu_epochs: m.cpuEpochs,
    cpu_seconds_per_epoch: m.cpuEpochs ? m.cpuSeconds / m.cpuEpochs : null,
    definition: MEASURE_DEFINITION,
  };
}
