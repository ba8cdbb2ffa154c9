import type { FloatArray } from '../../util/matrix.js';
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
 * float32 numbers instead (2 passes moving one word: the same order, so the same result, in about half the time),
 * sorted inside the memory of the result (`sortFloat32`).
 */
export function sortTopLabel(confidence: FloatArray, correct: Uint8Array, float32 = confidence instanceof Float32Array): SortedTopLabel {
  const sorted32 = float32 ? sortFloat32(confidence, correct) : null;
  if (sorted32 !== null) return { ...sorted32, float32 };
  const { hi, lo } = orderedKeyWords(confidence);
  return { ...radixSort([hi, lo], correct, confidence.length, 4, (w) => keysFromWords(w[0]!, w[1]!)), float32 };
}

/**
 * The float32 path of `sortTopLabel` (null when a confidence is not a float32 value): the 8N bytes of the result
 * Float64Array first hold the two arrays of 32-bit keys that the two 16-bit passes move between, and the sorted
 * keys are then decoded in place from the last sample down (sample i's float64 covers keys 2i and 2i + 1, which
 * are already decoded). Fresh memory: the result and two flag arrays, 10 bytes per sample instead of 18 — on the
 * project's VM the first touch of fresh memory is the sort's largest cost (scratch-pool.ts).
 */
function sortFloat32(confidence: FloatArray, correct: Uint8Array): { confidence: Float64Array; correct: Uint8Array } | null {
  const n = confidence.length;
  const out = new Float64Array(n);
  let keys = new Uint32Array(out.buffer, 0, n);
  let spare = new Uint32Array(out.buffer, 4 * n, n);
  if (!float32KeysInto(confidence, keys)) return null;
  let flag: Uint8Array = correct; // read, never written: the first pass that runs moves the flags into `flags`
  const flags = [new Uint8Array(n), new Uint8Array(n)] as const;
  let next = 0;
  const counts = new Uint32Array(65536);
  for (let shift = 0; shift <= 16 && n > 1; shift += 16) {
    if (!digitOffsets(counts, keys, shift, n)) continue; // constant digit
    const flagOut = flags[next]!;
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      const at = counts[(k >>> shift) & 0xffff]!++;
      spare[at] = k;
      flagOut[at] = flag[i]!;
    }
    [keys, spare] = [spare, keys];
    flag = flagOut;
    next = 1 - next;
  }
  if (flag === correct) flag = correct.slice(0, n);
  if (keys.byteOffset !== 0) {
    spare.set(keys); // the sorted keys to the first half
    keys = spare;
  }
  const value = new Float32Array(1);
  const bits = new Uint32Array(value.buffer);
  for (let i = n - 1; i >= 0; i--) {
    const k = keys[i]!;
    bits[0] = k & 0x80000000 ? k & 0x7fffffff : ~k >>> 0;
    out[i] = value[0]!;
  }
  return { confidence: out, correct: flag };
}

/**
 * Stable LSD radix sort of N samples by one or two key words (`words[0]` most significant), 16-bit digits,
 * least significant first over `passes` digits; the correctness flags move with the keys; constant digits are
 * skipped.
 */
function radixSort(words: Uint32Array[], correct: Uint8Array, n: number, passes: number, values: (sortedWords: Uint32Array[]) => Float64Array): { confidence: Float64Array; correct: Uint8Array } {
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

/**
 * The order-preserving 32-bit images of float32 confidences (as `orderedKeyWords`) written into `keys`; false if
 * one is not a float32 value (or NaN).
 */
function float32KeysInto(confidence: FloatArray, keys: Uint32Array): boolean {
  const n = confidence.length;
  const value = new Float32Array(1);
  const bits = new Uint32Array(value.buffer);
  for (let i = 0; i < n; i++) {
    const c = confidence[i]!;
    value[0] = c;
    if (value[0] !== c) return false;
    const b = bits[0]!;
    keys[i] = b & 0x80000000 ? ~b >>> 0 : (b | 0x80000000) >>> 0;
  }
  return true;
}
