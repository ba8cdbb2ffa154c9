/**
 * Run reuse across suites (`calib suite run SUITE --reuse-from DIR[,DIR…]`): a finished run of another suite
 * directory whose evaluation identity (run-identity.ts: the hash of its resolved settings and data split) is
 * the one a run of SUITE asks for has the very files that run would train, so it is copied in instead of trained —
 * e.g. the MbLS and ACLS suites share their CE, LS, FL, FLSD, ECP and MbLS runs, and Maroñas's baseline B is MbLS's
 * CE at the deep scale. The same holds inside one suite (a sweep's value that equals another method's settings,
 * MbLS m = 6 in the margin sweep): a run whose twin has finished is copied from it.
 *
 * A source run counts when it is finished (summary.json), is its directory's own (not a symbolic link), its
 * identity.json (if any) matches its config.json, and its trained files are whole (run-files.ts). The copy is
 * atomic: the files go into a hidden directory beside the target, which is renamed into place; its config.json
 * names the new directory and its identity.json is the target run's, with `reusedFrom` naming the source.
 * posthoc.json travels too, and is refitted by the suite when its post-hoc settings differ (run-check.ts).
 *
 * Failing that, a finished run with both final checkpoints whose training identity (the weights: run-identity.ts
 * trainingHash) is the one asked for is copied the same way, keeping its own evaluation settings in config.json and
 * identity.json: the suite then finds a run to re-evaluate (run-check.ts `reevaluate`) and redoes only its final
 * evaluation with the suite's settings — e.g. MbLS's CE (no OOD evaluation) from Karandikar's NLL (with it) at the
 * deep scale, or Thulasidasan's two mixup α = 0.4 runs that differ only in `ood`.
 */
import { copyFile, lstat, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join, resolve } from 'node:path';
import { runPaths } from '../../train/artefacts/run-directory.js';
import type { SuiteRun } from '../expand-suite.js';
import { identityPath, runIdentityRecord, evaluationHash, trainingHash, type RunIdentityRecord } from './run-identity.js';
import { readJsonObject, trainedFileProblems } from './run-files.js';
import { readRunIdentity } from './run-check.js';
import { runDirectory } from '../suite-directory.js';
import { pathExists } from '../../util/path-exists.js';

/** A finished run another run may be copied from. */
export interface ReusableRun {
  /** Its run directory. */
  readonly dir: string;
  /** Its evaluation hash (run-identity.ts). */
  readonly training: string;
  /**
   * Its training hash (run-identity.ts trainingHash: the weights and log.jsonl only), when both final checkpoints are
   * there: a run of the same training but other evaluation settings may then be copied from it and re-evaluated.
   */
  readonly weights?: string;
}

/** The finished, whole runs of suite directory `suiteDir`, by evaluation hash (the first of equal ones). */
export async function reusableRuns(suiteDir: string): Promise<Map<string, ReusableRun>> {
  const out = new Map<string, ReusableRun>();
  let names: string[];
  try {
    names = (await readdir(join(suiteDir, 'runs'))).filter((n) => !n.startsWith('.')).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const dir = join(suiteDir, 'runs', name);
    const run = await reusableRun(dir);
    if (run && !out.has(run.training)) out.set(run.training, run);
  }
  return out;
}

/** `dir` as a run to copy from, or null (unfinished, a link, an edited config.json, broken files). */
export async function reusableRun(dir: string): Promise<ReusableRun | null> {
  const info = await lstat(dir).catch(() => null);
  if (!info?.isDirectory()) return null;
  const p = runPaths(dir);
  if (!(await pathExists(p.summary))) return null;
  const config = await readJsonObject(p.config, 'config.json');
  if ('problem' in config) return null;
  const training = evaluationHash(config.value);
  const identity = await readRunIdentity(dir);
  if ('problem' in identity || (identity.record && identity.record.training !== training)) return null;
  if ((await trainedFileProblems(dir, config.value)).length) return null;
  const checkpoints = (await pathExists(p.lastCheckpoint)) && (await pathExists(p.bestCheckpoint));
  return checkpoints ? { dir, training, weights: trainingHash(config.value) } : { dir, training };
}

/** Copy the files of `from` into `to` (directories recursively; a copy-on-write clone where the file system has one). */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name.endsWith('.tmp')) continue;
    const a = join(from, entry.name);
    const b = join(to, entry.name);
    if (entry.isDirectory()) await copyTree(a, b);
    else if (entry.isFile()) await copyFile(a, b, constants.COPYFILE_FICLONE);
  }
}

/**
 * Copy `source` in as run `run` of suite `suite` in suite directory `suiteDir` (whose runs/<id> must not exist),
 * atomically; identity.json records the target run and `reusedFrom`.
 */
export async function reuseRun(suiteDir: string, suite: string, run: SuiteRun, source: ReusableRun): Promise<void> {
  const target = runDirectory(suiteDir, run.id);
  const staging = join(suiteDir, 'runs', `.${run.id}.reuse-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  try {
    await copyTree(source.dir, staging);
    const config = await readJsonObject(join(staging, 'config.json'), 'config.json');
    if ('problem' in config) throw new Error(`${source.dir}: ${config.problem}`);
    await writeFile(join(staging, 'config.json'), `${JSON.stringify({ ...config.value, out: target }, null, 2)}\n`);
    const record: RunIdentityRecord & { readonly reusedFrom: string } = { ...runIdentityRecord(suite, run, source.training), reusedFrom: resolve(source.dir) };
    await writeFile(identityPath(staging), `${JSON.stringify(record, null, 2)}\n`);
    await rename(staging, target);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/** Merge the reusable runs of several suite directories (earlier directories first). */
export async function reusableRunsOf(dirs: readonly string[]): Promise<Map<string, ReusableRun>> {
  const out = new Map<string, ReusableRun>();
  for (const d of dirs) for (const [hash, run] of await reusableRuns(d)) if (!out.has(hash)) out.set(hash, run);
  return out;
}

/**
 * The runs of `byEvaluation` (reusableRunsOf) that can be re-evaluated, by training hash (the first of equal ones):
 * a run asking for the same weights under other evaluation settings (`ood`, `evaluateTrain`, …) is copied from one
 * and re-evaluated from its final checkpoint (run-reevaluate.ts) instead of trained.
 */
export function reusableByTraining(byEvaluation: ReadonlyMap<string, ReusableRun>): Map<string, ReusableRun> {
  const out = new Map<string, ReusableRun>();
  for (const run of byEvaluation.values()) if (run.weights !== undefined && !out.has(run.weights)) out.set(run.weights, run);
  return out;
}
