/**
 * How a queue job's failure carries the trainer's failure kind (failure.json: 'diverged' | 'error') from the worker
 * to the coordinator. BullMQ keeps only a failed job's message (`failedReason`), so the worker puts the kind first —
 * "diverged: the training loss became NaN at epoch 3" — and the coordinator reads it back, so that a suite on a queue
 * records a divergence exactly as a local suite does (logs/<id>.failed.json `kind`, the report's diverged runs).
 * A reason without a known kind (a stalled job, BullMQ's own messages) is an 'error'.
 */
import { TRAINING_FAILURE_KINDS } from '../../train/artefacts/failure-record.js';
import type { TrainingFailureKind } from '../../train/training-error.js';

/** The failedReason a worker gives a job whose training failed with `kind`. */
export function queueFailureReason(kind: TrainingFailureKind, message: string): string {
  return `${kind}: ${message}`;
}

/** The kind and message of a failed job's reason (kind 'error' when the reason names none). */
export function readQueueFailureReason(reason: string | undefined): { kind: TrainingFailureKind; message: string } {
  const text = reason ?? 'no reason recorded';
  const match = /^([a-z]+): ([\s\S]*)$/.exec(text);
  if (match && TRAINING_FAILURE_KINDS.includes(match[1] as TrainingFailureKind)) {
    return { kind: match[1] as TrainingFailureKind, message: match[2]! };
  }
  return { kind: 'error', message: text };
}
