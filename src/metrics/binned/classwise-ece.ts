import type { BinConvention } from './reliability-types.js';
import { DEFAULT_CONVENTION, requireBins, requireConvention } from './binning.js';
import { ClasswiseAccumulator } from '../accumulators/classwise-accumulator.js';
import { type Labels, type PredictionKind, requireMatrix, requirePredictionKind } from '../validation.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';

/**
 * Classwise ECE / static calibration error, SCE (Nixon et al. 2019; METHODS.md § Metrics):
 * (1/C) Σ_k Σ_m (|B_km|/N) |freq_k(B_km) − mean p_k(B_km)| with M equal-width bins over every class's p_ik.
 * Shapes: predictions N × C (logits or probabilities per `input`, default probabilities), labels [N].
 */
export function classwiseCalibrationError(predictions: Matrix, labels: Labels, options: { input?: PredictionKind; bins?: number; convention?: BinConvention } = {}): number {
  const input = requirePredictionKind(options.input ?? 'probabilities');
  requireMatrix(predictions);
  if (predictions.rows < 1) invalidArgument('predictions', 'at least one sample', '0 samples');
  const state = new ClasswiseAccumulator({
    classes: predictions.cols,
    bins: requireBins(options.bins ?? 15),
    convention: requireConvention(options.convention ?? DEFAULT_CONVENTION),
  });
  state.update(predictions, labels, input);
  return state.classwiseEce();
}
