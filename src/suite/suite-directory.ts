/**
 * The layout of a suite directory (`calib suite run … --out DIR`):
 *
 *   suite.json            the suite as run: its validated file, the scale, and every expanded run (id, method, sweep
 *                         value, seed, full training configuration)
 *   runs/<id>/            one ordinary run directory per run (`calib eval`, `calib fit`, `calib train --resume` work
 *                         on it), plus posthoc.json (calibrators fitted on validation, test metrics before/after,
 *                         and the identity they were computed from) and identity.json (which run of which suite it
 *                         is, and the hash of its settings, its evaluation identity: run-identity.ts)
 *   logs/<id>.txt         the training child's output; logs/<id>.failed.json after a failure (reason, exit code)
 *   report.md, report.html, report.json   written by `calib report DIR`
 *
 * A run's state is read from its files and compared with the suite's settings (run-check.ts, suite-status.ts).
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { pathExists } from '../util/path-exists.js';
import { describe, invalidArgument } from '../util/errors.js';
import { readJson, runPaths, writeJson } from '../train/artefacts/run-directory.js';
import type { TrainConfig } from '../train/train-config.js';
import type { SuiteRun } from './expand-suite.js';
import { canonicalJson, evaluationSettings } from './identity/run-identity.js';
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

/** Directory of run `id` in suite directory `dir`. */
export function runDirectory(dir: string, id: string): string {
  return join(dir, 'runs', id);
}

/** The run's configuration placed in suite directory `dir`. */
export function placedConfig(dir: string, run: SuiteRun, threads?: number): TrainConfig {
  return { ...run.config, out: runDirectory(dir, run.id), ...(threads !== undefined ? { threads } : {}) };
}

/**
 * A run configuration's identity as text: the canonical JSON of its evaluation settings (run-identity.ts), equal for
 * two configurations exactly when all their runs' files are the same. For scripts that compare runs across suite
 * directories (e.g. to copy identical runs into another suite's directory); the suite compares evaluationHash.
 */
export function runIdentity(config: TrainConfig): string {
  return canonicalJson(evaluationSettings(config as unknown as Record<string, unknown>));
}

/**
 * Check, before anything is written, that `dir` may receive suite `name` at `scale`: a path that does not exist yet,
 * an empty directory, or the directory of the same suite at the same scale (its suite.json names both). Anything
 * else — a file, a directory of other files (a user's report.html), another suite's directory — is refused.
 */
export async function checkSuiteOutDirectory(dir: string, name: string, scale: SuiteScale): Promise<void> {
  const expected = `a new or empty directory, or the directory of suite ${name} at scale ${scale} (written by calib suite run)`;
  let entries: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) invalidArgument('--out', expected, `${JSON.stringify(dir)} (${info.isFile() ? 'a file' : 'not a directory'})`);
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') invalidArgument('--out', expected, `${JSON.stringify(dir)} (a path through a file)`);
    if (code === 'EACCES' || code === 'EPERM') invalidArgument('--out', expected, `${JSON.stringify(dir)} (permission denied)`);
    throw error;
  }
  if (entries.length === 0) return;
  if (!entries.includes(SUITE_FILE)) {
    const shown = entries.sort().slice(0, 3).join(', ') + (entries.length > 3 ? `, … (${entries.length} entries)` : '');
    invalidArgument('--out', expected, `${JSON.stringify(dir)}, which holds ${shown} and no ${SUITE_FILE}`);
  }
  let raw: { suite?: { name?: unknown }; scale?: unknown };
  try {
    raw = JSON.parse(await readFile(join(dir, SUITE_FILE), 'utf8')) as typeof raw;
  } catch (e) {
    return invalidArgument('--out', expected, `${JSON.stringify(dir)}, whose ${SUITE_FILE} is unreadable (${(e as Error).message})`);
  }
  const was = raw?.suite?.name;
  if (was !== name) invalidArgument('--out', expected, `the directory of suite ${typeof was === 'string' ? was : describe(was)} (${JSON.stringify(dir)}); use another --out`);
  if (raw.scale !== scale)
    invalidArgument('--out', expected, `the directory of suite ${name} at scale ${describe(raw.scale)} (${JSON.stringify(dir)}); use another --out, or --scale ${String(raw.scale)}`);
}

/**
 * Create (or re-open) a suite directory and write suite.json: the suite as run now. `dir` must have passed
 * checkSuiteOutDirectory. Runs whose settings changed are not refused: `runSuite` retrains or refits exactly those.
 */
export async function prepareSuiteDirectory(dir: string, record: SuiteRecord): Promise<void> {
  try {
    await mkdir(join(dir, 'runs'), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
    invalidArgument('--out', 'a directory (created if missing)', `${JSON.stringify(dir)} (${why})`);
  }
  await writeJson(join(dir, SUITE_FILE), record);
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

/** Names of the run directories present under `dir/runs` (for messages). */
export async function listedRuns(dir: string): Promise<string[]> {
  try {
    return (await readdir(join(dir, 'runs'))).sort();
  } catch {
    return [];
  }
}
