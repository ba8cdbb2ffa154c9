import { quantile } from '../bootstrap.js';
import { equalWidthEdges, requireBins, upperEdgeBin } from './binning.js';
import { requireSampleWeights } from '../weighted/sample-weights.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Reliability-diagram bins as data, like scikit-learn's `calibration_curve` (sklearn/calibration.py, 1.2):
 * edges equal-width (`uniform`: i/M) or at the empirical quantiles of the forecasts (`quantile`: numpy
 * `percentile` with linear interpolation at i/M), membership (l, u] (`np.searchsorted(edges[1:-1], p)`: the
 * first bin also takes values ≤ its lower edge, the last values above its upper edge); per non-empty bin the
 * mean forecast (`prob_pred`) and the fraction of outcomes 1 (`prob_true`), plus the edges and the count.
 * Top-label use: forecasts c_i, outcomes a_i. Shapes: f [N] in [0, 1], y [N] ∈ {0, 1}. With `weights` w [N]
 * (sample-weights.ts; 'uniform' only) the count is the bin's Σ w and the means are weighted: Σ w f / Σ w, Σ w y / Σ w;
 * bins of zero weight are left out.
 */
export type CurveStrategy = 'uniform' | 'quantile';

export interface CalibrationCurve {
  readonly strategy: CurveStrategy;
  /** Edges [lower, upper] of each non-empty bin. */
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly count: Float64Array;
  /** Mean forecast per non-empty bin (sklearn `prob_pred`). */
  readonly meanPredicted: Float64Array;
  /** Fraction of outcomes 1 per non-empty bin (sklearn `prob_true`). */
  readonly fractionPositive: Float64Array;
}

export function calibrationCurve(f: FloatArray, y: Uint8Array, options: { bins?: number; strategy?: CurveStrategy; weights?: ArrayLike<number> } = {}): CalibrationCurve {
  requireTopLabel(f, y, 'f');
  const bins = requireBins(options.bins ?? 10);
  const strategy = options.strategy ?? 'uniform';
  if (strategy !== 'uniform' && strategy !== 'quantile') invalidArgument('strategy', "'uniform' or 'quantile'", String(strategy));
  const weights = options.weights === undefined ? null : requireSampleWeights(options.weights, f.length, 'weights');
  if (weights !== null && strategy !== 'uniform') invalidArgument('strategy', "'uniform' with sample weights (quantile edges are unweighted)", `'${strategy}'`);
  let edges: Float64Array;
  if (strategy === 'uniform') edges = equalWidthEdges(bins);
  else {
    const sorted = Float64Array.from(f).sort();
    edges = new Float64Array(bins + 1);
    for (let i = 0; i <= bins; i++) edges[i] = quantile(sorted, i / bins);
  }
  const upperEdges = edges.subarray(1);
  const count = new Float64Array(bins);
  const sumF = new Float64Array(bins);
  const sumY = new Float64Array(bins);
  for (let i = 0; i < f.length; i++) {
    const b = upperEdgeBin(f[i]!, upperEdges);
    const w = weights === null ? 1 : weights[i]!;
    count[b]! += w;
    sumF[b]! += w * f[i]!;
    sumY[b]! += w * y[i]!;
  }
  const keep: number[] = [];
  for (let b = 0; b < bins; b++) if (count[b]! > 0) keep.push(b);
  return {
    strategy,
    lower: Float64Array.from(keep, (b) => edges[b]!),
    upper: Float64Array.from(keep, (b) => edges[b + 1]!),
    count: Float64Array.from(keep, (b) => count[b]!),
    meanPredicted: Float64Array.from(keep, (b) => sumF[b]! / count[b]!),
    fractionPositive: Float64Array.from(keep, (b) => sumY[b]! / count[b]!),
  };
}
