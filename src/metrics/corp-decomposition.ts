import { sortTopLabel, type SortedTopLabel } from './numeric/sorted-top-label.js';
import { requireTopLabel } from './validation.js';
import { pav } from '../util/pav.js';
import { invalidArgument } from '../util/errors.js';
import type { FloatArray } from '../util/matrix.js';
import { defineMetric } from './record/metric-definition.js';
import { ScratchPool } from './numeric/scratch-pool.js';
import type { MetricContext } from './record/metric-context.js';

/**
 * CORP decomposition of the Brier score (Dimitriadis, Gneiting & Jordan 2021, "Stable reliability diagrams for
 * probabilistic classifiers", PNAS 118; R package `reliabilitydiag`): recalibrate the forecasts p_i of binary
 * outcomes y_i by isotonic regression (pool-adjacent-violators on the forecasts' distinct values, weighted by
 * their counts; the same `pav` as the isotonic calibrator), p̂_i; with S̄ the mean Brier score,
 *   MCB = S̄(p) − S̄(p̂)   (miscalibration, ≥ 0),
 *   DSC = S̄(ȳ) − S̄(p̂)   (discrimination, ≥ 0),
 *   UNC = S̄(ȳ) = ȳ(1 − ȳ) (uncertainty),      S̄(p) = MCB − DSC + UNC exactly.
 * Top-label use: p = c_i, y = a_i. Not streaming: PAV needs all samples in order (it reuses the sorted samples
 * the top-label state keeps). O(N) after the sort.
 */
export interface CorpDecomposition {
  /** Mean Brier score S̄(p) of the forecasts. */
  readonly score: number;
  readonly mcb: number;
  readonly dsc: number;
  readonly unc: number;
}

export function corpFromSorted(sorted: SortedTopLabel, pool: ScratchPool = ScratchPool.none): CorpDecomposition {
  const { confidence: p, correct: y } = sorted;
  const n = p.length;
  const means = pool.float64(n);
  const counts = pool.float64(n);
  const g = distinctForecasts(p, y, means, counts);
  const fitted = pav(means.subarray(0, g.groups), counts.subarray(0, g.groups)); // in place
  const recalibrated = groupedBrier(fitted, p, y) / n;
  pool.give(means);
  pool.give(counts);
  const ybar = g.positives / n;
  const unc = ybar * (1 - ybar);
  const score = g.score / n;
  return { score, mcb: score - recalibrated, dsc: unc - recalibrated, unc };
}

/**
 * One pass over the sorted forecasts p [N]: per distinct value its outcome mean and count (written to `means` and
 * `counts`, shapes ≥ [groups]); returns the number of groups, Σ y and Σ (p − y)². Each phase of the
 * decomposition is its own function so that V8 optimises each long loop with complete type feedback.
 */
function distinctForecasts(p: Float64Array, y: Uint8Array, means: Float64Array, counts: Float64Array): { groups: number; positives: number; score: number } {
  const n = p.length;
  let groups = 0;
  let i = 0;
  let positives = 0;
  let score = 0;
  while (i < n) {
    let j = i;
    let s = 0;
    while (j < n && p[j] === p[i]) {
      s += y[j]!;
      const d = p[j]! - y[j]!;
      score += d * d;
      j++;
    }
    positives += s;
    means[groups] = s / (j - i);
    counts[groups] = j - i;
    groups++;
    i = j;
  }
  return { groups, positives, score };
}

/** Σ_k (q_g(k) − y_k)² with q_g the fitted value of the group of equal forecasts that sample k belongs to. */
function groupedBrier(fitted: Float64Array, p: Float64Array, y: Uint8Array): number {
  let total = 0;
  let g = 0;
  for (let k = 0; k < p.length; k++) {
    if (k > 0 && p[k] !== p[k - 1]) g++;
    const d = fitted[g]! - y[k]!;
    total += d * d;
  }
  return total;
}

/** CORP decomposition of forecasts p [N] in [0, 1] for outcomes y [N] ∈ {0, 1}. */
export function corpDecomposition(p: FloatArray, y: Uint8Array): CorpDecomposition {
  requireTopLabel(p, y, 'p');
  if (p.length === 0) invalidArgument('p', 'at least one forecast', '0 forecasts');
  return corpFromSorted(sortTopLabel(p, y));
}

function topLabelCorp(context: MetricContext): CorpDecomposition {
  return context.shared('corp', () => corpFromSorted(context.sorted(), context.scratch));
}

export const corpMcb = defineMetric({
  key: 'corp_mcb',
  label: 'CORP miscalibration MCB',
  percent: false,
  better: 'lower',
  scope: 'top-label',
  description: 'Brier miscalibration of the confidences after isotonic (PAV) recalibration (Dimitriadis et al. 2021)',
  compute: (context) => topLabelCorp(context).mcb,
});

export const corpDsc = defineMetric({
  key: 'corp_dsc',
  label: 'CORP discrimination DSC',
  percent: false,
  better: 'higher',
  scope: 'top-label',
  description: 'Brier discrimination of the recalibrated confidences (Dimitriadis et al. 2021)',
  compute: (context) => topLabelCorp(context).dsc,
});

export const corpUnc = defineMetric({
  key: 'corp_unc',
  label: 'CORP uncertainty UNC',
  percent: false,
  better: 'none',
  scope: 'top-label',
  description: 'Brier uncertainty acc·(1 − acc); confidence Brier = MCB − DSC + UNC',
  compute: (context) => topLabelCorp(context).unc,
});
