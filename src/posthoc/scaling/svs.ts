/**
 * Structured vector scaling, SVS (probmetrics SVSCalibrator; structured-scaling.ts): q = softmax(w ⊙ x + b) on
 * x = log ts-mix(z), with a ridge penalty pulling w toward 1 and b toward 0 whose strength scales as C / N.
 */
import type { Predictions } from '../calibrator.js';
import { defineCalibrator } from '../calibrator-definition.js';
import type { FitOptions } from '../fit-progress.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { fitStructured, structuredFromJSON, type StructuredMethod, type StructuredScalingCalibrator } from './structured-scaling.js';
import { svsToOnnx } from '../onnx/structured-scaling.js';

/** Options shared by SVS and SMS. */
export const structuredCommonOptions = {
  lambdaIntercept: numberOption(1, { min: 0 }, 'Ridge weight of Σ b², times C^ρ / N^τ (probmetrics: 1).'),
  lambdaDiagonal: numberOption(1, { min: 0 }, 'Ridge weight of Σ (W_kk − 1)², times C^ρ / N^τ (probmetrics: 1).'),
  rho: numberOption(1, { min: 0 }, 'ρ: exponent of the number of classes in the ridge strengths (probmetrics: 1).'),
  tau: numberOption(1, { min: 0 }, 'τ: exponent of the number of validation rows in the ridge strengths (probmetrics: 1).'),
  mixtureConstant: numberOption(1, { min: 0 }, 'c of the ts-mix first stage: uniform weight ε = c / (N + 1).'),
  maxIterations: numberOption(2000, { integer: true, min: 1 }, 'L-BFGS iteration cap.'),
  tolerance: numberOption(1e-6, { min: 0, exclusiveMin: true }, 'L-BFGS gradient tolerance on the penalised mean loss (lbfgs.ts).'),
  objectiveTolerance: numberOption(
    1e-9,
    { min: 0 },
    "Also stop when an L-BFGS iteration lowers the penalised mean loss by at most this × max(|loss|, 1) (probmetrics' torchmin BFGS stops at |Δloss| ≤ 1e-9); 64 × 2⁻⁵² ≈ 1.4e-14 is the floor vector, matrix and dirichlet use.",
  ),
};

export const svsOptions = structuredCommonOptions;
export type SvsOptions = OptionsOf<typeof svsOptions>;

const SVS_METHOD: StructuredMethod = { kind: 'svs', structure: 'diagonal' };

/** Fit SVS on validation predictions (N × C) and labels (N). */
export function fitSvs(input: Predictions, labels: Int32Array, options?: SvsOptions, fit: FitOptions = {}): StructuredScalingCalibrator {
  const settings = parseOptions('svs options', options, svsOptions);
  return fitStructured(SVS_METHOD, input, labels, settings, fit);
}

/** Rebuild an SVS calibrator from its JSON. */
export function svsFromJSON(json: unknown): StructuredScalingCalibrator {
  return structuredFromJSON(SVS_METHOD, json, svsOptions);
}

/** The declaration of svs (calibrators.ts). */
export const svsDefinition = defineCalibrator({
  kind: 'svs',
  summary: 'softmax(w ⊙ log ts-mix(z) + b), ridge toward w = 1, b = 0 scaled by C / N: structured vector scaling (probmetrics code; LogisticCalibrationBenchmark of E. Berta)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'no',
  options: svsOptions,
  fit: fitSvs,
  weights: 'accepted',
  checkedAgainst: "probmetrics' SVSCalibrator (its objective, BFGS replaced by scipy L-BFGS-B in float64) on small and real data (fixture)",
  fromJSON: svsFromJSON,
  onnx: svsToOnnx,
});
