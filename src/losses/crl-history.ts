import { describe, invalidArgument, requireNumber } from '../util/errors.js';

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
      this.counts[this.index(indices, i)] += v;
    }
  }

  /** Mark the end of an epoch. */
  endEpoch(): void {
    this.completed++;
  }

  private index(indices: ArrayLike<number>, i: number): number {
    const k = indices[i]!;
    if (!Number.isInteger(k) || k < 0 || k >= this.size) invalidArgument(`indices[${i}]`, `an integer in [0, ${this.size})`, describe(k));
    return k;
  }
}
