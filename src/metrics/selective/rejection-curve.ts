/**
 * Accuracy–rejection summaries of LLM uncertainty: AUARC and PRR.
 *
 * Questions are rejected in order of increasing confidence (most uncertain first). With the N questions sorted by
 * confidence, most confident first, and k of them kept (k = N, N − 1, …, 1; rejection rate (N − k)/N), the
 * accuracy of the kept ones is acc(k) = (1/k) Σ_{j ≤ k} correct_j. Tied confidences are ordered at random; the
 * curve is its expectation over that order (within a tie group of size g holding s correct answers, each kept
 * member counts s/g), so the summaries do not depend on the input order.
 *
 * - AUARC, area under the accuracy–rejection curve (Nadeem, Zucker & Hanczar 2009; the LLM form of Lin, Trivedi
 *   & Sun 2023, "Generating with Confidence"): the mean of acc(k) over the N rejection rates 0, 1/N, …, (N − 1)/N,
 *   AUARC = (1/N) Σ_{k=1}^{N} acc(k). It is LM-Polygraph's unnormalised prediction–rejection area
 *   (ue_metrics/pred_rej_area.py, max_rejection = 1) with the 0/1 correctness as the quality.
 * - PRR, prediction–rejection ratio (Malinin et al.; the normalisation of LM-Polygraph, Fadeeva et al. 2023):
 *   PRR = (AUARC − AUARC_random) / (AUARC_oracle − AUARC_random), where the random order keeps the accuracy flat
 *   (AUARC_random = the overall accuracy) and the oracle rejects every wrong answer first. 1 = the confidence
 *   orders as well as the oracle, 0 = no better than chance, < 0 = worse. Undefined (NaN) when all answers are
 *   correct or all wrong (the oracle is the random order).
 */
import { invalidArgument } from '../../util/errors.js';
import { defineMetric } from '../record/metric-definition.js';
import type { MetricContext } from '../record/metric-context.js';
import { WEIGHTS_REFUSED_RANK } from '../weighted/weighted-context.js';

/** acc(k) for k = 1..N (index k − 1), most confident first, ties averaged. */
export function accuracyRejectionCurve(confidence: ArrayLike<number>, correct: ArrayLike<number>): Float64Array {
  const n = confidence.length;
  if (correct.length !== n) invalidArgument('correct', `${n} values, one per confidence`, `${correct.length}`);
  if (n === 0) invalidArgument('confidence', 'at least one value', '0 values');
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => confidence[b]! - confidence[a]!);
  const curve = new Float64Array(n);
  let cumulative = 0;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && confidence[order[end]!] === confidence[order[start]!]) end++;
    let correctInGroup = 0;
    for (let j = start; j < end; j++) correctInGroup += correct[order[j]!]!;
    const share = correctInGroup / (end - start);
    for (let j = start; j < end; j++) {
      cumulative += share;
      curve[j] = cumulative / (j + 1);
    }
    start = end;
  }
  return curve;
}

function mean(values: Float64Array): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

/** AUARC = (1/N) Σ_k acc(k) (see the file comment). */
export function auarc(confidence: ArrayLike<number>, correct: ArrayLike<number>): number {
  return mean(accuracyRejectionCurve(confidence, correct));
}

/** PRR = (AUARC − accuracy) / (AUARC_oracle − accuracy); NaN when every answer is correct or every one wrong. */
export function predictionRejectionRatio(confidence: ArrayLike<number>, correct: ArrayLike<number>): number {
  const n = confidence.length;
  const area = auarc(confidence, correct);
  let right = 0;
  for (let i = 0; i < n; i++) right += correct[i]!;
  if (right === 0 || right === n) return NaN;
  const accuracy = right / n;
  const oracle = auarc(
    Float64Array.from({ length: n }, (_, i) => correct[i]!),
    correct,
  );
  return (area - accuracy) / (oracle - accuracy);
}

/** PRR and AUARC of the top label (confidence against correctness), computed once per `compute()`. */
function topLabelRejection(context: MetricContext): { readonly prr: number; readonly auarc: number } {
  return context.shared('rejection-curve', () => {
    const { confidence, correct } = context.top.views();
    return { prr: predictionRejectionRatio(confidence, correct), auarc: auarc(confidence, correct) };
  });
}

/** Record entry (opt-in, metrics/record/opt-in-metrics.ts) of `predictionRejectionRatio` of the top label. */
export const prrMetric = defineMetric({
  key: 'prr',
  label: 'PRR',
  percent: false,
  better: 'higher',
  scope: 'top-label',
  nullable: true,
  description: 'prediction–rejection ratio of the confidence: 1 = oracle rejection order, 0 = random (Malinin et al.; LM-Polygraph normalisation)',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  compute: (context) => topLabelRejection(context).prr,
});

/** Record entry (opt-in) of `auarc` of the top label. */
export const auarcMetric = defineMetric({
  key: 'auarc',
  label: 'AUARC (%)',
  percent: true,
  better: 'higher',
  scope: 'top-label',
  description: 'area under the accuracy–rejection curve, rejecting the least confident first (Nadeem et al. 2009)',
  weighted: { refused: WEIGHTS_REFUSED_RANK },
  compute: (context) => topLabelRejection(context).auarc,
});
