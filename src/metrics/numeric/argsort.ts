import type { FloatArray } from '../../util/matrix.js';
import { digitOffsets, orderedKeyWords } from './radix-keys.js';

/**
 * Stable ascending argsort of finite float keys (shape [N] → permutation of 0..N−1 as Uint32Array): ties keep
 * their input order, like `np.argsort(x, kind='stable')`. LSD radix sort on the order-preserving 64-bit image of
 * each float64 (sign bit flipped for non-negatives, all bits flipped for negatives), 16 bits per pass; passes
 * whose digit is constant over all keys are skipped, so confidences in [0, 1] usually need 3 passes. O(N).
 * −0 and +0 are distinct keys here (−0 sorts first); NaN must not occur (callers validate).
 */
export function argsortStable(keys: FloatArray): Uint32Array {
  const n = keys.length;
  const { hi, lo } = orderedKeyWords(keys);
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (n < 2) return order;
  let next = new Uint32Array(n);
  const counts = new Uint32Array(65536);
  const digits: ReadonlyArray<readonly [Uint32Array, number]> = [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ];
  for (const [word, shift] of digits) {
    if (!digitOffsets(counts, word, shift, n)) continue; // constant digit: pass changes nothing
    for (let i = 0; i < n; i++) {
      const idx = order[i]!;
      const d = (word[idx]! >>> shift) & 0xffff;
      next[counts[d]!++] = idx;
    }
    const t = order;
    order = next;
    next = t;
  }
  return order;
}
