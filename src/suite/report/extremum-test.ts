/**
 * The seed-noise test of an argmin / argmax claim ("the lowest ECE is at λ = 0.1"), used where the seed-mean minimum
 * (maximum) is not at the paper's value: is the paper's value still consistent with the minimum, or is it not the
 * minimum?
 *
 * With d_s = metric(paper's value, s) − metric(observed argmin, s) over the seeds both values share (argmax: the
 * signs are mirrored, so w_s = −d_s), w_s > 0 means the paper's value is worse on seed s. With δ the claim's margin
 * (0 when it gives none) and [lo, hi] the 95 % paired-t interval of the worse-side difference w:
 *
 *   lo > δ           → 'not the minimum'   (the paper's value is worse than the observed minimum beyond noise/margin)
 *   hi < δ, δ > 0    → 'within the margin' (the paper's value is at most δ worse: the claim counts as met)
 *   otherwise        → 'consistent'        (the interval reaches 0 / δ: seed noise cannot tell them apart)
 *
 * p is the two-sided paired-t p of H0: mean(w) = δ (below 5 % exactly when the interval excludes δ), Holm-adjusted
 * with the paper's other paired-t claims; the MDE is that of the paired differences (statistics.ts). When the claim
 * names several values, the paper's value tested is the one of them with the best seed mean. The observed minimum is
 * chosen from the same runs, so w is biased upward when every value is equal in truth: the test leans towards 'not
 * the minimum', never towards the paper.
 */
import { minimumDetectableEffect, tInterval, tTestP } from './statistics.js';

export type ExtremumDecision = 'not the minimum' | 'within the margin' | 'consistent';

export interface ExtremumTest {
  readonly decision: ExtremumDecision;
  /** Mean of d = paper's value − observed extreme (in the metric's units, not mirrored), and its 95 % interval. */
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
  /** Seeds paired. */
  readonly n: number;
  readonly mde: number;
  readonly p: number;
  /** δ (0 without a margin). */
  readonly margin: number;
}

/**
 * Decide from the paired differences d_s = metric(paper's value) − metric(observed extreme) (two or more), for an
 * argmin (`lowest`) or argmax claim with margin δ ≥ 0.
 */
export function extremumTest(d: readonly number[], lowest: boolean, margin = 0): ExtremumTest {
  const sign = lowest ? 1 : -1;
  const t = tInterval(d);
  const worseLower = lowest ? t.lower : -t.upper;
  const worseUpper = lowest ? t.upper : -t.lower;
  const decision: ExtremumDecision = worseLower > margin ? 'not the minimum' : margin > 0 && worseUpper < margin ? 'within the margin' : 'consistent';
  return { decision, difference: t.mean, lower: t.lower, upper: t.upper, n: d.length, mde: minimumDetectableEffect(d), p: tTestP(d.map((x) => sign * x - margin)), margin };
}
