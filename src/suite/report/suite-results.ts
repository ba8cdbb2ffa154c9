/**
 * The data behind a suite report, read from a suite directory: every finished run's own settings, summary, post-hoc
 * metrics (test metrics before and after each calibrator, under `calib eval --json` keys), per-epoch log and OOD
 * results; and for each method the runs the report shows — for a swept method, the runs at the value chosen on
 * validation (by the suite's selection rule over the seeds' mean, as the papers choose β, α and m: sweep-selection.ts).
 * A swept method with an unfinished run has no chosen value yet and is left out of the methods (sweepsAwaitingRuns).
 * A run whose training loss became NaN or infinite (logs/<id>.failed.json) has diverged: that is its result, not a
 * missing run. A swept value with a diverged seed is no candidate for the choice (as a setting that "fails to
 * converge" in the papers' grids); a method without a swept value left, or an unswept method with a diverged seed, is
 * left out of the methods, and the claims that read it say so (divergedRunsNote in verdicts.ts).
 */
import { readFile } from 'node:fs/promises';
import { readJson, runPaths } from '../../train/artefacts/run-directory.js';
import type { EpochRecord } from '../../train/artefacts/train-log.js';
import { pathExists } from '../../util/path-exists.js';
import type { SuiteRun } from '../expand-suite.js';
import type { PosthocResult } from '../posthoc-step.js';
import { failedFile, readSuiteRecord, runDirectory, type SuiteRecord } from '../suite-directory.js';
import { readRecordedRun, recordedSuite, type RecordedRun } from './run-records.js';
import { mean } from './statistics.js';
import { chooseSweepValue, selectionMetric } from './sweep-selection.js';

export interface RunResult {
  readonly run: SuiteRun;
  readonly dir: string;
  readonly summary: Record<string, unknown>;
  readonly posthoc: PosthocResult;
  readonly log: readonly EpochRecord[];
  readonly ood?: Record<string, unknown>;
}

/** A run that stopped because its training loss became NaN or infinite (its failed.json `error`). */
export interface DivergedRun {
  readonly run: SuiteRun;
  readonly error: string;
}

/** A swept value left out of the choice because some of its seeds diverged. */
export interface DivergedValue {
  readonly value: number | string | boolean;
  readonly diverged: number;
  readonly planned: number;
}

export interface MethodResults {
  readonly name: string;
  readonly label: string;
  /** Runs shown in the table (one per seed). */
  readonly runs: readonly RunResult[];
  /** The sweep of this method, if any: every value with its runs, and the value chosen on validation. */
  readonly sweep?: {
    readonly key: string;
    readonly label: string;
    readonly values: readonly { readonly value: number | string | boolean; readonly runs: readonly RunResult[]; readonly validation: number }[];
    readonly chosen: number | string | boolean;
    /** Values left out of `values` (and of the choice) because a seed diverged. */
    readonly diverged: readonly DivergedValue[];
  };
  /** "dataset · model" of the method's runs (table group). */
  readonly group: string;
}

export interface SuiteResults {
  readonly dir: string;
  readonly record: SuiteRecord;
  readonly runs: readonly RunResult[];
  /** Runs neither finished nor diverged. */
  readonly missing: readonly string[];
  /** Runs that diverged (their result: no model to evaluate). */
  readonly diverged: readonly DivergedRun[];
  readonly methods: readonly MethodResults[];
  /** Where suite.json disagrees with what the runs recorded (the report shows the runs' own settings). */
  readonly notes?: readonly string[];
}

async function readLog(path: string): Promise<EpochRecord[]> {
  try {
    return (await readFile(path, 'utf8'))
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as EpochRecord);
  } catch {
    return [];
  }
}

function awaitingRuns(record: SuiteRecord, missing: readonly string[], method: string): boolean {
  return record.runs.some((r) => r.method === method && missing.includes(r.id));
}

/**
 * The swept methods of a partial suite left out of its methods: some value or seed of their sweep is unfinished, so
 * the value the report would show cannot be chosen yet.
 */
export function sweepsAwaitingRuns(results: Pick<SuiteResults, 'record' | 'missing'>): string[] {
  return results.record.suite.methods
    .filter((m) => results.record.runs.some((r) => r.method === m.name && r.sweep !== undefined) && awaitingRuns(results.record, results.missing, m.name))
    .map((m) => m.name);
}

/**
 * Fallback only, for failed.json files without `kind` (written before the runner recorded the trainer's kind, or by
 * the queue executor, which cannot read the trainer's failure.json): the trainer's error for a non-finite training
 * loss (src/train/run/run-epoch.ts).
 */
const DIVERGENCE = /the training loss became (NaN|-?Infinity)\b/;

/**
 * The failure record of an unfinished run when it says the training loss became NaN or infinite: its `kind` is
 * 'diverged' (the trainer's record, run-suite.ts), or — without a `kind` — its message matches DIVERGENCE; else null.
 */
async function divergence(dir: string, run: SuiteRun): Promise<DivergedRun | null> {
  const path = failedFile(dir, run.id);
  if (!(await pathExists(path))) return null;
  let record: { error?: unknown; kind?: unknown };
  try {
    record = JSON.parse(await readFile(path, 'utf8')) as { error?: unknown; kind?: unknown };
  } catch {
    return null;
  }
  const error = typeof record.error === 'string' ? record.error : '';
  const diverged = record.kind !== undefined ? record.kind === 'diverged' : DIVERGENCE.test(error);
  return diverged ? { run, error } : null;
}

/** Reads one run of a suite directory: its records, or null when it is not finished (readRecordedRun by default). */
export type RunReader = (dir: string, run: SuiteRun) => Promise<RecordedRun | null>;

/**
 * Read the finished runs of the suite in `dir`, each from its own records (run-records.ts: a run that is not the
 * one filed under its name, or has broken files, is refused naming it; suite.json's disagreements become `notes`).
 * `readRun` replaces that reader (tests that decide registries on synthetic summary.json / posthoc.json files).
 */
export async function readSuiteResults(dir: string, readRun: RunReader = readRecordedRun): Promise<SuiteResults> {
  const listed = await readSuiteRecord(dir);
  const recorded: RecordedRun[] = [];
  const missing: string[] = [];
  const diverged: DivergedRun[] = [];
  for (const run of listed.runs) {
    const own = await readRun(dir, run);
    if (own) {
      recorded.push(own);
      continue;
    }
    const failure = await divergence(dir, run);
    if (failure) diverged.push(failure);
    else missing.push(run.id);
  }
  const { record, notes } = recordedSuite(dir, listed, recorded);
  const runs: RunResult[] = [];
  for (const { run, summary, posthoc } of recorded) {
    const rd = runDirectory(dir, run.id);
    const p = runPaths(rd);
    runs.push({
      run,
      dir: rd,
      summary,
      posthoc,
      log: await readLog(p.log),
      ...((await pathExists(p.ood)) ? { ood: (await readJson(p.ood)) as Record<string, unknown> } : {}),
    });
  }
  const select = record.suite.select;
  const methods: MethodResults[] = [];
  for (const m of record.suite.methods) {
    const mine = runs.filter((r) => r.run.method === m.name);
    if (mine.length === 0) continue;
    const first = mine[0]!.run.config;
    const group = `${first.dataset} · ${first.model}`;
    const swept = mine.filter((r) => r.run.sweep !== undefined);
    const divergedHere = diverged.filter((d) => d.run.method === m.name);
    if (swept.length === 0) {
      if (divergedHere.length === 0) methods.push({ name: m.name, label: m.label ?? m.name, runs: mine, group });
      continue;
    }
    // The value is chosen over every value and seed of the sweep: with any of them unfinished there is no choice
    // yet, and the method is left out (sweepsAwaitingRuns) rather than shown at a value chosen among fewer runs.
    if (awaitingRuns(record, missing, m.name)) continue;
    const key = swept[0]!.run.sweep!.key;
    // The sweep of this method (a trimmed grid may sweep methods of one key over different values: scale-grid.ts).
    const sweepDef = record.suite.sweeps.find((s) => s.key === key && (s.methods === undefined || s.methods.includes(m.name)))!;
    const divergedValues = sweepDef.values.flatMap((value) => {
      const n = divergedHere.filter((d) => d.run.sweep?.key === key && d.run.sweep.value === value).length;
      return n ? [{ value, diverged: n, planned: record.runs.filter((r) => r.method === m.name && r.sweep?.key === key && r.sweep.value === value).length }] : [];
    });
    const values = sweepDef.values
      .filter((value) => !divergedValues.some((d) => d.value === value))
      .map((value) => {
        const at = swept.filter((r) => r.run.sweep!.key === key && r.run.sweep!.value === value);
        return { value, runs: at, validation: mean(at.map((r) => Number(r.posthoc.validation[selectionMetric(select)]))) };
      })
      .filter((v) => v.runs.length > 0);
    if (values.length === 0) continue;
    const meanOf = (runs: readonly RunResult[], k: string): number => mean(runs.map((r) => Number(r.posthoc.validation[k])));
    const chosen =
      values[
        chooseSweepValue(
          values.map((v) => ({ accuracy: meanOf(v.runs, 'accuracy'), score: v.validation })),
          select,
        )
      ]!;
    methods.push({
      name: m.name,
      label: m.label ?? m.name,
      runs: chosen.runs,
      group,
      sweep: { key, label: sweepDef.label ?? key.split('.').pop()!, values, chosen: chosen.value, diverged: divergedValues },
    });
  }
  return { dir, record, runs, missing, diverged, methods, notes };
}

/** The "dataset · model" groups of the suite's methods, each once, in method order (one table / figure set each). */
export function methodGroups(results: SuiteResults): string[] {
  return [...new Set(results.methods.map((m) => m.group))];
}

/** A test metric of a run: the trained model's own, or after a post-hoc calibrator. */
export function testMetric(r: RunResult, metric: string, after?: string): number {
  const source = after === undefined ? r.posthoc.test : r.posthoc.calibrators[after]?.test;
  const v = source?.[metric];
  return typeof v === 'number' ? v : Number.NaN;
}

/** A metric of a run's training split (summary.json's `train`, written with `evaluateTrain`); NaN without it. */
export function trainMetric(r: RunResult, metric: string): number {
  const v = (r.summary['train'] as Record<string, unknown> | undefined)?.[metric];
  return typeof v === 'number' ? v : Number.NaN;
}

/** A test metric of a segmentation run without background pixels (posthoc.json's `foreground`); NaN otherwise. */
export function foregroundMetric(r: RunResult, metric: string, after?: string): number {
  const f = r.posthoc.foreground;
  const v = (after === undefined ? f?.test : f?.calibrators[after])?.[metric];
  return typeof v === 'number' ? v : Number.NaN;
}
