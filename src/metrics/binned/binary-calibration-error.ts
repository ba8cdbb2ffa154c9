import { requireBins } from './binning.js';
import { requireTopLabel } from '../validation.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Binary (positive-class) calibration error as torchmetrics' `binary_calibration_error` (norm 'l1', default 15
 * bins; torchmetrics/functional/classification/calibration_error.py `_binning_bucketize`): the forecast is the
 * positive-class probability p_i itself (not max(p, 1 − p)), the outcome y_i ∈ {0, 1}; bins [l, u) over
 * `linspace(0, 1, M + 1)` (torch.bucketize(right=True) − 1), so p = 1.0 falls in an extra (M+1)-th bin of its
 * own; ECE = Σ_b (n_b/N) |mean y − mean p| over non-empty bins. Streaming-friendly (bin sums); computed here from
 * the arrays. Shapes: p [N] in [0, 1], y [N] ∈ {0, 1}.
 */
export function binaryCalibrationError(p: FloatArray, y: Uint8Array, bins = 15): number {
  requireTopLabel(p, y, 'p');
  const m = requireBins(bins);
  const count = new Float64Array(m + 1);
  const sumP = new Float64Array(m + 1);
  const sumY = new Float64Array(m + 1);
  const n = p.length;
  for (let i = 0; i < n; i++) {
    const v = p[i]!;
    // Largest b with b/M ≤ v (edges computed as torch.linspace does: b/M in float).
    let b = Math.min(m, Math.floor(v * m));
    while (b < m && (b + 1) / m <= v) b++;
    while (b > 0 && b / m > v) b--;
    count[b]!++;
    sumP[b]! += v;
    sumY[b]! += y[i]!;
  }
  let ece = 0;
  for (let b = 0; b <= m; b++) if (count[b]! > 0) ece += (count[b]! / n) * Math.abs(sumY[b]! / count[b]! - sumP[b]! / count[b]!);
  return ece;
}
