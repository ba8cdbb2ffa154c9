/**
 * One training epoch of a run (or the rest of one, from a mid-epoch checkpoint):
 *
 *   for each position of the epoch's order (RunSetup.epochSteps), skipping the updates already made:
 *     prepare the batch on the host (trainer-batch.ts; draws from the epoch's host generator)
 *     one compiled step at lr(epoch, step) — the secondary-only step for the held-out part of interleaved training
 *     a stateful loss records the step (host-state.ts)
 *     a non-finite loss stops the run here (TrainingError naming epoch and step; nothing of this step is saved)
 *     a mid-epoch checkpoint when one is due, and a stop (checkpoint first) when the signal is aborted
 *
 * The host generator starts each epoch from Random(epochSeed(seed ⊕ HOST_SALT, epoch)) and is checkpointed with the
 * epoch's totals, so the remaining draws of a resumed epoch are the ones an uninterrupted run would make.
 */
import { BatchScratch, epochSeed, gatherBatch } from '../../data/batching.js';
import type { Feed } from '../../engine/index.js';
import type { LossHostState } from '../../losses/host-state.js';
import { Random } from '../../util/random.js';
import type { StepResult } from '../steps/compile-train-step.js';
import type { TrainProgress } from './progress.js';
import type { EpochTotals, PartialEpoch } from './run-checkpoint.js';
import { emptyTotals } from './run-checkpoint.js';
import type { RunSetup } from './run-setup.js';
import type { TrainState } from '../steps/train-state.js';
import { TrainingError } from '../training-error.js';
import { prepareBatch } from './trainer-batch.js';
import { processCpuSeconds } from '../../util/cpu-time.js';

/** Salt of the host generator (augmentation and mixup draws) so it differs from the batch-order stream. */
const HOST_SALT = 0x6d697875;

/** What an epoch calls out to. */
export interface EpochHooks {
  readonly progress: TrainProgress;
  readonly signal?: AbortSignal | undefined;
  readonly onStep?: ((info: { readonly epoch: number; readonly steps: number; readonly phase: 'primary' | 'secondary' }) => void) | undefined;
  /** Whether a mid-epoch checkpoint is due after an update (`totals` so far). */
  checkpointDue(totals: EpochTotals): boolean;
  /** Write a mid-epoch checkpoint of the current state. */
  saveMidEpoch(partial: PartialEpoch): Promise<void>;
}

/** How an epoch ended: all its updates made, or stopped (a mid-epoch checkpoint of the stop point was written). */
export type EpochOutcome = { readonly status: 'finished'; readonly totals: EpochTotals } | { readonly status: 'stopped'; readonly totals: EpochTotals };

/** Run (the rest of) epoch `epoch` on `state`; `from` is the partial epoch of a mid-epoch checkpoint. */
export async function runEpoch(setup: RunSetup, state: TrainState, host: LossHostState | null, epoch: number, from: PartialEpoch | undefined, hooks: EpochHooks): Promise<EpochOutcome> {
  const { config, data } = setup;
  const rng = new Random(epochSeed(config.seed ^ HOST_SALT, epoch));
  if (from) rng.setState(from.hostRng.map((v) => (v === null ? Number.NaN : v)));
  const totals: EpochTotals = from ? structuredClone(from.totals) : emptyTotals();
  const resumedAt = totals.elapsedSeconds;
  const t0 = performance.now();
  const elapsed = (): number => resumedAt + (performance.now() - t0) / 1000;
  const cpuAt = totals.cpuSeconds ?? 0;
  const cpu0 = processCpuSeconds();
  const cpu = (): number => cpuAt + processCpuSeconds() - cpu0;
  const snapshot = (): PartialEpoch => ({ totals: { ...totals, elapsedSeconds: elapsed(), cpuSeconds: cpu() }, hostRng: rng.getState().map((v) => (Number.isNaN(v) ? null : v)) });
  // The training batch's values go into reused memory: each is consumed by its step before the next is gathered.
  const scratch = new BatchScratch();
  let index = 0;
  for (const position of setup.epochSteps(epoch)) {
    if (index++ < totals.steps) continue; // made before the checkpoint this epoch resumed from
    const ts = performance.now();
    const rate = setup.lr.at(epoch, totals.steps);
    let result: StepResult;
    let batchRows: number;
    if (position.phase === 'secondary') {
      const batch = gatherBatch(data.heldOut!, position);
      batchRows = batch.labels.length;
      result = setup.secondaryStep!.run(state, { x: batch.kind === 'image' ? batch.images : batch.tokens, y: batch.labels }, rate);
    } else {
      const batch = gatherBatch(data.train, position, scratch);
      const extra = setup.placement === 'sources' ? 'sources' : setup.placement === 'holdout' ? setup.holdoutRows(state.step) : undefined;
      const prepared = prepareBatch(setup.plan, batch, rng, extra);
      batchRows = prepared.mainRows;
      const feeds: Record<string, Feed> = { ...prepared.extras, ...(host ? host.feed(batch.indices) : {}) };
      result = setup.mainStep.run(state, { x: prepared.x, y: setup.task.targets(data, position, prepared), extras: feeds }, rate);
      if (Number.isFinite(result.loss)) host?.record(batch.indices, result.logits!, batch.labels);
    }
    if (!Number.isFinite(result.loss)) {
      throw new TrainingError(
        `the training loss became ${result.loss} at epoch ${epoch + 1}, step ${totals.steps + 1} of ${setup.stepsPerEpoch} (update ${state.step} of the run); ` +
          `the run stopped there (lower --lr, or check the loss options); log.jsonl and the last good checkpoint are kept in ${config.out}`,
        'diverged',
      );
    }
    totals.lossSum += result.loss * batchRows;
    for (const [k, v] of Object.entries(result.terms)) {
      totals.termSums[k] = (totals.termSums[k] ?? 0) + v * batchRows;
      totals.termRows[k] = (totals.termRows[k] ?? 0) + batchRows;
    }
    totals.rows += batchRows;
    totals.samples += batchRows;
    totals.trainSeconds += (performance.now() - ts) / 1000;
    totals.lastLr = rate;
    totals.steps++;
    hooks.progress.step({ epoch, doneSteps: epoch * setup.stepsPerEpoch + totals.steps, loss: totals.lossSum / totals.rows, samples: totals.samples, trainSeconds: totals.trainSeconds });
    hooks.onStep?.({ epoch, steps: state.step, phase: position.phase });
    if (hooks.signal) {
      await new Promise((resolve) => setImmediate(resolve));
      if (hooks.signal.aborted) {
        await hooks.saveMidEpoch(snapshot());
        return { status: 'stopped', totals };
      }
    }
    if (totals.steps < setup.stepsPerEpoch && hooks.checkpointDue(totals)) await hooks.saveMidEpoch(snapshot());
  }
  totals.elapsedSeconds = elapsed();
  totals.cpuSeconds = cpu();
  return { status: 'finished', totals };
}
