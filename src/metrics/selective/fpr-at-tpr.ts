import { argsortStable } from '../numeric/argsort.js';
import { requireFiniteScores, requireTopLabel } from '../validation.js';
import { sortTopLabel } from '../numeric/sorted-top-label.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';
import { defineMetric } from '../record/metric-definition.js';
import { WEIGHTS_REFUSED_RANK } from '../weighted/weighted-context.js';

/**
 * False-positive rate at a true-positive rate (FPR at 95 % TPR, "FPR95": Hendrycks & Gimpel 2017; Liang et al.
 * 2018): accept every score ≥ t; t is the largest score threshold whose TPR = #(positives ≥ t)/n⁺ reaches
 * `tpr`; FPR = #(negatives ≥ t)/n⁻ there. Thresholds run over the distinct scores (ties accepted together),
 * as in scikit-learn's `roc_curve` and TorchUncertainty's `FPRx`. Positives are the in-distribution (or
 * correctly classified) samples, scored so that higher means "more likely positive".
 */

/**
 * FPR at `tpr` from scores sorted ascending [N] with positive flags [N] in the same order; NaN when there
 * are no positives or no negatives. One pass from the top.
 */
export function fprAtTprFromSorted(sorted: Float64Array, positive: Uint8Array, tpr = 0.95): number {
  const n = sorted.length;
  let nPos = 0;
  for (let i = 0; i < n; i++) nPos += positive[i]!;
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return Number.NaN;
  let tp = 0;
  let fp = 0;
  let j = n - 1;
  while (j >= 0) {
    const v = sorted[j]!;
    while (j >= 0 && sorted[j] === v) {
      if (positive[j]) tp++;
      else fp++;
      j--;
    }
    if (tp >= tpr * nPos - 1e-9) return fp / nNeg;
  }
  return 1;
}

/** FPR at `tpr` of positive scores [n⁺ ≥ 1] against negative scores [n⁻ ≥ 1]. O(N) radix sort + one pass. */
export function fprAtTpr(positive: FloatArray, negative: FloatArray, tpr = 0.95): number {
  requireFiniteScores(positive, 'positive');
  requireFiniteScores(negative, 'negative');
  requireNumber('tpr', tpr, { min: 0, exclusiveMin: true, max: 1 });
  if (positive.length === 0) invalidArgument('positive', 'at least one score', '0 scores');
  if (negative.length === 0) invalidArgument('negative', 'at least one score', '0 scores');
  const n = positive.length + negative.length;
  const scores = new Float64Array(n);
  scores.set(positive, 0);
  scores.set(negative, positive.length);
  const order = argsortStable(scores);
  const sorted = new Float64Array(n);
  const flag = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    sorted[i] = scores[order[i]!]!;
    flag[i] = order[i]! < positive.length ? 1 : 0;
  }
  return fprAtTprFromSorted(sorted, flag, tpr);
}

/** FPR at `tpr` of confidences [N] separating correct predictions (positives) from errors; NaN if either is absent. */
export function errorFprAtTpr(confidence: FloatArray, correct: Uint8Array, tpr = 0.95): number {
  requireTopLabel(confidence, correct);
  requireNumber('tpr', tpr, { min: 0, exclusiveMin: true, max: 1 });
  const sorted = sortTopLabel(confidence, correct);
  return fprAtTprFromSorted(sorted.confidence, sorted.correct, tpr);
}

export const fpr95Metric = defineMetric({
  key: 'fpr95',
  label: 'FPR at 95% TPR (%)',
  percent: true,
  better: 'lower',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  scope: 'top-label',
  nullable: true,
  description: 'fraction of errors accepted when 95 % of the correct predictions are (confidence as the score)',
  compute: (context) => fprAtTprFromSorted(context.sorted().confidence, context.sorted().correct, 0.95),
});
