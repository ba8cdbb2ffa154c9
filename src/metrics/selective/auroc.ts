import { argsortStable } from '../numeric/argsort.js';
import { requireFiniteScores, requireTopLabel } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Area under the ROC curve of scores separating positives from negatives:
 * AUROC = P(s⁺ > s⁻) + ½ P(s⁺ = s⁻) = (R⁺ − n⁺(n⁺ + 1)/2) / (n⁺ n⁻), R⁺ the sum of the positives' mid-ranks
 * (Mann–Whitney U; equals sklearn's `roc_auc_score`). O(N) radix sort + one pass; exact in float64 for
 * N < 2^26. Shapes: positive [n⁺ ≥ 1], negative [n⁻ ≥ 1], finite.
 */
export function auroc(positive: FloatArray, negative: FloatArray): number {
  requireFiniteScores(positive, 'positive');
  requireFiniteScores(negative, 'negative');
  const n = positive.length + negative.length;
  const scores = new Float64Array(n);
  const isPositive = new Uint8Array(n);
  scores.set(positive, 0);
  scores.set(negative, positive.length);
  isPositive.fill(1, 0, positive.length);
  const order = argsortStable(scores);
  const sorted = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    sorted[i] = scores[order[i]!]!;
    label[i] = isPositive[order[i]!]!;
  }
  return aurocFromSorted(sorted, label);
}

/**
 * AUROC from scores sorted ascending (shape [N]) and positive flags in the same order (shape [N]).
 * NaN when there are no positives or no negatives.
 */
export function aurocFromSorted(sorted: Float64Array, positive: Uint8Array): number {
  const n = sorted.length;
  let nPos = 0;
  let rankSum = 0;
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && sorted[j] === sorted[i]) j++;
    const midRank = (i + 1 + j) / 2; // mean of the 1-based ranks i+1 .. j
    let pos = 0;
    for (let k = i; k < j; k++) pos += positive[k]!;
    nPos += pos;
    rankSum += pos * midRank;
    i = j;
  }
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return Number.NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/**
 * OOD detection AUROC (Thulasidasan et al. 2019 §4.3; Hendrycks & Gimpel 2017): how well a confidence score
 * (e.g. the max softmax probability) ranks in-distribution samples (positives) above out-of-distribution or
 * noise samples (negatives). Shapes: [n_in ≥ 1], [n_out ≥ 1].
 */
export function oodAuroc(inDistribution: FloatArray, outOfDistribution: FloatArray): number {
  return auroc(inDistribution, outOfDistribution);
}

/**
 * Error-detection AUROC: how well the confidence c_i ranks correct predictions (positives) above errors
 * (negatives). NaN when every prediction is correct or every one is wrong. Shapes: confidence [N], correct [N].
 */
export function errorDetectionAuroc(confidence: FloatArray, correct: Uint8Array): number {
  requireTopLabel(confidence, correct);
  const order = argsortStable(confidence);
  const n = confidence.length;
  const sorted = new Float64Array(n);
  const label = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    sorted[i] = confidence[order[i]!]!;
    label[i] = correct[order[i]!]!;
  }
  return aurocFromSorted(sorted, label);
}
