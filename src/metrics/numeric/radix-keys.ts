import type { FloatArray } from '../../util/matrix.js';

/**
 * The order-preserving 64-bit image of finite float keys, as high and low 32-bit words: for a double with bits
 * (h, l), non-negatives map to (h | 2³¹, l) and negatives to (~h, ~l), so unsigned (hi, lo) order = numeric order
 * (−0 before +0). Shared by the LSD radix sorts `argsortStable` and `sortTopLabel`; `keysFromWords` inverts it.
 */
export function orderedKeyWords(keys: FloatArray): { hi: Uint32Array; lo: Uint32Array } {
  const n = keys.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const scratch = new Float64Array(1);
  const words = new Uint32Array(scratch.buffer);
  for (let i = 0; i < n; i++) {
    scratch[0] = keys[i]!;
    const h = words[1]!;
    const l = words[0]!;
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
  }
  return { hi, lo };
}

/** The float64 values of ordered key words (the inverse of `orderedKeyWords`), shape [N]. */
export function keysFromWords(hi: Uint32Array, lo: Uint32Array): Float64Array {
  const n = hi.length;
  const out = new Float64Array(n);
  const scratch = new Float64Array(1);
  const words = new Uint32Array(scratch.buffer);
  for (let i = 0; i < n; i++) {
    const h = hi[i]!;
    if (h & 0x80000000) {
      words[1] = h & 0x7fffffff;
      words[0] = lo[i]!;
    } else {
      words[1] = ~h >>> 0;
      words[0] = ~lo[i]! >>> 0;
    }
    out[i] = scratch[0]!;
  }
  return out;
}

/**
 * Counting-sort offsets of one radix pass: `counts[d]` becomes the first output slot of digit d
 * ((word[i] >>> shift) & 0xffff over the first `n` entries). Returns false when every key has the same digit
 * (the pass would change nothing and can be skipped).
 */
export function digitOffsets(counts: Uint32Array, word: Uint32Array, shift: number, n: number): boolean {
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[(word[i]! >>> shift) & 0xffff]!++;
  if (counts[(word[0]! >>> shift) & 0xffff] === n) return false;
  let total = 0;
  for (let d = 0; d < 65536; d++) {
    const c = counts[d]!;
    counts[d] = total;
    total += c;
  }
  return true;
}
