/**
 * Platt scaling (Platt 1999, "Probabilistic Outputs for Support Vector Machines"; METHODS.md § Post-hoc
 * calibrators), binary only (C = 2): q_1 = σ(a f + b) on the logit of class 1, f = z_1 − z_0 (from
 * probabilities f = ln p_1 − ln p_0), fitted by cross-entropy against Platt's smoothed targets
 * t = (N₊ + 1)/(N₊ + 2) for positives and t = 1/(N₋ + 2) for negatives (N₊, N₋ = class counts), as
 * scikit-learn's `_sigmoid_calibration` (which writes P = 1/(1 + exp(A f + B)), i.e. A = −a, B = −b).
 * Damped Newton from a = 0, b = ln((N₊ + 1)/(N₋ + 1)). Output rows [1 − q_1, q_1]; calibrated logits [0, a f + b].
 * Sample weights (`calib fit --weights`) as scikit-learn ≥ 1.2's `_sigmoid_calibration(…, sample_weight)`: N₊ and N₋
 * become the classes' weight sums and the cross-entropy a weighted sum (here a weighted mean: same optimum).
 */
import { invalidArgument } from '../../util/errors.js';
import type { CalibratorJSON, Predictions } from '../calibrator.js';
import { binaryLogit, BinaryScoreCalibrator, requireBinary } from './binary-score.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readNumber } from '../json.js';
import { fitLogistic } from './logistic-regression.js';
import { parseOptions, type OptionsOf } from '../options.js';
import { checkLabels, checkPredictions, type CheckedPredictions } from '../predictions.js';
import { defineCalibrator } from '../calibrator-definition.js';
import type { FitOptions } from '../fit-progress.js';
import { plattToOnnx } from '../onnx/binary.js';

export const plattOptions = {};
export type PlattOptions = OptionsOf<typeof plattOptions>;

/** A fitted Platt calibrator. */
export class PlattCalibrator extends BinaryScoreCalibrator {
  readonly kind = 'platt' as const;
  /** Slope a and intercept b of q_1 = σ(a f + b). */
  readonly a: number;
  readonly b: number;

  constructor(a: number, b: number) {
    super();
    this.a = a;
    this.b = b;
    Object.freeze(this);
  }

  /** a f + b on the class-1 logit f. */
  protected scoresOf(checked: CheckedPredictions): Float64Array {
    const f = binaryLogit(checked);
    for (let i = 0; i < f.length; i++) f[i] = this.a * f[i]! + this.b;
    return f;
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('platt', 2, {}), a: this.a, b: this.b };
  }
}

/** Fit Platt scaling on binary validation predictions (N × 2) and labels (N). */
export function fitPlatt(input: Predictions, labels: Int32Array, options?: PlattOptions, fit: FitOptions = {}): PlattCalibrator {
  parseOptions('platt options', options, plattOptions);
  const checked = checkPredictions('input', input);
  requireBinary('platt', checked);
  const { rows } = checked.matrix;
  checkLabels('labels', labels, rows, 2);
  const f = binaryLogit(checked);
  const weights = fit.sampleWeights;
  let positives = 0;
  let negatives = 0;
  if (weights === undefined) {
    for (let i = 0; i < rows; i++) positives += labels[i]!;
    negatives = rows - positives;
  } else {
    for (let i = 0; i < rows; i++) {
      if (labels[i] === 1) positives += weights[i]!;
      else negatives += weights[i]!;
    }
  }
  const tPos = (positives + 1) / (positives + 2);
  const tNeg = 1 / (negatives + 2);
  const X = new Float64Array(2 * rows);
  const t = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    X[2 * i] = f[i]!;
    X[2 * i + 1] = 1;
    t[i] = labels[i] === 1 ? tPos : tNeg;
  }
  const r = fitLogistic(X, rows, 2, t, new Float64Array(2), Float64Array.of(0, Math.log((positives + 1) / (negatives + 1))), weights);
  if (!r.converged) {
    throw new CalibrationFitError('platt', `Newton did not converge (‖gradient‖∞ = ${r.gradientNorm.toExponential(2)})`);
  }
  return new PlattCalibrator(r.x[0]!, r.x[1]!);
}

/** Rebuild a Platt calibrator from its JSON. */
export function plattFromJSON(json: unknown): PlattCalibrator {
  const { record, classes } = readHeader(json, 'platt', plattOptions);
  if (classes !== 2) invalidArgument('json.classes', '2 (platt calibration is binary)', String(classes));
  return new PlattCalibrator(readNumber(record, 'a'), readNumber(record, 'b'));
}

/** The declaration of platt (calibrators.ts). */
export const plattDefinition = defineCalibrator({
  kind: 'platt',
  summary: "σ(a f + b) on the class-1 logit f, two classes (Platt 1999); this is probmetrics' affine scaling, fitted here against Platt's smoothed targets instead of the hard labels",
  input: 'logits',
  classes: 'two',
  keepsArgmax: 'no',
  options: plattOptions,
  fit: fitPlatt,
  weights: 'accepted',
  checkedAgainst: "scikit-learn's _sigmoid_calibration",
  fromJSON: plattFromJSON,
  onnx: plattToOnnx,
});
