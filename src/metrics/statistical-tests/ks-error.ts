import { argsortStable } from '../numeric/argsort.js';
import { sortTopLabel, type SortedTopLabel } from '../numeric/sorted-top-label.js';
import { requireTopLabel } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Top-label KS calibration error (Gupta et al. 2021, "Calibration of neural networks using splines"):
 * sort by confidence, KS = max_i |Σ_{j≤i} c_j / N − Σ_{j≤i} a_j / N|, evaluated at every sorted position as in
 * the authors' `ks_error` (ties are visited in input order: a stable sort). Binning-free; range [0, 1].
 * Shapes: confidence [N] in [0, 1], correct [N] (0/1).
 */
export function ksError(confidence: FloatArray, correct: Uint8Array): number {
  requireTopLabel(confidence, correct);
  return ksFromSorted(sortTopLabel(confidence, correct));
}

/** KS error over sorted top-label samples. */
export function ksFromSorted(sorted: SortedTopLabel): number {
  const n = sorted.confidence.length;
  let sc = 0;
  let sa = 0;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    sc += sorted.confidence[i]!;
    sa += sorted.correct[i]!;
    const d = Math.abs(sc / n - sa / n);
    if (d > worst) worst = d;
  }
  return worst;
}

/**
 * Sample-weighted KS error: max over confidence-sorted prefixes of |Σ w (c − a)| / W (stable order; weight-0 rows
 * skipped; visited at row ends, where the maximum of a run lies). Unit weights give `ksError`.
 */
export function weightedKsError(confidence: Float64Array, correct: Uint8Array, weights: Float64Array, total: number): number {
  const order = argsortStable(confidence);
  let sc = 0;
  let sa = 0;
  let worst = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const w = weights[i]!;
    if (w === 0) continue;
    sc += w * confidence[i]!;
    sa += w * correct[i]!;
    const d = Math.abs(sc / total - sa / total);
    if (d > worst) worst = d;
  }
  return worst;
}
