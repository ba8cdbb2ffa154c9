import { expShifted } from './numeric/softmax.js';
import { type Labels, type PredictionKind, requirePredictionKind, requirePredictionsAndLabels } from './validation.js';
import { argmaxRow } from '../util/argmax.js';
import type { Matrix } from '../util/matrix.js';

/**
 * Top-label view of predictions: confidence c_i = max_k p_ik (clipped to ≤ 1 for probability rows within the
 * sum tolerance) and correctness a_i = 1[argmax_k p_ik = y_i] (first maximal index on ties). Logits go through
 * the max-subtracted softmax (c = 1 / Σ_k exp(z_k − max z)). Shapes: predictions N × C, labels [N] →
 * confidence [N] (float64), correct [N].
 */
export function topLabel(predictions: Matrix, labels: Labels, input: PredictionKind): { confidence: Float64Array; correct: Uint8Array } {
  requirePredictionKind(input);
  requirePredictionsAndLabels(predictions, labels, input);
  const { rows, cols, data } = predictions;
  const confidence = new Float64Array(rows);
  const correct = new Uint8Array(rows);
  const row = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const off = i * cols;
    const arg = argmaxRow(data, off, cols);
    const m = data[off + arg]!;
    confidence[i] = input === 'logits' ? 1 / expShifted(data, off, cols, m, row) : Math.min(m, 1);
    correct[i] = arg === labels[i] ? 1 : 0;
  }
  return { confidence, correct };
}
