/**
 * Interleaved training (Karandikar et al. 2021, App. B; METHODS.md "Training procedures"): the training set is
 * split into a majority part and a held-out part, and each epoch is split in two: first one pass over the majority
 * part optimising the primary loss, then one pass over the held-out part optimising the secondary (calibration)
 * term. Both passes update the same parameters and optimizer state.
 *
 * Batch orders come from `batchPositions` (src/data/batching.ts): the majority stream with the run's seed, the
 * held-out stream with `heldOutSeed(seed)`, so each (epoch, batch) position is recomputable and a run resumed at an
 * epoch boundary sees the same batches.
 */
import { batchPositions, type IndexBatch } from '../data/batching.js';
import { requireNumber } from '../util/errors.js';

/** One update of an interleaved epoch. */
export interface InterleavedStep extends IndexBatch {
  /** Which objective the update optimises. */
  readonly phase: 'primary' | 'secondary';
  /** Which part of the training set the indices point into ('majority' or 'held-out', each indexed from 0). */
  readonly split: 'majority' | 'held-out';
}

/** Seed of the held-out part's batch order (a fixed odd offset of the run's seed, kept in 32 bits). */
export function heldOutSeed(seed: number): number {
  return (seed + 0x2545f491) | 0;
}

/** Options of `interleavedEpoch`. */
export interface InterleavedOptions {
  readonly batchSize: number;
  readonly seed: number;
  /** Drop the last partial batch of each pass (default false). */
  readonly dropLast?: boolean;
  /** Batch size of the held-out pass (default `batchSize`). */
  readonly heldOutBatchSize?: number;
}

/**
 * The updates of epoch `epoch` (0-based): every batch of the majority part (phase 'primary'), then every batch of
 * the held-out part (phase 'secondary').
 */
export function* interleavedEpoch(epoch: number, majority: number, heldOut: number, options: InterleavedOptions): Generator<InterleavedStep> {
  requireNumber('epoch', epoch, { integer: true, min: 0 });
  requireNumber('majority', majority, { integer: true, min: 1 });
  requireNumber('heldOut', heldOut, { integer: true, min: 1 });
  const common = { start: { epoch, batch: 0 }, endEpoch: epoch + 1, dropLast: options.dropLast ?? false };
  for (const p of batchPositions(majority, { ...common, batchSize: options.batchSize, seed: options.seed })) {
    yield { ...p, phase: 'primary', split: 'majority' };
  }
  const heldOutBatch = options.heldOutBatchSize ?? options.batchSize;
  for (const p of batchPositions(heldOut, { ...common, batchSize: Math.min(heldOutBatch, heldOut), seed: heldOutSeed(options.seed) })) {
    yield { ...p, phase: 'secondary', split: 'held-out' };
  }
}
