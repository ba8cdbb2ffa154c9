/**
 * What a run directory of a suite holds, compared with what the suite asks for now (run-identity.ts): whether its
 * training files are the run's (and whole), and whether its posthoc.json was computed from them with the suite's
 * post-hoc settings. `calib suite run` acts on the answer (train, resume, retrain, refit, adopt), `calib suite
 * status` prints it. Every reason names the file it comes from.
 *
 * Training:
 *   pending    nothing trained yet (no checkpoint, no summary.json, no failure record)
 *   partial    a checkpoint of a run with the same training settings: resume it (also a finished run whose only
 *              problem is missing outputs beside its checkpoint: resuming redoes the final evaluation). When only
 *              the evaluation settings differ (`evaluation`), its config.json takes the suite's first
 *   reevaluate finished with the suite's training settings but other evaluation settings (run-identity.ts: `ood`,
 *              `evaluateTrain`, `mcDropout`, …), its final checkpoints kept: its config.json takes the suite's
 *              settings and it is resumed from its final checkpoint, which redoes only the finishing
 *              (run-reevaluate.ts); weights and log.jsonl stay as they are
 *   failed     the last attempt failed (logs/<id>.failed.json) and left no checkpoint of these settings
 *   valid      finished, with the suite's training settings, and its files are whole
 *   adopt      as valid, but trained before identities were recorded (no identity.json): its own config.json matches
 *              the suite's settings, so it is kept and identity.json is written — never retrained for that
 *   retrain    finished (or checkpointed) with other training settings (or other evaluation settings without
 *              its checkpoints), filed under another run (a copy, a link, an edited config.json), or with broken
 *              files: trained again from scratch
 * Post-hoc (for a valid or adopted run):
 *   valid      posthoc.json's identity is the suite's (training hash, calibrators, bins, convention, calibkit version)
 *   adopt      posthoc.json written before identities were recorded, whose own bins and calibrators are the suite's
 *   compute    missing, unreadable, or computed with other settings: refitted
 */
import { lstat, readlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { runPaths } from '../../train/artefacts/run-directory.js';
import { pathExists } from '../../util/path-exists.js';
import type { SuiteRun } from '../expand-suite.js';
import { evaluationDiff, evaluationHash, identityPath, posthocIdentity, settingsDiff, trainingHash, type PosthocIdentity, type RunIdentityRecord } from './run-identity.js';
import { readJsonObject, trainedFileProblems } from './run-files.js';
import { failedFile, POSTHOC_FILE, runDirectory } from '../suite-directory.js';

export type TrainingCheck =
  | { readonly kind: 'pending' }
  /**
   * `reason`: set when a finished run lost outputs beside its final checkpoint (resuming redoes its final evaluation).
   * `evaluation`: set when the checkpoint's evaluation settings differ from the suite's ("ood false → true").
   */
  | { readonly kind: 'partial'; readonly reason?: string; readonly evaluation?: string }
  /** `reason`: the evaluation settings that changed ("ood false → true"). */
  | { readonly kind: 'reevaluate'; readonly reason: string }
  | { readonly kind: 'failed'; readonly error: string }
  | { readonly kind: 'valid'; readonly training: string }
  | { readonly kind: 'adopt'; readonly training: string }
  /** `why`: 'settings' (trained with other settings), 'files' (broken files, or not the run's own directory). */
  | { readonly kind: 'retrain'; readonly why: 'settings' | 'files'; readonly reason: string };

export type PosthocCheck =
  | { readonly kind: 'valid' }
  | { readonly kind: 'adopt'; readonly identity: PosthocIdentity }
  /** `why`: 'missing' (not computed yet), 'settings' (other post-hoc settings), 'files' (unreadable or malformed). */
  | { readonly kind: 'compute'; readonly why: 'missing' | 'settings' | 'files'; readonly reason: string };

export interface RunCheck {
  readonly training: TrainingCheck;
  /** Present when training is valid or adopted. */
  readonly posthoc?: PosthocCheck;
}

/** What the suite asks of its runs beyond their training configuration. */
export interface SuiteExpectation {
  readonly suite: string;
  readonly posthoc: readonly string[];
  readonly bins: number;
  /** Opt-in metrics of the record the post-hoc step computes (the suite's `metrics:` outside the default list). */
  readonly metrics?: readonly string[];
}

/** `runs/<id>/<file>` inside suite directory `dir`, as messages name it. */
export function runFile(dir: string, id: string, file: string): string {
  return join(runDirectory(dir, id), file);
}

/**
 * Why run directory `rd` is not run `run`'s own (a symbolic link, a copy of another run, a config.json edited after
 * training), or null. `identity` is its identity.json (null for a run trained before identities were recorded,
 * which is then judged by its config.json: the run directory it names and its seed). The suite name in identity.json
 * is not compared: a run copied into another suite's directory under the same id, method, sweep value, seed and
 * training settings is the same run (scripts reuse identical runs across suites this way).
 */
export async function misfiling(dir: string, run: SuiteRun, identity: RunIdentityRecord | null, config: Readonly<Record<string, unknown>>): Promise<string | null> {
  const rd = runDirectory(dir, run.id);
  const info = await lstat(rd);
  if (info.isSymbolicLink()) return `${rd} is a symbolic link (to ${await readlink(rd)}), not the run's own directory`;
  const file = (name: string): string => runFile(dir, run.id, name);
  if (identity) {
    const sweep = (s: SuiteRun['sweep'] | null | undefined): string => (s ? `${s.key}=${JSON.stringify(s.value)}` : 'none');
    if (identity.run !== run.id) return `${file('identity.json')} records run ${identity.run} (method ${identity.method}, seed ${identity.seed}): a copy of another run`;
    if (identity.method !== run.method || identity.seed !== run.seed || sweep(identity.sweep) !== sweep(run.sweep)) {
      return `${file('identity.json')} records method ${identity.method}, seed ${identity.seed}, sweep ${sweep(identity.sweep)}; run ${run.id} is method ${run.method}, seed ${run.seed}, sweep ${sweep(run.sweep)}`;
    }
    if (evaluationHash(config) !== identity.training) return `${file('config.json')} differs from the settings the run was trained with (edited after training?)`;
    return null;
  }
  const out = config['out'];
  if (typeof out === 'string' && basename(out) !== run.id) return `${file('config.json')} records the run directory ${out}: a copy of another run`;
  if (config['seed'] !== run.seed) return `${file('config.json')} records seed ${String(config['seed'])}, run ${run.id} is seed ${run.seed}`;
  return null;
}

/** identity.json of a run directory: the record, null when there is none, or the problem. */
export async function readRunIdentity(rd: string): Promise<{ record: RunIdentityRecord | null } | { problem: string }> {
  const path = identityPath(rd);
  if (!(await pathExists(path))) return { record: null };
  const r = await readJsonObject(path, 'identity.json');
  if ('problem' in r) return r;
  const v = r.value;
  if (v['format'] !== 1 || typeof v['run'] !== 'string' || typeof v['method'] !== 'string' || typeof v['seed'] !== 'number' || typeof v['training'] !== 'string') {
    return { problem: 'identity.json: not a run identity of format 1' };
  }
  return { record: v as unknown as RunIdentityRecord };
}

/** Check the training files of run `run` in suite directory `dir` against its configuration. */
export async function checkTraining(dir: string, run: SuiteRun): Promise<TrainingCheck> {
  const rd = runDirectory(dir, run.id);
  const p = runPaths(rd);
  const expected = evaluationHash(run.config);
  const file = (name: string): string => runFile(dir, run.id, name);
  if (!(await pathExists(rd))) return (await pathExists(failedFile(dir, run.id))) ? { kind: 'failed', error: await failureOf(dir, run.id) } : { kind: 'pending' };
  const link = await lstat(rd);
  if (link.isSymbolicLink()) return { kind: 'retrain', why: 'files', reason: `${rd} is a symbolic link (to ${await readlink(rd)}), not the run's own directory` };
  const finished = await pathExists(p.summary);
  const configFile = await readJsonObject(p.config, 'config.json');
  let evaluation: string | undefined;
  if (!finished) {
    const checkpoint = await pathExists(p.lastCheckpoint);
    if (checkpoint) {
      if ('problem' in configFile) return { kind: 'retrain', why: 'files', reason: `${file(configFile.problem)} (a checkpoint without its settings)` };
      if (trainingHash(configFile.value) !== trainingHash(run.config))
        return { kind: 'retrain', why: 'settings', reason: `the checkpoint was trained with other settings (${settingsDiff(configFile.value, run.config)})` };
      if (evaluationHash(configFile.value) !== expected) evaluation = evaluationDiff(configFile.value, run.config);
    }
    if (await pathExists(failedFile(dir, run.id))) return { kind: 'failed', error: await failureOf(dir, run.id) };
    return checkpoint ? { kind: 'partial', ...(evaluation !== undefined ? { evaluation } : {}) } : { kind: 'pending' };
  }
  if ('problem' in configFile) return { kind: 'retrain', why: 'files', reason: file(configFile.problem) };
  const identity = await readRunIdentity(rd);
  if ('problem' in identity) return { kind: 'retrain', why: 'files', reason: file(identity.problem) };
  const misfiled = await misfiling(dir, run, identity.record, configFile.value);
  if (misfiled) return { kind: 'retrain', why: 'files', reason: misfiled };
  const trained = evaluationHash(configFile.value);
  if (trained !== expected) {
    if (trainingHash(configFile.value) !== trainingHash(run.config)) return { kind: 'retrain', why: 'settings', reason: `training settings changed (${settingsDiff(configFile.value, run.config)})` };
    // Only what the finishing reads changed: the final checkpoints suffice (the last to resume, the best to evaluate).
    const changed = evaluationDiff(configFile.value, run.config);
    const missing: string[] = [];
    for (const f of [p.lastCheckpoint, p.bestCheckpoint]) if (!(await pathExists(f))) missing.push(basename(f));
    if (missing.length)
      return { kind: 'retrain', why: 'settings', reason: `evaluation settings changed (${changed}) and ${missing.map((m) => file(m)).join(', ')} ${missing.length === 1 ? 'is' : 'are'} gone` };
    return { kind: 'reevaluate', reason: changed };
  }
  const problems = await trainedFileProblems(rd, configFile.value);
  // Outputs missing beside the final checkpoint (a run stopped during its final evaluation, by a build that wrote
  // summary.json before ood.json, or a deleted output): resuming redoes the evaluation from the trained weights.
  if (problems.length && problems.every((x) => x.endsWith(': missing')) && (await pathExists(p.lastCheckpoint))) {
    return { kind: 'partial', reason: `broken files: ${problems.map((x) => file(x)).join('; ')}` };
  }
  if (problems.length) return { kind: 'retrain', why: 'files', reason: `broken files: ${problems.map((x) => file(x)).join('; ')}` };
  return identity.record ? { kind: 'valid', training: trained } : { kind: 'adopt', training: trained };
}

async function failureOf(dir: string, id: string): Promise<string> {
  const r = await readJsonObject(failedFile(dir, id), 'failure record');
  return 'value' in r && typeof r.value['error'] === 'string' ? r.value['error'] : 'failed';
}

/** posthoc.json's own settings, from its `identity` or (written before identities were recorded) its contents. */
function recordedPosthocSettings(v: Record<string, unknown>): { identity: PosthocIdentity | null; bins: unknown; convention: unknown; calibrators: string[] } {
  const identity = (v['identity'] ?? null) as PosthocIdentity | null;
  const fitted = Object.keys((v['calibrators'] ?? {}) as object);
  const failed = Object.keys((v['failures'] ?? {}) as object);
  return { identity, bins: v['bins'], convention: v['convention'], calibrators: [...fitted, ...failed] };
}

/** The problem of a posthoc.json's shape (it must hold the metrics the report reads), or null. */
export function posthocShapeProblem(v: Record<string, unknown>): string | null {
  const isObject = (x: unknown): boolean => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (!isObject(v['test']) || !isObject(v['validation']) || !isObject(v['calibrators'])) return 'posthoc.json: lacks its test, validation or calibrators metrics';
  const test = v['test'] as Record<string, unknown>;
  if (typeof test['accuracy'] !== 'number' || typeof test['ece'] !== 'number') return 'posthoc.json: its test metrics lack accuracy or ECE';
  if (typeof v['bins'] !== 'number') return 'posthoc.json: lacks its bins';
  return null;
}

/** Check run directory `rd`'s posthoc.json against the post-hoc identity the suite asks for. */
export async function checkPosthoc(rd: string, expected: PosthocIdentity): Promise<PosthocCheck> {
  const path = join(rd, POSTHOC_FILE);
  if (!(await pathExists(path))) return { kind: 'compute', why: 'missing', reason: 'not computed yet' };
  const r = await readJsonObject(path, path);
  if ('problem' in r) return { kind: 'compute', why: 'files', reason: r.problem };
  const shape = posthocShapeProblem(r.value);
  if (shape) return { kind: 'compute', why: 'files', reason: join(rd, shape) };
  const s = recordedPosthocSettings(r.value);
  if (s.identity) {
    const changes = posthocChanges(s.identity, expected);
    return changes.length ? { kind: 'compute', why: 'settings', reason: `post-hoc settings changed (${changes.join('; ')})` } : { kind: 'valid' };
  }
  // Written before identities were recorded: its own bins, convention and calibrators say what it holds.
  const changes = posthocChanges({ ...expected, calibrators: s.calibrators, bins: s.bins as number, convention: String(s.convention) }, expected, true);
  return changes.length ? { kind: 'compute', why: 'settings', reason: `post-hoc settings changed (${changes.join('; ')})` } : { kind: 'adopt', identity: expected };
}

/** What differs between two post-hoc identities ("bins 15 → 20", "calibrators temperature → temperature, isotonic"). */
export function posthocChanges(was: PosthocIdentity, now: PosthocIdentity, anyOrder = false): string[] {
  const out: string[] = [];
  const list = (c: readonly string[]): string => (c.length ? c.join(', ') : 'none');
  const same = anyOrder ? [...was.calibrators].sort().join() === [...now.calibrators].sort().join() : was.calibrators.join() === now.calibrators.join();
  if (!same) out.push(`calibrators ${list(was.calibrators)} → ${list(now.calibrators)}`);
  if (was.bins !== now.bins) out.push(`bins ${String(was.bins)} → ${now.bins}`);
  if (was.convention !== now.convention) out.push(`bin convention ${String(was.convention)} → ${now.convention}`);
  if (was.training !== now.training) out.push('computed from other training files');
  if (was.calibkit !== now.calibkit) out.push(`computed by calibkit ${String(was.calibkit)}, this is ${now.calibkit}`);
  if ((was.metrics ?? []).join() !== (now.metrics ?? []).join()) out.push(`opt-in metrics ${list(was.metrics ?? [])} → ${list(now.metrics ?? [])}`);
  return out;
}

/** The post-hoc identity run `run` should have in a suite that asks for `expect`. */
export function expectedPosthoc(run: SuiteRun, expect: SuiteExpectation): PosthocIdentity {
  return posthocIdentity(evaluationHash(run.config), expect.posthoc, expect.bins, expect.metrics ?? []);
}

/** Check run `run` of the suite in `dir`: training, then (when the training files are the run's) post-hoc. */
export async function checkRun(dir: string, run: SuiteRun, expect: SuiteExpectation): Promise<RunCheck> {
  const training = await checkTraining(dir, run);
  if (training.kind !== 'valid' && training.kind !== 'adopt') return { training };
  return { training, posthoc: await checkPosthoc(runDirectory(dir, run.id), expectedPosthoc(run, expect)) };
}
