/**
 * Running a suite: every run is checked against what the suite asks for (run-check.ts), and exactly what is stale is
 * recomputed — a run not trained yet, trained with other settings, or with broken files is executed by a
 * `RunExecutor` (at most `executor.concurrency` at once; one trained with other settings or filed under another run
 * is cleared and trained from scratch), then gets its post-hoc step (posthoc-step.ts) unless its posthoc.json is
 * already the one its settings give; a run whose only change is in the post-hoc settings (bins, calibrators, the
 * calibkit version) is refitted without training, and one whose only change is in the evaluation settings (`ood`,
 * `evaluateTrain`, `mcDropout`, … : run-identity.ts) is re-evaluated from its final checkpoint (run-reevaluate.ts)
 * without retraining it. Runs trained before identities were recorded are adopted from
 * their own config.json when it matches (identity.json written, nothing retrained). Each decision other than "up to
 * date" is reported through `notify` with its reason before anything runs.
 *
 * Resumable by construction — a run's state is read from its directory: interrupted runs resume from their
 * checkpoint. A failing run does not stop the others: logs/<id>.failed.json records why, and the outcome lists it.
 */
import { lstat, mkdir, rm, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { CalibratorKind } from '../posthoc/calibrators.js';
import { readJson, runPaths, writeJson } from '../train/artefacts/run-directory.js';
import type { TrainingFailureKind } from '../train/training-error.js';
import type { SuiteRun } from './expand-suite.js';
import { runPosthoc } from './posthoc-step.js';
import { isOptInMetricName } from '../metrics/record/opt-in-metrics.js';
import { checkPosthoc, checkTraining, expectedPosthoc, type SuiteExpectation } from './identity/run-check.js';
import type { RunExecutor, RunOutcome } from './run-executor.js';
import { identityPath, runIdentityRecord, evaluationHash, trainingHash, type RunIdentityRecord } from './identity/run-identity.js';
import { reuseRun, reusableByTraining, reusableRunsOf, type ReusableRun } from './identity/run-reuse.js';
import { takeSuiteEvaluation } from './identity/run-reevaluate.js';
import { epochsDone, failedFile, placedConfig, POSTHOC_FILE, runDirectory, type SuiteRecord } from './suite-directory.js';
import { SILENT_SUITE_PROGRESS, type SuiteProgress } from './suite-progress.js';
import { pathExists } from '../util/path-exists.js';

export interface RunSuiteOptions {
  readonly executor: RunExecutor;
  /** ONNX Runtime threads of a run. */
  readonly threads: number | ((run: SuiteRun) => number);
  readonly progress?: SuiteProgress;
  readonly signal?: AbortSignal;
  /** One line per run that is adopted, refitted, retrained, repaired or reused, with the reason (before anything runs). */
  readonly notify?: (line: string) => void;
  /**
   * Suite directories whose finished runs are copied in for runs of the same evaluation identity instead of training
   * them (run-reuse.ts). Finished runs of the suite's own directory are always reused this way (a run whose settings
   * equal another's: MbLS m = 6 in the margin sweep and the MbLS method).
   */
  readonly reuseFrom?: readonly string[];
}

export interface SuiteOutcome {
  /** Runs done (including those done before this call). */
  readonly done: readonly string[];
  readonly failed: readonly { readonly id: string; readonly error: string }[];
  /** Runs not finished because the suite was stopped. */
  readonly stopped: readonly string[];
  /** Runs executed (trained, resumed or re-evaluated) by this call. */
  readonly executed: number;
  /** Runs whose post-hoc step was (re)computed without training them (only post-hoc settings changed, or a broken posthoc.json). */
  readonly refitted: number;
  /** Runs re-evaluated from their final checkpoint (only evaluation settings changed), not retrained. */
  readonly reevaluated: number;
  /** Runs trained before identities were recorded and kept (their own config.json has the suite's settings). */
  readonly adopted: number;
  /** Runs copied from a finished run of the same evaluation identity (another suite's, or a twin in this one) instead of trained. */
  readonly reused: number;
  readonly seconds: number;
}

/** identity.json of a run whose training files were just checked (or written) to be the suite's. */
async function writeRunIdentity(dir: string, suite: string, run: SuiteRun, adopted: boolean): Promise<void> {
  const rd = runDirectory(dir, run.id);
  const config = (await readJson(runPaths(rd).config)) as Record<string, unknown>;
  const record: RunIdentityRecord = { ...runIdentityRecord(suite, run, evaluationHash(config)), ...(adopted ? { adopted: true as const } : {}) };
  await writeJson(identityPath(rd), record);
}

/** Remove a run's directory (a symbolic link in its place: the link only) and its failure record, to train it anew. */
async function clearRun(dir: string, id: string): Promise<void> {
  const rd = runDirectory(dir, id);
  const info = await lstat(rd).catch(() => null);
  if (info?.isSymbolicLink()) await unlink(rd);
  else if (info) await rm(rd, { recursive: true, force: true });
  await rm(failedFile(dir, id), { force: true });
}

/** Run every unfinished or stale run of the suite in `dir` (suite.json must be written: prepareSuiteDirectory). */
export async function runSuite(dir: string, record: SuiteRecord, options: RunSuiteOptions): Promise<SuiteOutcome> {
  const progress = options.progress ?? SILENT_SUITE_PROGRESS;
  const notify = options.notify ?? (() => {});
  const signal = options.signal ?? new AbortController().signal;
  const threadsOf =
    typeof options.threads === 'number'
      ? (
          (n: number) => () =>
            n
        )(options.threads)
      : options.threads;
  const start = performance.now();
  const optIn = (record.suite.metrics ?? []).filter(isOptInMetricName);
  const expect: SuiteExpectation = { suite: record.suite.name, posthoc: record.suite.posthoc, bins: record.suite.bins, metrics: optIn };
  const done: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const stopped: string[] = [];
  const queue: SuiteRun[] = [];
  const epochsOf = new Map<string, number>();
  let adopted = 0;
  let refitted = 0;
  let reused = 0;
  let reevaluated = 0;
  const reusable = await reusableRunsOf([...(options.reuseFrom ?? []), dir]);
  const reusableWeights = reusableByTraining(reusable);
  /**
   * Copy a finished run of the same evaluation identity in for `run` (nothing there yet), else one of the same training
   * identity (re-evaluated after: its evaluation settings are not the suite's); true when it did.
   */
  const reuse = async (run: SuiteRun): Promise<boolean> => {
    const own = resolve(runDirectory(dir, run.id));
    const usable = (r: ReusableRun | undefined): r is ReusableRun => r !== undefined && resolve(r.dir) !== own;
    const same = reusable.get(evaluationHash(run.config));
    const source = usable(same) ? same : reusableWeights.get(trainingHash(run.config));
    if (!usable(source)) return false;
    await clearRun(dir, run.id);
    await reuseRun(dir, record.suite.name, run, source);
    reused++;
    notify(
      source === same
        ? `reuse   ${run.id}: copied from ${source.dir} (the same evaluation identity)`
        : `reuse   ${run.id}: copied from ${source.dir} (the same training identity; its final evaluation is redone with this suite's settings)`,
    );
    return true;
  };
  for (const run of record.runs) {
    const rd = runDirectory(dir, run.id);
    let training = await checkTraining(dir, run);
    if ((training.kind === 'pending' || training.kind === 'failed') && (await reuse(run))) training = await checkTraining(dir, run);
    if (training.kind === 'retrain') {
      notify(`retrain ${run.id}: ${training.reason}`);
      await clearRun(dir, run.id);
    }
    if (training.kind === 'reevaluate') notify(`re-evaluate ${run.id}: ${training.reason} (from its final checkpoint; weights and log.jsonl kept)`);
    if (training.kind === 'partial' && training.evaluation !== undefined) notify(`resume  ${run.id}: with the suite's evaluation settings (${training.evaluation})`);
    let upToDate = false;
    if (training.kind === 'valid' || training.kind === 'adopt') {
      const posthoc = await checkPosthoc(rd, expectedPosthoc(run, expect));
      const kept: string[] = [];
      if (training.kind === 'adopt') {
        await writeRunIdentity(dir, expect.suite, run, true);
        kept.push("trained before run identities were recorded; its config.json has the suite's training settings (kept, identity.json written)");
      }
      if (posthoc.kind === 'adopt') {
        const path = join(rd, POSTHOC_FILE);
        await writeJson(path, { ...((await readJson(path)) as Record<string, unknown>), identity: posthoc.identity });
        kept.push("its posthoc.json has the suite's bins and calibrators (kept)");
      }
      if (kept.length) {
        adopted++;
        notify(`adopt   ${run.id}: ${kept.join('; ')}`);
      }
      if (posthoc.kind === 'compute' && posthoc.why !== 'missing') notify(`refit   ${run.id}: ${posthoc.reason}`);
      upToDate = posthoc.kind !== 'compute';
    }
    if (upToDate) done.push(run.id);
    else queue.push(run);
    epochsOf.set(run.id, upToDate ? run.config.epochs : await epochsDone(rd));
  }
  const running = new Map<string, { epoch: number; epochs: number }>();
  let trained = 0;
  let executed = 0;
  const snapshot = () => ({
    total: record.runs.length,
    done: done.length,
    failed: failed.length,
    running: [...running].map(([id, r]) => ({ id, ...r })),
    epochsLeft: record.runs.reduce((s, r) => s + (done.includes(r.id) ? 0 : Math.max(0, r.config.epochs - (epochsOf.get(r.id) ?? 0))), 0),
    epochsTrained: trained,
    elapsed: (performance.now() - start) / 1000,
  });
  const report = (event?: string): void => progress.update(snapshot(), event);
  report();

  const posthocKinds = record.suite.posthoc as CalibratorKind[];
  // failed.json's `kind`: the trainer's ('diverged' | 'error', from the executor), 'error' for the runner's own checks,
  // absent when the executor could not read the trainer's record (the report then falls back on the message).
  const fail = async (run: SuiteRun, error: string, exitCode: number, log?: string, kind?: TrainingFailureKind): Promise<void> => {
    failed.push({ id: run.id, error });
    // logs/ exists once a local run has started; a suite on a queue may fail before anything wrote there.
    await mkdir(dirname(failedFile(dir, run.id)), { recursive: true });
    await writeJson(failedFile(dir, run.id), { error, ...(kind ? { kind } : {}), exit_code: exitCode, ...(log ? { log } : {}) });
    report(`FAILED ${run.id}: ${error}`);
  };
  const one = async (run: SuiteRun): Promise<void> => {
    const rd = runDirectory(dir, run.id);
    const t0 = performance.now();
    let training = await checkTraining(dir, run);
    if (training.kind === 'retrain') {
      // Stale since the plan was made (another process?): start over rather than resume other settings.
      await clearRun(dir, run.id);
      training = await checkTraining(dir, run);
    }
    // A twin of this run (same evaluation or training identity) finished since the plan was made: copy it.
    if ((training.kind === 'pending' || training.kind === 'failed') && (await reuse(run))) training = await checkTraining(dir, run);
    const trainNow = training.kind !== 'valid' && training.kind !== 'adopt';
    if (trainNow) {
      executed++;
      // A checkpoint of the run's training whose evaluation settings are not the suite's (a finished run to
      // re-evaluate, an interrupted or failed one): its config.json takes the suite's before it resumes.
      if (training.kind === 'reevaluate' || ((training.kind === 'partial' || training.kind === 'failed') && (await pathExists(runPaths(rd).lastCheckpoint)))) {
        try {
          await takeSuiteEvaluation(rd, run);
        } catch (e) {
          await fail(run, `re-evaluation: ${(e as Error).message}`, 1, undefined, 'error');
          return;
        }
      }
      if (training.kind === 'reevaluate') reevaluated++;
      running.set(run.id, { epoch: epochsOf.get(run.id) ?? 0, epochs: run.config.epochs });
      const why =
        training.kind === 'reevaluate'
          ? `: ${training.reason} (redoing its final evaluation from its final checkpoint)`
          : training.kind === 'partial' && training.reason
            ? `: ${training.reason} (redoing its final evaluation)`
            : '';
      report(`${training.kind === 'partial' || training.kind === 'reevaluate' ? 'resume' : 'start '} ${run.id}${why}`);
      const outcome = await options.executor
        .execute(
          { run: { ...run, config: placedConfig(dir, run) }, dir: rd, threads: threadsOf(run) },
          (epoch) => {
            const before = epochsOf.get(run.id) ?? 0;
            if (epoch > before) trained += epoch - before;
            epochsOf.set(run.id, epoch);
            running.set(run.id, { epoch, epochs: run.config.epochs });
            report();
          },
          signal,
        )
        .catch((e: unknown): RunOutcome => ({ exitCode: 1, error: (e as Error).message ?? String(e), failure: 'error' }));
      running.delete(run.id);
      if (outcome.exitCode !== 0) {
        if (signal.aborted) {
          stopped.push(run.id);
          report(`stopped ${run.id}`);
        } else {
          await fail(run, outcome.error ?? `exit code ${outcome.exitCode}`, outcome.exitCode, join(dir, 'logs', `${run.id}.txt`), outcome.failure);
        }
        return;
      }
      // The executor says it finished: its files must be this run's, whole (a queue result is checked here too).
      training = await checkTraining(dir, run);
      if (training.kind !== 'adopt' && training.kind !== 'valid') {
        await fail(run, `the trained files are not the run's: ${training.kind === 'retrain' ? training.reason : training.kind}`, 1, undefined, 'error');
        return;
      }
      await writeRunIdentity(dir, expect.suite, run, false);
      const checkpoints = (await pathExists(runPaths(rd).lastCheckpoint)) && (await pathExists(runPaths(rd).bestCheckpoint));
      const finishedRun: ReusableRun = { dir: rd, training: evaluationHash(run.config), ...(checkpoints ? { weights: trainingHash(run.config) } : {}) };
      if (!reusable.has(finishedRun.training)) reusable.set(finishedRun.training, finishedRun);
      if (finishedRun.weights !== undefined && !reusableWeights.has(finishedRun.weights)) reusableWeights.set(finishedRun.weights, finishedRun);
    }
    try {
      const posthoc = await checkPosthoc(rd, expectedPosthoc(run, expect));
      if (posthoc.kind === 'compute') {
        await runPosthoc(rd, posthocKinds, record.suite.bins, optIn);
        if (!trainNow) refitted++;
      }
      await rm(failedFile(dir, run.id), { force: true });
      done.push(run.id);
      report(`done   ${run.id} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      await fail(run, `post-hoc step: ${(e as Error).message}`, 1, undefined, 'error');
    }
  };

  // A run whose twin (same training identity: the same files, or the same weights to re-evaluate) is also queued goes
  // last, so the twin has finished when it comes up.
  const firstOf = new Map<string, string>();
  for (const r of queue) if (!firstOf.has(trainingHash(r.config))) firstOf.set(trainingHash(r.config), r.id);
  const isTwin = (r: SuiteRun): boolean => firstOf.get(trainingHash(r.config)) !== r.id;
  queue.sort((a, b) => Number(isTwin(a)) - Number(isTwin(b)));
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < queue.length) {
      const run = queue[next++]!;
      if (signal.aborted) {
        stopped.push(run.id);
        continue;
      }
      await one(run);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.executor.concurrency, queue.length)) }, lane));
  } finally {
    progress.finish();
    await options.executor.close?.();
  }
  const order = new Map(record.runs.map((r, i) => [r.id, i]));
  done.sort((a, b) => order.get(a)! - order.get(b)!);
  return { done, failed, stopped, executed, refitted, reevaluated, adopted, reused, seconds: (performance.now() - start) / 1000 };
}
