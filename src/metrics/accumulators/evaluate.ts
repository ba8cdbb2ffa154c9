import { CalibrationAccumulator, type CalibrationMetrics, type CalibrationOptions } from './calibration-accumulator.js';
import type { Labels } from '../validation.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';

export { METRIC_NAMES, type MetricName } from '../record/metric-registry.js';

/**
 * Every calibration metric of METHODS.md § Metrics for predictions N × C (logits or probabilities, per
 * `options.input`) and labels [N], as fractions, with the settings used (`bins`, `convention`,
 * `adaptive_binning`, `ece_lb_p`, `marginal_binning`, `marginal_debiased`, `sweep_bins`). Defaults: 15 bins,
 * '(l,u]'. Equivalent to one `CalibrationAccumulator` update + compute. `error_auroc` is NaN (null in JSON)
 * when all or no predictions are correct.
 */
export function evaluate(predictions: Matrix, labels: Labels, options: CalibrationOptions): CalibrationMetrics {
  const accumulator = new CalibrationAccumulator(options);
  accumulator.update(predictions, labels);
  if (accumulator.count === 0) invalidArgument('predictions', 'at least one sample', '0 samples');
  return accumulator.compute();
}
