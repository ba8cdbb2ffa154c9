/**
 * Reusable memory for the O(N) temporaries of one `compute()` (CORP's groups, the sweep's prefix counts, the
 * risk–coverage error counts): a metric takes a typed array, and gives it back when done so that the next metric
 * reuses the same memory instead of allocating fresh pages. Why: a freshly allocated typed array costs its first
 * touch of every page, and on the project's machine (a VM) that first touch costs ~4 ms of CPU per MB — more than
 * the arithmetic of most one-pass metrics at N = 10⁶ (src/metrics/NOTEBOOK.md, issue 24, has the
 * numbers). A taken array's contents are undefined (whatever the previous user left): callers write every entry
 * they read. Buffers are matched by size (the smallest free one that fits; sizes are rounded up to 64 KiB so that
 * arrays of N and N + 1 entries share one); the pool is dropped with its `MetricContext`.
 */
export class ScratchPool {
  private readonly free: ArrayBuffer[] = [];

  /** A pool whose arrays are always fresh and whose `give` keeps nothing (the functional API's default). */
  static readonly none = new ScratchPool(false);

  constructor(private readonly reuse = true) {}

  /** A Float64Array of `length` entries, contents undefined. */
  float64(length: number): Float64Array {
    return new Float64Array(this.take(8 * length), 0, length);
  }

  /** Give an array taken from this pool back (it must not be used afterwards). */
  give(array: Float64Array): void {
    if (this.reuse) this.free.push(array.buffer as ArrayBuffer);
  }

  private take(bytes: number): ArrayBuffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const size = this.free[i]!.byteLength;
      if (size >= bytes && (best < 0 || size < this.free[best]!.byteLength)) best = i;
    }
    if (best >= 0) return this.free.splice(best, 1)[0]!;
    return new ArrayBuffer(this.reuse ? Math.ceil(bytes / 65536) * 65536 : bytes);
  }
}
