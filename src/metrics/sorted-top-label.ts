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
 */
export function sortTopLabel(confidence: FloatArray, correct: Uint8Array, float32 = confidence instanceof Float32Array): SortedTopLabel {
  const n = confidence.length;
  let { hi, lo } = orderedKeyWords(confidence);
  let flag = Uint8Array.from(correct.subarray(0, n));
  let hi2: Uint32Array = new Uint32Array(n);
  let lo2: Uint32Array = new Uint32Array(n);
  let flag2 = new Uint8Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4 && n > 1; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    if (!digitOffsets(counts, word, shift, n)) continue; // constant digit
    for (let i = 0; i < n; i++) {
      const d = (word[i]! >>> shift) & 0xffff;
      const at = counts[d]!++;
      hi2[at] = hi[i]!;
      lo2[at] = lo[i]!;
      flag2[at] = flag[i]!;
    }
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
    [flag, flag2] = [flag2, flag];
  }
  return { confidence: keysFromWords(hi, lo), correct: flag, float32 };
}
