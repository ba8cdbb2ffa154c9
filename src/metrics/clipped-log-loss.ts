import { softmax } from './numeric/softmax.js';
import { type Labels, type PredictionKind, requirePredictionKind, requirePredictionsAndLabels } from './validation.js';
import { requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';

/**
 * Log-loss with scikit-learn's clipping (`sklearn.metrics.log_loss`, eps = 1e−15 up to version 1.2; the
 * convention of Guo et al.'s and Kull et al.'s evaluation code): every probability is clipped to [ε, 1 − ε],
 * each row is renormalised to sum to 1, and the loss is mean_i −log p̃_{i,y_i}. It differs from the toolkit's
 * default NLL (exact log-softmax for logits) when a true-class probability underflows: the clipped loss of
 * such a sample is at most −log ε ≈ 34.5, whatever the logits. Predictions N × C (logits go through a float64
 * softmax), labels [N]. Reproduces Kull et al. 2019's DenseNet-40 log-loss 0.428207 (test/real-predictions).
 */
export function clippedLogLoss(predictions: Matrix, labels: Labels, options: { input?: PredictionKind; eps?: number } = {}): number {
  const input = requirePredictionKind(options.input ?? 'probabilities');
  const eps = requireNumber('eps', options.eps ?? 1e-15, { min: 0, max: 0.5, exclusiveMin: true });
  requirePredictionsAndLabels(predictions, labels, input, { nonEmpty: true });
  const { rows, cols } = predictions;
  const p = input === 'logits' ? softmax(predictions).data : predictions.data;
  let total = 0;
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let k = 0; k < cols; k++) sum += Math.min(Math.max(p[i * cols + k]!, eps), 1 - eps);
    const py = Math.min(Math.max(p[i * cols + Number(labels[i])]!, eps), 1 - eps);
    total -= Math.log(py / sum);
  }
  return total / rows;
}
