import { argmaxRow } from '../../util/argmax.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { HostStateDeclaration, LossHostState } from '../host-state.js';

/**
 * Host-side correctness history for CRL (Moon et al. 2020; official `crl_utils.History`): per training sample, how
 * many times it was classified correctly, and the epoch counter used to normalise it. Feed `batch(indices)` as
 * `targets.history.counts`, `epochs` as `targets.history.epochs` and `min` as `targets.history.min` in each step;
 * call `record(indices, correct)` after the step and `endEpoch()` after each epoch.
 * The code's `max_correctness` starts at 1 and grows by one after every epoch but the first, i.e. it equals
 * max(1, completed epochs); `epochs` reproduces that.
 */
export class CorrectnessHistory {
  private readonly counts: Float64Array;
  private completed = 0;

  /** `size`: number of training samples (indices are 0..size−1). */
  constructor(readonly size: number) {
    requireNumber('size', size, { integer: true, min: 1 });
    this.counts = new Float64Array(size);
  }

  /** The normaliser: max(1, completed epochs). */
  get epochs(): number {
    return Math.max(1, this.completed);
  }

  /** Smallest count over the whole set (the code's `correctness.min()`). */
  get min(): number {
    let m = Infinity;
    for (const v of this.counts) if (v < m) m = v;
    return m;
  }

  /** Counts of the samples `indices` as float32 [B] (the batch's `targets.history.counts`). */
  batch(indices: ArrayLike<number>): Float32Array {
    const out = new Float32Array(indices.length);
    for (let i = 0; i < indices.length; i++) out[i] = this.counts[this.index(indices, i)]!;
    return out;
  }

  /** Add the correctness (1/0, or true/false) of the batch's samples. */
  record(indices: ArrayLike<number>, correct: ArrayLike<number | boolean>): void {
    if (correct.length !== indices.length) invalidArgument('correct', `${indices.length} values (one per index)`, `${correct.length}`);
    for (let i = 0; i < indices.length; i++) {
      const v = Number(correct[i]);
      if (v !== 0 && v !== 1) invalidArgument(`correct[${i}]`, '0 or 1', describe(correct[i]));
      this.counts[this.index(indices, i)]! += v;
    }
  }

  /** Mark the end of an epoch. */
  endEpoch(): void {
    this.completed++;
  }

  /** { counts, completed } as plain numbers (counts are small integers, exact in JSON). */
  save(): { counts: number[]; completed: number } {
    return { counts: Array.from(this.counts), completed: this.completed };
  }

  /** A history of `size` samples from `save()`'s value; a value that does not fit is an error naming `argument`. */
  static restore(saved: unknown, size: number, argument: string): CorrectnessHistory {
    const v = saved as { counts?: unknown; completed?: unknown } | null;
    const counts = v?.counts;
    if (!Array.isArray(counts) || counts.length !== size || !counts.every((c) => Number.isInteger(c) && c >= 0)) {
      invalidArgument(`${argument}.counts`, `${size} non-negative integer counts`, describe(counts));
    }
    if (!Number.isInteger(v!.completed) || (v!.completed as number) < 0) invalidArgument(`${argument}.completed`, 'an integer ≥ 0', describe(v!.completed));
    const h = new CorrectnessHistory(size);
    h.counts.set(counts as number[]);
    h.completed = v!.completed as number;
    return h;
  }

  private index(indices: ArrayLike<number>, i: number): number {
    const k = indices[i]!;
    if (!Number.isInteger(k) || k < 0 || k >= this.size) invalidArgument(`indices[${i}]`, `an integer in [0, ${this.size})`, describe(k));
    return k;
  }
}

/** Extra step inputs of CRL's history (names as the trainer feeds them). */
export const CRL_INPUTS = { counts: 'crl-counts', epochs: 'crl-epochs', min: 'crl-min' } as const;

/** 1 where the argmax of a logits row (first index on ties) equals the label, else 0. Shapes: [B, C], [B]. */
export function correctRows(logits: Float32Array, labels: Int32Array): Uint8Array {
  const b = labels.length;
  const classes = logits.length / b;
  const out = new Uint8Array(b);
  for (let i = 0; i < b; i++) {
    out[i] = argmaxRow(logits, i * classes, classes) === labels[i] ? 1 : 0;
  }
  return out;
}

function liveState(h: CorrectnessHistory): LossHostState {
  return {
    feed: (indices) => ({ [CRL_INPUTS.counts]: h.batch(indices), [CRL_INPUTS.epochs]: h.epochs, [CRL_INPUTS.min]: h.min }),
    record: (indices, logits, labels) => h.record(indices, correctRows(logits, labels)),
    endEpoch: () => h.endEpoch(),
    save: () => h.save(),
  };
}

/** CRL's host state: the correctness history, fed as `targets.history` (see host-state.ts for the protocol). */
export const CRL_HOST_STATE: HostStateDeclaration = {
  inputs: {
    [CRL_INPUTS.counts]: { dtype: 'float32', shape: [-1] },
    [CRL_INPUTS.epochs]: { dtype: 'float32', shape: [] },
    [CRL_INPUTS.min]: { dtype: 'float32', shape: [] },
  },
  targets: (t) => ({ history: { counts: t[CRL_INPUTS.counts]!, epochs: t[CRL_INPUTS.epochs]!, min: t[CRL_INPUTS.min]! } }),
  create: (samples) => liveState(new CorrectnessHistory(samples)),
  restore: (saved, samples, _classes, argument) => liveState(CorrectnessHistory.restore(saved, samples, argument)),
};
