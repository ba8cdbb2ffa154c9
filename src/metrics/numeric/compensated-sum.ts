/**
 * Compensated (Kahan–Babuška–Neumaier) summation. A running sum is a pair (s, c): s the float64 sum, c the
 * accumulated rounding error; the value is s + c. The error of the value is O(ε) · Σ|x| independent of N,
 * so sums built in different groupings (one big update vs. merged chunks) agree to the last bit except
 * when the exact sum lies within ~1e−26 relative of a rounding boundary.
 */

/** Rounding error of s + x, given t = fl(s + x) (Neumaier's branch on magnitudes). */
export function additionError(s: number, x: number, t: number): number {
  return Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
}

/** A scalar compensated sum. */
export class CompensatedSum {
  private s = 0;
  private c = 0;

  add(x: number): void {
    const t = this.s + x;
    this.c += additionError(this.s, x, t);
    this.s = t;
  }

  /** Add another compensated sum (exact merge of the two pairs up to the final rounding). */
  addSum(other: CompensatedSum): void {
    this.add(other.s);
    this.c += other.c;
  }

  get value(): number {
    return this.s + this.c;
  }

  /** The pair [s, c] (for `toState` serialization; `fromPair` restores it exactly). */
  toPair(): [number, number] {
    return [this.s, this.c];
  }

  /** A compensated sum with running sum s and error c (as returned by `toPair`). */
  static fromPair(pair: readonly [number, number]): CompensatedSum {
    const out = new CompensatedSum();
    out.s = pair[0];
    out.c = pair[1];
    return out;
  }

  clone(): CompensatedSum {
    const out = new CompensatedSum();
    out.s = this.s;
    out.c = this.c;
    return out;
  }
}

/**
 * sum[j] += x with the rounding error added to error[j], by Kahan's Fast2Sum error term (s − t) + x, t = fl(s + x):
 * exact whenever |s| ≥ |x| in exponent (for non-negative x: once a running sum exceeds its largest element) and
 * otherwise still within Kahan's bound 2ε|Σ| + O(Nε²)Σ|x|; ~10 % faster than Neumaier's branch
 * (`additionError`) in the per-element classwise bins. The value of the pair is sum[j] + error[j].
 */
export function addFast2Sum(sum: Float64Array, error: Float64Array, j: number, x: number): void {
  const s = sum[j]!;
  const t = s + x;
  error[j] = error[j]! + (s - t + x);
  sum[j] = t;
}

/** Element-wise merge of compensated-sum arrays: (s, c) += (s2, c2). */
export function mergeCompensated(s: Float64Array, c: Float64Array, s2: Float64Array, c2: Float64Array): void {
  for (let j = 0; j < s.length; j++) {
    const a = s[j]!;
    const x = s2[j]!;
    const t = a + x;
    c[j] = c[j]! + additionError(a, x, t) + c2[j]!;
    s[j] = t;
  }
}

/** Values s + c of compensated-sum arrays. */
export function compensatedValues(s: Float64Array, c: Float64Array): Float64Array {
  const out = new Float64Array(s.length);
  for (let j = 0; j < s.length; j++) out[j] = s[j]! + c[j]!;
  return out;
}
