/**
 * Dirichlet calibration (Kull et al. 2019, "Beyond temperature scaling: Obtaining well-calibrated multi-class
 * probabilities with Dirichlet calibration"): q = softmax(W ln p + b), W ∈ ℝ^{C×C}, b ∈ ℝ^C, fitted by NLL
 * with ODIR (off-diagonal and intercept regularisation):
 *   λ · (1/(C(C−1))) Σ_{i≠j} W_ij² + μ · (1/C) Σ_j b_j²
 * (the paper's formula; the reference code `dirichletcal` with reg_norm=True divides λ and μ the same way).
 * L-BFGS from W = I, b = 0 (the identity map q = p). Needs log-probabilities: from logits the exact
 * log-softmax; from probabilities ln max(p, 2.2e−308) (as the reference code's clip_for_log on float64).
 *
 * Difference from the reference code: dirichletcal (ref_row=True) fixes the last row of W and b to zero by
 * subtracting it from the others before applying ODIR to the differences; we keep the paper's unconstrained
 * W and b (softmax makes the two parametrisations equivalent for the unregularised fit; with ODIR the
 * penalties differ slightly). Defaults λ = μ = 1e−3 are ours: the paper picks λ, μ by cross-validation.
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { fitLinearCalibrator, linearCalibratorFromJSON, LinearCalibrator, type LinearMethod, type Penalty } from './linear-scaling.js';
import { centre } from './vector.js';
import { CALIBRATION_GRADIENT_TOLERANCE } from '../solvers/lbfgs.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { dirichletToOnnx } from '../onnx/linear.js';

export const dirichletOptions = {
  lambda: numberOption(1e-3, { min: 0 }, 'λ: weight of the mean squared off-diagonal entry of W.'),
  mu: numberOption(1e-3, { min: 0 }, 'μ: weight of the mean squared intercept.'),
  maxIterations: numberOption(1000, { integer: true, min: 1 }, 'L-BFGS iteration cap.'),
  tolerance: numberOption(CALIBRATION_GRADIENT_TOLERANCE, { min: 0, exclusiveMin: true }, "L-BFGS gradient tolerance on the mean loss (scikit-learn's `tol`; lbfgs.ts)."),
};
export type DirichletOptions = OptionsOf<typeof dirichletOptions>;

/**
 * ODIR: λ · mean_{i≠j} W_ij² + μ · mean_j b_j² on θ = [W row-major, b]. The minimising invariant shift makes
 * the off-diagonal entries of every column of W sum to zero (λ > 0) and b sum to zero (μ > 0).
 */
export function odirPenalty(classes: number, lambda: number, mu: number): Penalty | undefined {
  if (lambda === 0 && mu === 0) return undefined;
  const C = classes;
  const a = lambda / (C * (C - 1));
  const m = mu / C;
  return {
    value(theta, gradient) {
      let off = 0;
      for (let i = 0; i < C; i++) {
        for (let j = 0; j < C; j++) {
          if (i === j) continue;
          const w = theta[i * C + j]!;
          off += w * w;
          gradient[i * C + j] = gradient[i * C + j]! + 2 * a * w;
        }
      }
      let bias = 0;
      for (let k = 0; k < C; k++) {
        const b = theta[C * C + k]!;
        bias += b * b;
        gradient[C * C + k] = gradient[C * C + k]! + 2 * m * b;
      }
      return a * off + m * bias;
    },
    project(theta) {
      if (lambda > 0) {
        for (let j = 0; j < C; j++) {
          let mean = 0;
          for (let i = 0; i < C; i++) if (i !== j) mean += theta[i * C + j]!;
          mean /= C - 1;
          for (let i = 0; i < C; i++) theta[i * C + j] = theta[i * C + j]! - mean;
        }
      }
      if (mu > 0) centre(theta, C * C, C);
    },
  };
}

const DIRICHLET_METHOD: LinearMethod = { kind: 'dirichlet', structure: 'full', features: 'log-probabilities' };

/** Fit Dirichlet calibration on validation predictions (N × C) and labels (N). */
export function fitDirichlet(input: Predictions, labels: Int32Array, options?: DirichletOptions, fit: FitOptions = {}): LinearCalibrator {
  const settings = parseOptions('dirichlet options', options, dirichletOptions);
  return fitLinearCalibrator(DIRICHLET_METHOD, input, labels, settings, (classes) => odirPenalty(classes, settings.lambda, settings.mu), fit);
}

/** Rebuild a Dirichlet calibration calibrator from its JSON. */
export function dirichletFromJSON(json: unknown): LinearCalibrator {
  return linearCalibratorFromJSON(DIRICHLET_METHOD, json, dirichletOptions);
}

/** The declaration of dirichlet (calibrators.ts). */
export const dirichletDefinition = defineCalibrator({
  kind: 'dirichlet',
  summary: 'softmax(W ln p + b) with ODIR regularisation (Kull et al. 2019)',
  input: 'log-probabilities',
  classes: 'any',
  keepsArgmax: 'no',
  options: dirichletOptions,
  fit: fitDirichlet,
  weights: 'accepted',
  checkedAgainst: "the ODIR objective in NumPy minimised by scipy (fixture); Kull et al.'s DenseNet-40 numbers",
  fromJSON: dirichletFromJSON,
  onnx: dirichletToOnnx,
});
