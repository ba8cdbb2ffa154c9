import type { FloatArray } from '../util/matrix.js';
import { digitOffsets, keysFromWords, orderedKeyWords } from './radix-keys.js';

/**
 * Top-label samples in ascending order of confidence (ties in input order), the shared input of the metrics
 * that need sorting (equal-mass ECEs, KS, debiased and sweep ECE, error-detection AUROC).
 * Shapes: confidence [N] (float64), correct [N] (0/1). `float32` records that the confidences came from float32
 * inputs (the 'interp' binning then compares at float32 precision like the papers' PyTorch code).
 */
export interface SortedTopLabel {
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  readonly float32: boolean;
}

/**
 * Sort (confidence, correct) pairs by confidence, stably: LSD radix sort over the order-preserving 64-bit image
 * of the (finite) confidences, 16 bits per pass, moving the key words and the correctness flag together so
 * that every pass reads sequentially; passes whose digit is constant are skipped (3 passes for float32
 * confidences). O(N) time, 9 words of scratch per sample. The sorted confidences are rebuilt from the keys.
 * When `float32` and every confidence is a float32 value, the keys are the 32-bit order-preserving image of the
 * float32 numbers instead (2 passes moving one word: the same order, so the same result, in about half the time).
 */
export function sortTopLabel(confidence: FloatArray, correct: Uint8Array, float32 = confidence instanceof Float32Array): SortedTopLabel {
  const keys32 = float32 ? float32KeyWords(confidence) : null;
  if (keys32 !== null) return { ...radixSort([keys32], correct, confidence.length, 2, (w) => float32FromKeyWords(w[0]!)), float32 };
  const { hi, lo } = orderedKeyWords(confidence);
  return { ...radixSort([hi, lo], correct, confidence.length, 4, (w) => keysFromWords(w[0]!, w[1]!)), float32 };
}

/**
 * Stable LSD radix sort of N samples by one or two key words (`words[0]` most significant), 16-bit digits,
 * least significant first over `passes` digits; the correctness flags move with the keys; constant digits are
 * skipped.
 */
function radixSort(
  words: Uint32Array[],
  correct: Uint8Array,
  n: number,
  passes: number,
  values: (sortedWords: Uint32Array[]) => Float64Array,
): { confidence: Float64Array; correct: Uint8Array } {
  let keys: Uint32Array[] = words;
  let scratch: Uint32Array[] = words.map(() => new Uint32Array(n));
  let flag = Uint8Array.from(correct.subarray(0, n));
  let flag2 = new Uint8Array(n);
  const counts = new Uint32Array(65536);
  const last = words.length - 1;
  for (let pass = 0; pass < passes && n > 1; pass++) {
    const word = keys[last - (pass >> 1)]!;
    const shift = pass % 2 === 0 ? 0 : 16;
    if (!digitOffsets(counts, word, shift, n)) continue; // constant digit
    const [k0, k1] = keys as [Uint32Array, Uint32Array | undefined];
    const [s0, s1] = scratch as [Uint32Array, Uint32Array | undefined];
    if (k1 === undefined || s1 === undefined) {
      for (let i = 0; i < n; i++) {
        const at = counts[(word[i]! >>> shift) & 0xffff]!++;
        s0[at] = k0[i]!;
        flag2[at] = flag[i]!;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const at = counts[(word[i]! >>> shift) & 0xffff]!++;
        s0[at] = k0[i]!;
        s1[at] = k1[i]!;
        flag2[at] = flag[i]!;
      }
    }
    [keys, scratch] = [scratch, keys];
    [flag, flag2] = [flag2, flag];
  }
  return { confidence: values(keys), correct: flag };
}

/** The order-preserving 32-bit images of float32 confidences (as `orderedKeyWords`), or null if one is not a float32 value. */
function float32KeyWords(confidence: FloatArray): Uint32Array | null {
  const n = confidence.length;
  const keys = new Uint32Array(n);
  const value = new Float32Array(1);
  const bits = new Uint32Array(value.buffer);
  for (let i = 0; i < n; i++) {
    const c = confidence[i]!;
    value[0] = c;
    if (value[0] !== c) return null; // not a float32 value (or NaN)
    const b = bits[0]!;
    keys[i] = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
  }
  return keys;
}

/** The float32 values (as float64) of 32-bit ordered key words (the inverse of `float32KeyWords`). */
function float32FromKeyWords(keys: Uint32Array): Float64Array {
  const out = new Float64Array(keys.length);
  const value = new Float32Array(1);
  const bits = new Uint32Array(value.buffer);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    bits[0] = k & 0x80000000 ? k & 0x7fffffff : ~k >>> 0;
    out[i] = value[0]!;
  }
  return out;
}
