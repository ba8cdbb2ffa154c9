import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';

/**
 * MMCE as a metric (Kumar, Sarawagi & Jain 2018, "Trainable calibration measures for neural networks from
 * kernel mean embeddings", eq. 2): with r_i = a_i − c_i and the Laplacian kernel k(c, c') = exp(−|c − c'|/w),
 *   MMCE = √( Σ_{i,j} r_i r_j k(c_i, c_j) ) / N,   w = 0.4 (the paper's and the official code's width).
 * The unweighted form of the training loss in METHODS.md, evaluated exactly. The double sum is O(N) over the
 * samples sorted by c: with L_i = Σ_{j<i} r_j e^{−(c_i − c_j)/w} = e^{−(c_i − c_{i−1})/w}(L_{i−1} + r_{i−1}),
 * Σ_{i,j} = Σ_i r_i² + 2 Σ_i r_i L_i (every factor ≤ 1: no overflow). Needs the sorted samples.
 */
export const MMCE_WIDTH = 0.4;

export function mmceFromSorted(sorted: SortedTopLabel, width = MMCE_WIDTH): number {
  const { confidence, correct } = sorted;
  const n = confidence.length;
  let total = 0;
  let carry = 0;
  for (let i = 0; i < n; i++) {
    const ci = confidence[i]!;
    const ri = correct[i]! - ci;
    if (i > 0) {
      const prev = confidence[i - 1]!;
      carry = Math.exp(-(ci - prev) / width) * (carry + correct[i - 1]! - prev);
    }
    total += ri * ri + 2 * ri * carry;
  }
  return Math.sqrt(Math.max(0, total)) / n;
}

/** MMCE of confidences c [N] and correctness a [N] (kernel width w, default 0.4). */
export function mmce(confidence: FloatArray, correct: Uint8Array, width = MMCE_WIDTH): number {
  requireTopLabel(confidence, correct);
  if (confidence.length === 0) invalidArgument('confidence', 'at least one sample', '0 samples');
  requireNumber('width', width, { min: 0, exclusiveMin: true });
  return mmceFromSorted(sortTopLabel(confidence, correct), width);
}

export const mmceMetric = defineMetric({
  key: 'mmce',
  label: 'MMCE (%)',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'maximum mean calibration error, Laplacian kernel of width 0.4 (Kumar et al. 2018)',
  compute: (context) => mmceFromSorted(context.sorted()),
});
