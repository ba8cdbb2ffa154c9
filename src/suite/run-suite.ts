/**
 * Running a suite: every run not yet done is executed by a `RunExecutor` (at most `executor.concurrency` at
 * once), then gets its post-hoc step (posthoc-step.ts) unless the executor already brought posthoc.json back.
 * Resumable by construction — a run's state is read from its directory (suite-directory.ts): done runs are
 * skipped, trained ones only get the post-hoc step, interrupted ones resume from their checkpoint. A failing run
 * does not stop the others: logs/<id>.failed.json records why, and the outcome lists it.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CalibratorKind } from '../posthoc/calibrators.js';
import { writeJson } from '../train/run-directory.js';
import type { SuiteRun } from './expand-suite.js';
import { runPosthoc } from './posthoc-step.js';
import type { RunExecutor } from './run-executor.js';
import { epochsDone, failedFile, placedConfig, runDirectory, runState, type SuiteRecord } from './suite-directory.js';
import { SILENT_SUITE_PROGRESS, type SuiteProgress } from './suite-progress.js';

export interface RunSuiteOptions {
  readonly executor: RunExecutor;
  /** ONNX Runtime threads per run. */
  readonly threads: number;
  readonly progress?: SuiteProgress;
  readonly signal?: AbortSignal;
}

export interface SuiteOutcome {
  /** Runs done (including those done before this call). */
  readonly done: readonly string[];
  readonly failed: readonly { readonly id: string; readonly error: string }[];
  /** Runs not finished because the suite was stopped. */
  readonly stopped: readonly string[];
  /** Runs executed (trained or resumed) by this call. */
  readonly executed: number;
  readonly seconds: number;
}

/** Run every unfinished run of the suite in `dir` (suite.json must be written: prepareSuiteDirectory). */
export async function runSuite(dir: string, record: SuiteRecord, options: RunSuiteOptions): Promise<SuiteOutcome> {
  const progress = options.progress ?? SILENT_SUITE_PROGRESS;
  const signal = options.signal ?? new AbortController().signal;
  const start = performance.now();
  const done: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const stopped: string[] = [];
  const queue: SuiteRun[] = [];
  const epochsOf = new Map<string, number>();
  for (const run of record.runs) {
    const state = await runState(dir, run.id);
    if (state === 'done') done.push(run.id);
    else queue.push(run);
    epochsOf.set(run.id, state === 'done' ? run.config.epochs : await epochsDone(runDirectory(dir, run.id)));
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
  const one = async (run: SuiteRun): Promise<void> => {
    const rd = runDirectory(dir, run.id);
    const t0 = performance.now();
    let state = await runState(dir, run.id);
    if (state === 'failed' || state === 'pending' || state === 'partial') {
      executed++;
      running.set(run.id, { epoch: epochsOf.get(run.id) ?? 0, epochs: run.config.epochs });
      report(`${state === 'partial' ? 'resume' : 'start '} ${run.id}`);
      const outcome = await options.executor
        .execute(
          { run: { ...run, config: placedConfig(dir, run) }, dir: rd, threads: options.threads },
          (epoch) => {
            const before = epochsOf.get(run.id) ?? 0;
            if (epoch > before) trained += epoch - before;
            epochsOf.set(run.id, epoch);
            running.set(run.id, { epoch, epochs: run.config.epochs });
            report();
          },
          signal,
        )
        .catch((e: unknown) => ({ exitCode: 1, error: (e as Error).message ?? String(e) }));
      running.delete(run.id);
      if (outcome.exitCode !== 0) {
        if (signal.aborted) {
          stopped.push(run.id);
          report(`stopped ${run.id}`);
        } else {
          const error = outcome.error ?? `exit code ${outcome.exitCode}`;
          failed.push({ id: run.id, error });
          await writeJson(failedFile(dir, run.id), { error, exit_code: outcome.exitCode, log: join(dir, 'logs', `${run.id}.txt`) });
          report(`FAILED ${run.id}: ${error}`);
        }
        return;
      }
      state = await runState(dir, run.id);
    }
    try {
      if (state === 'trained') await runPosthoc(rd, posthocKinds, record.suite.bins);
      await rm(failedFile(dir, run.id), { force: true });
      done.push(run.id);
      report(`done   ${run.id} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      const error = `post-hoc step: ${(e as Error).message}`;
      failed.push({ id: run.id, error });
      await writeJson(failedFile(dir, run.id), { error, exit_code: 1 });
      report(`FAILED ${run.id}: ${error}`);
    }
  };

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
  return { done, failed, stopped, executed, seconds: (performance.now() - start) / 1000 };
}
