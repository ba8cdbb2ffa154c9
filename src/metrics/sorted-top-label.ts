import type { FloatArray } from '../util/matrix.js';

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
  let hi = new Uint32Array(n);
  let lo = new Uint32Array(n);
  let flag = new Uint8Array(n);
  const scratch = new Float64Array(1);
  const words = new Uint32Array(scratch.buffer);
  for (let i = 0; i < n; i++) {
    scratch[0] = confidence[i]!;
    const h = words[1]!;
    const l = words[0]!;
    // Order-preserving map of IEEE doubles to unsigned integers.
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
    flag[i] = correct[i]!;
  }
  let hi2 = new Uint32Array(n);
  let lo2 = new Uint32Array(n);
  let flag2 = new Uint8Array(n);
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4 && n > 1; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(word[i]! >>> shift) & 0xffff]!++;
    if (counts[(word[0]! >>> shift) & 0xffff] === n) continue; // constant digit
    let total = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = total;
      total += c;
    }
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
  const sorted = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const h = hi[i]!;
    if (h & 0x80000000) {
      words[1] = h & 0x7fffffff;
      words[0] = lo[i]!;
    } else {
      words[1] = ~h >>> 0;
      words[0] = ~lo[i]! >>> 0;
    }
    sorted[i] = scratch[0]!;
  }
  return { confidence: sorted, correct: flag, float32 };
}
