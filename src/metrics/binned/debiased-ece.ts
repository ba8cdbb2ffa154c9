import { midpointEqualMassEdges, requireBins } from './binning.js';
import { type BinSums, emptyBinSums } from './bin-statistics.js';
import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Debiased ℓ2 calibration error (Kumar, Liang & Ma 2019, "Verified uncertainty calibration"), as the
 * reference library `uncertainty-calibration` computes it with
 * `get_calibration_error(probs, labels, p=2, debias=True, mode='top-label')` on continuous outputs
 * (= `lower_bound_scaling_ce` with `get_equal_bins`, 15 bins by default):
 *   bins from `midpointEqualMassEdges` (edges halfway between equal-count groups, (l, u] membership);
 *   squared error = Σ_{b: n_b ≥ 2} (n_b/N) [ (mean c_b − mean a_b)² − ā_b(1 − ā_b)/(n_b − 1) ]
 *   (bins with fewer than 2 samples contribute 0); result = √max(squared error, 0).
 * The library's `is_discrete` switch to one bin per distinct value (for outputs of binning calibrators) is
 * not reproduced. Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function debiasedCalibrationError(confidence: FloatArray, correct: Uint8Array, options: { bins?: number } = {}): number {
  const bins = requireBins(options.bins ?? 15);
  requireTopLabel(confidence, correct);
  return debiasedFromSorted(sortTopLabel(confidence, correct), bins);
}

/** Debiased ℓ2 error over sorted top-label samples with Kumar's equal-mass bins. */
export function debiasedFromSorted(sorted: SortedTopLabel, bins: number): number {
  const sums = midpointBinSums(sorted.confidence, sorted.correct, bins);
  return Math.sqrt(Math.max(debiasedSquaredError(sums, sorted.confidence.length), 0));
}

/**
 * Kumar et al.'s `unbiased_square_ce` on bin sums, without the final clamp (may be negative):
 * Σ_{b: n_b ≥ 2} (n_b/N) [ (Σc/n_b − Σa/n_b)² − ā(1 − ā)/(n_b − 1) ], ā = Σa/n_b, a ∈ {0, 1}.
 */
export function debiasedSquaredError(sums: BinSums, total: number): number {
  let acc = 0;
  const { counts, sumConfidence, sumCorrect } = sums;
  for (let m = 0; m < counts.length; m++) {
    const n = counts[m]!;
    if (n < 2) continue;
    const meanA = sumCorrect[m]! / n;
    const diff = sumConfidence[m]! / n - meanA;
    acc += (n / total) * (diff * diff - (meanA * (1 - meanA)) / (n - 1));
  }
  return acc;
}

/**
 * Sums over Kumar's midpoint equal-mass bins of sorted values (shape [N], ascending) with outcomes y ∈ {0, 1}
 * (shape [N], same order). Output has one entry per (deduplicated) edge.
 */
export function midpointBinSums(sortedValues: FloatArray, outcomes: Uint8Array, bins: number): BinSums {
  const edges = midpointEqualMassEdges(sortedValues, bins);
  const k = edges.length;
  const sums = emptyBinSums(k);
  let b = 0;
  for (let i = 0; i < sortedValues.length; i++) {
    const c = sortedValues[i]!;
    while (b < k - 1 && edges[b]! < c) b++; // first edge ≥ c (np.searchsorted left), last bin takes c > 1
    sums.counts[b]!++;
    sums.sumConfidence[b]! += c;
    sums.sumCorrect[b]! += outcomes[i]!;
  }
  return sums;
}
