import type { Tensor } from '../engine/index.js';
import type { LossTargets } from './types.js';

/**
 * The host-state protocol of a stateful loss: state a loss keeps on the host across training steps and feeds into
 * every compiled step as extra inputs (CRL's per-sample correctness history is the example: crl.ts). A loss
 * declares it once (`hostState` in its `defineLoss` spec); the trainer then runs the protocol without knowing the
 * loss:
 *
 *   create(samples, classes)            at the start of a run (fresh state)
 *   restore(saved)                      when resuming, with what `save()` returned (stored in the checkpoint)
 *   per step:  feed(indices)            → the extra inputs of the batch of training samples `indices`
 *              record(indices, logits, labels)   after the step, with its logits [B, C] and labels [B]
 *   per epoch: endEpoch()
 *   save()                              a JSON value, written into every checkpoint (epoch ends and mid-epoch)
 *
 * Inside the traced step, `targets(inputs)` turns the declared inputs into the fields of the loss's targets record.
 * The loss sees the batch only, so state about individual samples must follow the same samples every epoch (no
 * mixup or held-out placements; the train configuration refuses those combinations for such losses).
 */

/** A float32 step input; −1 in `shape` stands for the batch size. */
export interface HostInputSpec {
  readonly dtype: 'float32';
  readonly shape: readonly number[];
}

/** A host value fed to a step input. */
export type HostFeed = Float32Array | number;

/** One run's live host state. */
export interface LossHostState {
  /** The step inputs of the batch of training samples `indices` (one entry per declared input). */
  feed(indices: Int32Array): Record<string, HostFeed>;
  /** Update from a finished step: its logits [B, C] (row-major) and the batch's labels [B]. */
  record(indices: Int32Array, logits: Float32Array, labels: Int32Array): void;
  /** An epoch finished. */
  endEpoch(): void;
  /** A JSON value from which `restore` rebuilds this exact state. */
  save(): unknown;
}

/** What a stateful loss declares. */
export interface HostStateDeclaration {
  /** Extra step inputs, by name. */
  readonly inputs: Readonly<Record<string, HostInputSpec>>;
  /** The loss targets' fields built from the inputs' tensors (traced into the step). */
  targets(inputs: Readonly<Record<string, Tensor>>): Partial<LossTargets>;
  /** Fresh state for a training set of `samples` samples and `classes` classes. */
  create(samples: number, classes: number): LossHostState;
  /** State from `save()`'s value (InvalidArgumentError naming `argument` when it does not fit). */
  restore(saved: unknown, samples: number, classes: number, argument: string): LossHostState;
}
