/**
 * Matrix scaling (Guo et al. 2017, §4.2; METHODS.md § Post-hoc calibrators): q = softmax(W z + b) with
 * W ∈ ℝ^{C×C}, b ∈ ℝ^C fitted by NLL (L-BFGS from W = I, b = 0). Needs logits (probabilities become log p).
 * Optional L2 penalty toward the identity: l2 · mean over the C(C+1) parameters of (W − I)² and b². With
 * C(C+1) parameters it overfits small validation sets (Guo et al.); use l2 > 0 or Dirichlet calibration.
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { fitLinearCalibrator, linearCalibratorFromJSON, LinearCalibrator, type LinearMethod, type Penalty } from './linear-scaling.js';
import { centre } from './vector.js';
import { CALIBRATION_GRADIENT_TOLERANCE } from '../solvers/lbfgs.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { matrixToOnnx } from '../onnx/linear.js';

export const matrixOptions = {
  l2: numberOption(0, { min: 0 }, 'Strength of the L2 penalty toward W = I, b = 0 (mean over parameters).'),
  maxIterations: numberOption(1000, { integer: true, min: 1 }, 'L-BFGS iteration cap.'),
  tolerance: numberOption(CALIBRATION_GRADIENT_TOLERANCE, { min: 0, exclusiveMin: true }, "L-BFGS gradient tolerance on the mean loss (scikit-learn's `tol`; lbfgs.ts)."),
};
export type MatrixOptions = OptionsOf<typeof matrixOptions>;

/**
 * l2 · mean over the C(C+1) parameters of (θ − θ_identity)²; the minimising invariant shift makes every column
 * of W − I and the vector b sum to zero.
 */
export function matrixPenalty(classes: number, l2: number): Penalty | undefined {
  if (l2 === 0) return undefined;
  const C = classes;
  const scale = l2 / (C * (C + 1));
  return {
    value(theta, gradient) {
      let f = 0;
      for (let i = 0; i < theta.length; i++) {
        const r = theta[i]! - (i < C * C && i % (C + 1) === 0 ? 1 : 0);
        f += r * r;
        gradient[i] = gradient[i]! + 2 * scale * r;
      }
      return scale * f;
    },
    project(theta) {
      for (let j = 0; j < C; j++) {
        let mean = 0;
        for (let k = 0; k < C; k++) mean += theta[k * C + j]! - (k === j ? 1 : 0);
        mean /= C;
        for (let k = 0; k < C; k++) theta[k * C + j] = theta[k * C + j]! - mean;
      }
      centre(theta, C * C, C);
    },
  };
}

const MATRIX_METHOD: LinearMethod = { kind: 'matrix', structure: 'full', features: 'logits' };

/** Fit matrix scaling on validation predictions (N × C) and labels (N). */
export function fitMatrix(input: Predictions, labels: Int32Array, options?: MatrixOptions, fit: FitOptions = {}): LinearCalibrator {
  const settings = parseOptions('matrix options', options, matrixOptions);
  return fitLinearCalibrator(MATRIX_METHOD, input, labels, settings, (classes) => matrixPenalty(classes, settings.l2), fit);
}

/** Rebuild a matrix scaling calibrator from its JSON. */
export function matrixFromJSON(json: unknown): LinearCalibrator {
  return linearCalibratorFromJSON(MATRIX_METHOD, json, matrixOptions);
}

/** The declaration of matrix (calibrators.ts). */
export const matrixDefinition = defineCalibrator({
  kind: 'matrix',
  summary: 'softmax(W z + b), a full C × C map by NLL (Guo et al. 2017)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'no',
  options: matrixOptions,
  fit: fitMatrix,
  weights: 'accepted',
  checkedAgainst: 'scikit-learn multinomial LogisticRegression (newton-cg) on the logits',
  fromJSON: matrixFromJSON,
  onnx: matrixToOnnx,
});
