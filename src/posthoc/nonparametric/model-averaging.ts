/**
 * Bayesian model averaging with the elbow cut used by BBQ (Naeini, Cooper & Hauskrecht 2015) and ENIR
 * (Naeini & Cooper 2016), as netcal implements it (AbstractCalibration._calc_model_scores and _elbow,
 * EFS-OpenSource/calibration-framework): each candidate binary model m with d_m degrees of freedom and
 * log-likelihood LL_m = Σ_i t_i ln q_mi + (1 − t_i) ln(1 − q_mi) on the fitting data (each log clamped at −100,
 * as PyTorch's binary cross-entropy; netcal sums in float32, we in float64) gets the score
 *   BIC_m = −2 LL_m + d_m ln n   or   AIC_m = 2 d_m − 2 LL_m,
 * and the relative likelihood w_m = exp((min_m' S_m' − S_m) / 2). Sorted by w (descending), models are kept
 * while the drop to the next one, divided by the population variance of all w, exceeds α = 0.001 (a first run
 * of equal w is always kept); the kept weights are normalised to sum 1.
 */

export const SCORE_FUNCTIONS = ['bic', 'aic'] as const;
export type ScoreFunction = (typeof SCORE_FUNCTIONS)[number];

/** netcal's elbow threshold. */
export const ELBOW_ALPHA = 0.001;

/** Σ_i t ln q + (1 − t) ln(1 − q), each log clamped at −100. */
export function binaryLogLikelihood(q: Float64Array, t: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < q.length; i++) {
    const p = q[i]!;
    sum += t[i]! * Math.max(Math.log(p), -100) + (1 - t[i]!) * Math.max(Math.log(1 - p), -100);
  }
  return sum;
}

/** Relative likelihoods w_m = exp((min S − S_m) / 2) of the models' BIC or AIC. */
export function modelScores(logLikelihoods: readonly number[], degrees: readonly number[], n: number, score: ScoreFunction): Float64Array {
  const s = logLikelihoods.map((ll, m) => (score === 'aic' ? 2 * degrees[m]! - 2 * ll : -2 * ll + degrees[m]! * Math.log(n)));
  const best = Math.min(...s);
  return Float64Array.from(s, (x) => Math.exp((best - x) / 2));
}

/** The elbow cut: indices of the kept models (best first) and their normalised weights. */
export function elbow(scores: Float64Array, alpha = ELBOW_ALPHA): { kept: number[]; weights: Float64Array } {
  const m = scores.length;
  let mean = 0;
  for (const w of scores) mean += w / m;
  let variance = 0;
  for (const w of scores) variance += (w - mean) ** 2 / m;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || b - a);
  let k = 0;
  while (k < m - 1 && scores[order[k]!] === scores[order[k + 1]!]) k++;
  while (k < m - 1 && (scores[order[k]!]! - scores[order[k + 1]!]!) / variance > alpha) k++;
  k++;
  const kept = order.slice(0, k);
  let total = 0;
  for (const i of kept) total += scores[i]!;
  return { kept, weights: Float64Array.from(kept, (i) => scores[i]! / total) };
}
