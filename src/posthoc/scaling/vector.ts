/**
 * Vector scaling (Guo et al. 2017, §4.2; METHODS.md § Post-hoc calibrators): q = softmax(w ⊙ z + b) with
 * per-class w, b ∈ ℝ^C fitted by NLL (L-BFGS from w = 1, b = 0). Needs logits (probabilities become log p).
 * Optional L2 penalty toward the identity: l2 · mean over the 2C parameters of (w_k − 1)² and b_k².
 * Vector scaling does NOT preserve the argmax in general (per-class scales and biases can reorder classes).
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { fitLinearCalibrator, linearCalibratorFromJSON, LinearCalibrator, type LinearMethod, type Penalty } from './linear-scaling.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { vectorToOnnx } from '../onnx/linear.js';

/**
 * Default gradient tolerance of vector scaling: tighter than matrix/Dirichlet's 1e−4 (lbfgs.ts) because its 2C
 * parameters are whitened by their curvature (linear-scaling.ts), where ½‖∇‖² estimates the NLL still to gain: 1e−6
 * leaves ≲ 1e−12 nats, and reaches the independently computed optima of test/fixtures/posthoc/vector-optimum.json to
 * 1e−9 in a few dozen iterations. (At 1e−4 on the plain standardisation the fit stopped up to 5.8e−4 nats short.)
 */
export const VECTOR_GRADIENT_TOLERANCE = 1e-6;

export const vectorOptions = {
  l2: numberOption(0, { min: 0 }, 'Strength of the L2 penalty toward w = 1, b = 0 (mean over parameters).'),
  maxIterations: numberOption(1000, { integer: true, min: 1 }, 'L-BFGS iteration cap.'),
  tolerance: numberOption(
    VECTOR_GRADIENT_TOLERANCE,
    { min: 0, exclusiveMin: true },
    'L-BFGS gradient tolerance on the mean loss, in the whitened coordinates of linear-scaling.ts (there about √(2 × the NLL still to gain)).',
  ),
};
export type VectorOptions = OptionsOf<typeof vectorOptions>;

/** l2 · mean over the 2C parameters of (θ − θ_identity)²; the invariant shift centres b. */
export function vectorPenalty(classes: number, l2: number): Penalty | undefined {
  if (l2 === 0) return undefined;
  const scale = l2 / (2 * classes);
  return {
    value(theta, gradient) {
      let f = 0;
      for (let i = 0; i < theta.length; i++) {
        const r = theta[i]! - (i < classes ? 1 : 0);
        f += r * r;
        gradient[i] = gradient[i]! + 2 * scale * r;
      }
      return scale * f;
    },
    project(theta) {
      centre(theta, classes, classes);
    },
  };
}

/** Subtract the mean of θ[offset … offset + length). */
export function centre(theta: Float64Array, offset: number, length: number): void {
  let mean = 0;
  for (let k = 0; k < length; k++) mean += theta[offset + k]!;
  mean /= length;
  for (let k = 0; k < length; k++) theta[offset + k] = theta[offset + k]! - mean;
}

const VECTOR_METHOD: LinearMethod = { kind: 'vector', structure: 'diagonal', features: 'logits' };

/** Fit vector scaling on validation predictions (N × C) and labels (N). */
export function fitVector(input: Predictions, labels: Int32Array, options?: VectorOptions, fit: FitOptions = {}): LinearCalibrator {
  const settings = parseOptions('vector options', options, vectorOptions);
  return fitLinearCalibrator(VECTOR_METHOD, input, labels, settings, (classes) => vectorPenalty(classes, settings.l2), fit);
}

/** Rebuild a vector scaling calibrator from its JSON. */
export function vectorFromJSON(json: unknown): LinearCalibrator {
  return linearCalibratorFromJSON(VECTOR_METHOD, json, vectorOptions);
}

/** The declaration of vector (calibrators.ts). */
export const vectorDefinition = defineCalibrator({
  kind: 'vector',
  summary: 'softmax(w ⊙ z + b), per-class scale and bias by NLL (Guo et al. 2017)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'no',
  options: vectorOptions,
  fit: fitVector,
  weights: 'accepted',
  checkedAgainst: 'the vector-scaling NLL in NumPy minimised by scipy (fixture); optima on real predictions by scipy L-BFGS-B + exact Newton (vector-optimum.json)',
  fromJSON: vectorFromJSON,
  onnx: vectorToOnnx,
});
