import type { BinConvention } from './reliability-types.js';
import { argsortStable } from '../numeric/argsort.js';
import { DEFAULT_CONVENTION, requireBins, requireConvention } from './binning.js';
import { ClasswiseAccumulator, classPower } from '../accumulators/classwise-accumulator.js';
import { midpointBinSums } from './debiased-ece.js';
import { softmax } from '../numeric/softmax.js';
import { type Labels, type PredictionKind, requirePredictionKind, requirePredictionsAndLabels } from '../validation.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import type { FloatArray, Matrix } from '../../util/matrix.js';

/** Bins of the marginal calibration error: Kumar et al.'s equal-mass default, or equal-width (streamable). */
export type MarginalBinning = 'equal-mass' | 'equal-width';

export function requireMarginalBinning(binning: unknown, argument = 'binning'): MarginalBinning {
  if (binning !== 'equal-mass' && binning !== 'equal-width') invalidArgument(argument, "'equal-mass' or 'equal-width'", describe(binning));
  return binning;
}

export interface MarginalOptions {
  /** What `predictions` holds (default 'probabilities'). */
  readonly input?: PredictionKind;
  /** Bins per class (default 15, the library's default). */
  readonly bins?: number;
  /** Binning (default 'equal-mass', as `get_calibration_error`). */
  readonly binning?: MarginalBinning;
  /** Debiased estimator (default true; requires p = 2). */
  readonly debias?: boolean;
  /** Norm (default 2). */
  readonly p?: number;
  /** Convention of the equal-width bins (default '(l,u]'; equal-mass bins are always (l, u]). */
  readonly convention?: BinConvention;
}

/**
 * Marginal calibration error (Kumar, Liang & Ma 2019), as uncertainty-calibration's
 * `get_calibration_error(probs, labels, p=2, debias=True, mode='marginal')` computes it for continuous outputs:
 * for each class k, bin p_·k (all N samples) into M bins — equal-mass bins from `midpointEqualMassEdges` by
 * default — and take CE_k² = max(debiased squared error, 0) (plug-in Σ_b (n_b/N)|mean p − freq|^p when
 * `debias` is false); the result is (1/C Σ_k CE_k^p)^{1/p}: classes are averaged on the p-th power scale.
 * Equal-mass bins need every column sorted: O(N·C) memory and O(N·C) time (radix sort).
 * Shapes: predictions N × C, labels [N].
 */
export function marginalCalibrationError(predictions: Matrix, labels: Labels, options: MarginalOptions = {}): number {
  const input = requirePredictionKind(options.input ?? 'probabilities');
  const bins = requireBins(options.bins ?? 15);
  const binning = requireMarginalBinning(options.binning ?? 'equal-mass');
  const debias = options.debias ?? true;
  const p = requireNumber('p', options.p ?? 2, { min: 1 });
  if (debias && p !== 2) invalidArgument('p', '2 when debias is true (the debiased estimator is the ℓ2 one)', describe(p));
  const convention = requireConvention(options.convention ?? DEFAULT_CONVENTION);
  requirePredictionsAndLabels(predictions, labels, input, { nonEmpty: true });
  if (binning === 'equal-width') {
    const state = new ClasswiseAccumulator({ classes: predictions.cols, bins, convention });
    state.update(predictions, labels, input);
    return state.marginalEce({ debias, p });
  }
  const probabilities = input === 'logits' ? softmax(predictions) : predictions;
  return marginalEqualMass(probabilities.data, probabilities.rows, probabilities.cols, labels, bins, p, debias);
}

/**
 * Equal-mass marginal error of row-major probabilities `data` (shape rows × cols) and `labels` [rows];
 * unchecked (callers validate).
 */
export function marginalEqualMass(data: FloatArray, rows: number, cols: number, labels: Labels, bins: number, p: number, debias: boolean): number {
  const column = new Float64Array(rows);
  const sortedValues = new Float64Array(rows);
  const sortedOutcomes = new Uint8Array(rows);
  let acc = 0;
  for (let k = 0; k < cols; k++) {
    for (let i = 0; i < rows; i++) column[i] = data[i * cols + k]!;
    const order = argsortStable(column);
    for (let i = 0; i < rows; i++) {
      const j = order[i]!;
      sortedValues[i] = column[j]!;
      sortedOutcomes[i] = labels[j] === k ? 1 : 0;
    }
    acc += classPower(midpointBinSums(sortedValues, sortedOutcomes, bins), rows, p, debias);
  }
  return Math.pow(acc / cols, 1 / p);
}
