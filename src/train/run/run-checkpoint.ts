/**
 * What a run stores in its checkpoints' metadata, so that it resumes exactly from any of them:
 *
 *   epoch      finished epochs
 *   best       the best-epoch tracker's state
 *   records    the log lines of the finished epochs (log.jsonl is rewritten from them on resume)
 *   partial    only in a mid-epoch checkpoint: the unfinished epoch's totals so far (updates made, loss sums,
 *              timing) and the state of its host generator (augmentation and mixup draws)
 *   lossState  the primary loss's host state (`LossHostState.save()`, e.g. CRL's correctness history)
 *
 * Together with the checkpoint's own content (weights, optimizer slots, step counter, the step generator that draws
 * dropout masks) this is everything the remaining updates depend on.
 */
import { describe, invalidArgument } from '../../util/errors.js';
import type { BestState } from './best-epoch.js';
import { loadCheckpoint, saveCheckpoint } from '../artefacts/checkpoint.js';
import type { RunSetup } from './run-setup.js';
import type { TrainState } from '../steps/train-state.js';
import type { EpochRecord } from '../artefacts/train-log.js';

/** Running totals of an epoch (all updates so far). */
export interface EpochTotals {
  /** Updates made in this epoch. */
  steps: number;
  /** Σ loss · rows and Σ rows over the updates (the epoch's train_loss is their ratio). */
  lossSum: number;
  rows: number;
  termSums: Record<string, number>;
  termRows: Record<string, number>;
  /** Wall time of the updates (s), samples trained on, learning rate of the last update. */
  trainSeconds: number;
  samples: number;
  lastLr: number;
  /** Wall time of the epoch so far (s), including time spent before a resume. */
  elapsedSeconds: number;
  /**
   * CPU time of the run's process during the epoch so far (s, user + system, every thread), including time before a
   * resume; absent in checkpoints written before it was recorded (the epoch's CPU time then starts at the resume).
   */
  cpuSeconds?: number;
}

/** A fresh epoch's totals. */
export function emptyTotals(): EpochTotals {
  return { steps: 0, lossSum: 0, rows: 0, termSums: {}, termRows: {}, trainSeconds: 0, samples: 0, lastLr: 0, elapsedSeconds: 0, cpuSeconds: 0 };
}

/** The unfinished epoch of a mid-epoch checkpoint. */
export interface PartialEpoch {
  readonly totals: EpochTotals;
  /** `Random.getState()` of the epoch's host generator (NaN stored as null). */
  readonly hostRng: readonly (number | null)[];
}

/** A run checkpoint's metadata (see the module comment). */
export interface RunMetadata {
  readonly epoch: number;
  readonly best: BestState;
  readonly records: readonly EpochRecord[];
  readonly partial?: PartialEpoch;
  readonly lossState?: unknown;
}

/** Write a run checkpoint of `state` with `metadata`. */
export async function saveRunCheckpoint(path: string, setup: RunSetup, state: TrainState, metadata: RunMetadata): Promise<void> {
  await saveCheckpoint(path, { model: setup.model, optimizer: setup.optimizer, state, metadata: metadata as unknown as Record<string, unknown> });
}

/** Read a run checkpoint; its metadata is checked field by field (a missing field is an error naming it). */
export async function loadRunCheckpoint(path: string, setup: RunSetup): Promise<{ state: TrainState; metadata: RunMetadata }> {
  const ckpt = await loadCheckpoint(path, { model: setup.model, optimizer: setup.optimizer });
  return { state: ckpt.state, metadata: checkMetadata(ckpt.header.metadata, `${path}: metadata`, setup) };
}

function checkMetadata(raw: Readonly<Record<string, unknown>>, at: string, setup: RunSetup): RunMetadata {
  const missing = (v: unknown): string => (v === undefined ? 'nothing (missing field; not a checkpoint written by calib train?)' : describe(v));
  const { epoch, best, records, partial } = raw as Record<string, unknown>;
  if (!Number.isInteger(epoch) || (epoch as number) < 0 || (epoch as number) > setup.config.epochs) {
    invalidArgument(`${at}.epoch`, `an integer in [0, ${setup.config.epochs}]`, missing(epoch));
  }
  if (!Array.isArray(records) || records.length !== epoch) invalidArgument(`${at}.records`, `${String(epoch)} epoch records`, missing(records));
  const b = best as Partial<BestState> | undefined;
  if (typeof b !== 'object' || b === null || b.metric !== setup.config.select || !Number.isInteger(b.epoch)) {
    invalidArgument(`${at}.best`, `the best-epoch state by ${setup.config.select}`, missing(best));
  }
  if (partial !== undefined) {
    const p = partial as Partial<PartialEpoch>;
    const t = p?.totals as Partial<EpochTotals> | undefined;
    const numbers = ['steps', 'lossSum', 'rows', 'trainSeconds', 'samples', 'lastLr', 'elapsedSeconds'] as const;
    const bad = numbers.find((k) => typeof t?.[k] !== 'number');
    if (bad) invalidArgument(`${at}.partial.totals.${bad}`, 'a number', missing(t?.[bad]));
    if (t!.cpuSeconds !== undefined && typeof t!.cpuSeconds !== 'number') invalidArgument(`${at}.partial.totals.cpuSeconds`, 'a number', describe(t!.cpuSeconds));
    if (!Number.isInteger(t!.steps) || t!.steps! > setup.stepsPerEpoch) invalidArgument(`${at}.partial.totals.steps`, `an integer in [0, ${setup.stepsPerEpoch}]`, describe(t!.steps));
    if (typeof t!.termSums !== 'object' || typeof t!.termRows !== 'object') invalidArgument(`${at}.partial.totals.termSums`, 'objects of sums', missing(t!.termSums));
    if (!Array.isArray(p.hostRng) || p.hostRng.length < 4) invalidArgument(`${at}.partial.hostRng`, 'a generator state', missing(p.hostRng));
    if ((epoch as number) >= setup.config.epochs) invalidArgument(`${at}.partial`, 'no unfinished epoch after the last one', `epoch ${String(epoch)}`);
  }
  if (setup.host && raw['lossState'] === undefined) invalidArgument(`${at}.lossState`, `the host state of loss ${setup.config.loss}`, 'nothing (missing field)');
  return raw as unknown as RunMetadata;
}
