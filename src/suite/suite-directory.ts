/**
 * The layout of a suite directory (`calib suite run … --out DIR`):
 *
 *   suite.json            the suite as run: its validated file, the scale, and every expanded run (id, method, sweep
 *                         value, seed, full training configuration)
 *   runs/<id>/            one ordinary run directory per run (`calib eval`, `calib fit`, `calib train --resume` work
 *                         on it), plus posthoc.json (calibrators fitted on validation, test metrics before/after)
 *   logs/<id>.txt         the training child's output; logs/<id>.failed.json after a failure (reason, exit code)
 *   report.md, report.html, report.json   written by `calib report DIR`
 *
 * A run's state is read from its files: done (summary.json and posthoc.json), trained (summary.json only: the
 * post-hoc step is left), failed (a failure record and not done), partial (a checkpoint: resume it), pending.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { pathExists } from '../util/path-exists.js';
import { describe, invalidArgument } from '../util/errors.js';
import { readJson, runPaths, writeJson } from '../train/run-directory.js';
import type { TrainConfig } from '../train/train-config.js';
import type { SuiteRun } from './expand-suite.js';
import { parseSuite, type Suite, type SuiteScale } from './suite-schema.js';

export const SUITE_FILE = 'suite.json';
export const POSTHOC_FILE = 'posthoc.json';
/** Where a failed run's record is kept (beside its output log, so a run directory that cannot be written still gets one). */
export function failedFile(dir: string, id: string): string {
  return join(dir, 'logs', `${id}.failed.json`);
}

/** suite.json. */
export interface SuiteRecord {
  readonly format: 1;
  readonly scale: SuiteScale;
  readonly suite: Suite;
  readonly runs: readonly SuiteRun[];
}

export type RunState = 'done' | 'trained' | 'partial' | 'failed' | 'pending';

/** Directory of run `id` in suite directory `dir`. */
export function runDirectory(dir: string, id: string): string {
  return join(dir, 'runs', id);
}

/** The run's configuration placed in suite directory `dir`. */
export function placedConfig(dir: string, run: SuiteRun, threads?: number): TrainConfig {
  return { ...run.config, out: runDirectory(dir, run.id), ...(threads !== undefined ? { threads } : {}) };
}

/**
 * What identifies a run's results: its configuration without `out` and `threads` (which do not change them), and
 * without the OOD evaluation's settings when the run does not evaluate OOD (a suite may set `oodSubset` at a scale for
 * the methods that do; the others' results do not depend on it).
 */
export function runIdentity(config: TrainConfig): string {
  const { out: _o, threads: _t, ...rest } = config;
  if (!rest.ood) for (const key of OOD_ONLY_KEYS) delete (rest as Record<string, unknown>)[key];
  return JSON.stringify(rest);
}

/** Configuration keys read only by the OOD evaluation (train/run-finalise.ts runOod). */
const OOD_ONLY_KEYS = ['oodDataset', 'oodDatasetOptions', 'oodSubset'] as const;

/**
 * Create (or re-open) a suite directory for `runs`: writes suite.json, or checks that the one there describes the
 * same runs (resuming a suite with other settings would mix results).
 */
export async function prepareSuiteDirectory(dir: string, record: SuiteRecord): Promise<void> {
  try {
    await mkdir(join(dir, 'runs'), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    invalidArgument('--out', 'a directory (created if missing)', `${JSON.stringify(dir)} (${why})`);
  }
  const path = join(dir, SUITE_FILE);
  if (await pathExists(path)) {
    const old = await readSuiteRecord(dir);
    const known = new Map(old.runs.map((r) => [r.id, runIdentity(r.config)]));
    for (const r of record.runs) {
      const before = known.get(r.id);
      if (before !== undefined && before !== runIdentity(r.config)) {
        invalidArgument('--out', `a new directory, or the directory of the same suite (run ${r.id} there has other settings; use another --out)`, JSON.stringify(dir));
      }
    }
  }
  await writeJson(path, record);
}

/** Read and check suite.json of `dir`. */
export async function readSuiteRecord(dir: string): Promise<SuiteRecord> {
  const path = join(dir, SUITE_FILE);
  if (!(await pathExists(path))) invalidArgument('DIR', `a suite directory (with ${SUITE_FILE}, written by calib suite run)`, JSON.stringify(dir));
  const raw = (await readJson(path, path)) as Record<string, unknown>;
  if (raw === null || typeof raw !== 'object' || raw['format'] !== 1 || !Array.isArray(raw['runs'])) invalidArgument(path, 'a suite record of format 1', describe(raw));
  const suite = parseSuite(raw['suite'], `${path}: suite`);
  return { format: 1, scale: raw['scale'] as SuiteScale, suite, runs: raw['runs'] as SuiteRun[] };
}

/** State of run `id` of the suite in `dir`. */
export async function runState(dir: string, id: string): Promise<RunState> {
  const rd = runDirectory(dir, id);
  const p = runPaths(rd);
  const summary = await pathExists(p.summary);
  if (summary && (await pathExists(join(rd, POSTHOC_FILE)))) return 'done';
  if (summary) return 'trained';
  if (await pathExists(failedFile(dir, id))) return 'failed';
  if (await pathExists(p.lastCheckpoint)) return 'partial';
  return 'pending';
}

/** Epoch records written so far (lines of log.jsonl); 0 when there is none. */
export async function epochsDone(dir: string): Promise<number> {
  try {
    const text = await readFile(runPaths(dir).log, 'utf8');
    let n = 0;
    for (const line of text.split('\n')) if (line.trim() !== '') n++;
    return n;
  } catch {
    return 0;
  }
}

/** Per-run state of a suite directory. */
export interface SuiteStatus {
  readonly record: SuiteRecord;
  readonly runs: readonly { readonly id: string; readonly state: RunState; readonly epochs: number; readonly totalEpochs: number; readonly error?: string }[];
}

export async function suiteStatus(dir: string): Promise<SuiteStatus> {
  const record = await readSuiteRecord(dir);
  const runs = [];
  for (const r of record.runs) {
    const rd = runDirectory(dir, r.id);
    const state = await runState(dir, r.id);
    let error: string | undefined;
    if (state === 'failed') {
      try {
        error = String(((await readJson(failedFile(dir, r.id))) as { error?: unknown }).error ?? 'failed');
      } catch {
        error = 'failed';
      }
    }
    runs.push({ id: r.id, state, epochs: await epochsDone(rd), totalEpochs: r.config.epochs, ...(error !== undefined ? { error } : {}) });
  }
  return { record, runs };
}

/** Names of the run directories present under `dir/runs` (for messages). */
export async function listedRuns(dir: string): Promise<string[]> {
  try {
    return (await readdir(join(dir, 'runs'))).sort();
  } catch {
    return [];
  }
}
