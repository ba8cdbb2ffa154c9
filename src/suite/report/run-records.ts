/**
 * What the report reads of each run: the run's own records, not suite.json. suite.json says which runs the suite
 * has and under which method, sweep value and seed each is filed; each run's config.json says how it was trained
 * and its posthoc.json with which calibrators and bins its numbers were computed. The report
 *
 *   - refuses a run that is not the one it is filed under — a symbolic link, a copy of another run (its
 *     identity.json, or for a run trained before identities were recorded its config.json, names another run or
 *     seed), a config.json edited after training, a posthoc.json computed from other training files — and a run
 *     with broken files (non-finite or missing logits, an unreadable posthoc.json), naming the run and the file;
 *   - shows the runs' recorded training settings, bins and calibrators, and says where suite.json disagrees with
 *     them (a hand-edited suite.json changes nothing the report states about the runs);
 *   - refuses runs that disagree among themselves on bins or calibrators (a rerun of `calib suite run` refits them).
 */
import { join } from 'node:path';
import { readJson, runPaths } from '../../train/artefacts/run-directory.js';
import type { TrainConfig } from '../../train/train-config.js';
import { invalidArgument } from '../../util/errors.js';
import { pathExists } from '../../util/path-exists.js';
import { parseComparison } from '../claims/comparison.js';
import { RUN_OUT_PLACEHOLDER, type SuiteRun } from '../expand-suite.js';
import type { PosthocResult } from '../posthoc-step.js';
import { misfiling, posthocShapeProblem, readRunIdentity, runFile } from '../identity/run-check.js';
import { readJsonObject, trainedFileProblems } from '../identity/run-files.js';
import { settingsDiff, evaluationHash } from '../identity/run-identity.js';
import { POSTHOC_FILE, runDirectory, type SuiteRecord } from '../suite-directory.js';

/** A finished run as the report reads it: suite.json's entry with the run's own configuration. */
export interface RecordedRun {
  readonly run: SuiteRun;
  readonly summary: Record<string, unknown>;
  readonly posthoc: PosthocResult;
}

function refuse(dir: string, id: string, problem: string): never {
  return invalidArgument(`run ${id}`, `its own, whole files (calib suite run with the suite and --out ${dir} retrains or refits it)`, problem);
}

/**
 * Run `run` of the suite in `dir` as recorded by its own files, or null when it is not finished (no summary.json or
 * posthoc.json yet: the report lists it as missing). Refuses (InvalidArgumentError naming the run and the file) a
 * run that is not the one filed under its name or has broken files.
 */
export async function readRecordedRun(dir: string, run: SuiteRun): Promise<RecordedRun | null> {
  const rd = runDirectory(dir, run.id);
  const p = runPaths(rd);
  if (!(await pathExists(p.summary)) || !(await pathExists(join(rd, POSTHOC_FILE)))) return null;
  const file = (name: string): string => runFile(dir, run.id, name);
  const config = await readJsonObject(p.config, 'config.json');
  if ('problem' in config) refuse(dir, run.id, file(config.problem));
  const identity = await readRunIdentity(rd);
  if ('problem' in identity) refuse(dir, run.id, file(identity.problem));
  const misfiled = await misfiling(dir, run, identity.record, config.value);
  if (misfiled) refuse(dir, run.id, misfiled);
  const problems = await trainedFileProblems(rd, config.value);
  if (problems.length) refuse(dir, run.id, problems.map(file).join('; '));
  const posthoc = await readJsonObject(join(rd, POSTHOC_FILE), 'posthoc.json');
  if ('problem' in posthoc) refuse(dir, run.id, file(posthoc.problem));
  const shape = posthocShapeProblem(posthoc.value);
  if (shape) refuse(dir, run.id, file(shape));
  const recorded = (posthoc.value as unknown as PosthocResult).identity;
  if (recorded && recorded.training !== evaluationHash(config.value)) refuse(dir, run.id, `${file('posthoc.json')} was computed from other training files than the run's config.json states`);
  // The run's own configuration, placed as suite.json places it (`out` and `threads` do not change results).
  const own = { ...config.value, out: RUN_OUT_PLACEHOLDER, threads: run.config.threads } as unknown as TrainConfig;
  return { run: { ...run, config: own }, summary: (await readJson(p.summary)) as Record<string, unknown>, posthoc: posthoc.value as unknown as PosthocResult };
}

/** A posthoc.json's calibrators: its identity's, or (written before identities were recorded) those it holds. */
function calibratorsOf(p: PosthocResult): string[] {
  return p.identity ? [...p.identity.calibrators] : [...Object.keys(p.calibrators), ...Object.keys(p.failures ?? {})];
}

/**
 * The suite record the report uses: suite.json with each finished run's own configuration and the bins and
 * calibrators its posthoc.json was computed with, plus notes where suite.json says otherwise.
 */
export function recordedSuite(dir: string, record: SuiteRecord, runs: readonly RecordedRun[]): { record: SuiteRecord; notes: string[] } {
  const notes: string[] = [];
  const byId = new Map(runs.map((r) => [r.run.id, r]));
  // Runs with the same disagreement are named together ("runs ce-seed0, ls-seed0 were trained with …").
  const differing = new Map<string, string[]>();
  for (const listed of record.runs) {
    const own = byId.get(listed.id);
    if (own && evaluationHash(own.run.config) !== evaluationHash(listed.config)) {
      const diff = settingsDiff(own.run.config, listed.config);
      differing.set(diff, [...(differing.get(diff) ?? []), listed.id]);
    }
  }
  for (const [diff, ids] of differing) {
    notes.push(
      `${ids.length === 1 ? 'run' : 'runs'} ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} trained with other settings than suite.json lists (config.json → suite.json: ${diff}); the report shows the runs' own`,
    );
  }
  let suite = record.suite;
  const first = runs[0];
  if (first) {
    const bins = first.posthoc.bins;
    const calibrators = calibratorsOf(first.posthoc);
    for (const r of runs) {
      if (r.posthoc.bins !== bins) refuse(dir, r.run.id, `${runFile(dir, r.run.id, 'posthoc.json')} has ${r.posthoc.bins} bins, run ${first.run.id}'s ${bins}`);
      const mine = calibratorsOf(r.posthoc);
      if ([...mine].sort().join() !== [...calibrators].sort().join())
        refuse(dir, r.run.id, `${runFile(dir, r.run.id, 'posthoc.json')} has the calibrators ${mine.join(', ') || 'none'}, run ${first.run.id}'s ${calibrators.join(', ') || 'none'}`);
    }
    if (bins !== suite.bins) notes.push(`suite.json lists ${suite.bins} bins; the runs' posthoc.json were computed with ${bins}, which the report shows`);
    const ordered = [...suite.posthoc.filter((c) => calibrators.includes(c)), ...calibrators.filter((c) => !suite.posthoc.includes(c))];
    if (ordered.join() !== suite.posthoc.join())
      notes.push(`suite.json lists the calibrators ${suite.posthoc.join(', ') || 'none'}; the runs' posthoc.json hold ${ordered.join(', ') || 'none'}, which the report shows`);
    // A comparison after a calibrator the runs do not hold cannot be decided from them: left out, said so.
    const names = suite.methods.map((m) => m.name);
    const compare = suite.compare.filter((text) => {
      const c = parseComparison(text, names, [...suite.posthoc, ...ordered], 'compare');
      const lacking = [c.leftAfter, c.rightAfter].find((k) => k !== undefined && !ordered.includes(k));
      if (lacking !== undefined) notes.push(`comparison "${text}" not decided: the runs' posthoc.json hold no ${lacking} results`);
      return lacking === undefined;
    });
    suite = { ...suite, bins, posthoc: ordered as typeof suite.posthoc, compare };
  }
  return { record: { ...record, suite, runs: record.runs.map((r) => byId.get(r.id)?.run ?? r) }, notes };
}

/** report.json's `identity` of a run: the hash of its training settings and the identity of its posthoc.json. */
export function runIdentityJson(r: { readonly run: SuiteRun; readonly posthoc: PosthocResult }): { training: string; posthoc: PosthocResult['identity'] | null } {
  return { training: evaluationHash(r.run.config), posthoc: r.posthoc.identity ?? null };
}
