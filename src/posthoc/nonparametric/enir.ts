/**
 * ENIR, the ensemble of near-isotonic regression models (Naeini & Cooper 2016, "Binary classifier calibration
 * using an ensemble of near isotonic regression models", ICDM), as netcal's ENIR
 * (EFS-OpenSource/calibration-framework, netcal/binning/ENIR.py): the knots of the modified-PAVA path
 * (near-isotonic-regression.ts) after λ = 0, each a step function with d = its number of groups, scored by BIC
 * (or AIC) and averaged with the elbow cut (model-averaging.ts). When the outcomes are already isotonic in the
 * score (the path has no knot after λ = 0) the λ = 0 fit is the only model. netcal's path objects share their
 * value arrays, so each stored model is moved on to the next knot's λ; we keep each knot's own fit (see the
 * fixture notes in test/fixtures). Multi-class: step-ensemble.ts (`mode`).
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { binaryLogLikelihood, elbow, modelScores, SCORE_FUNCTIONS, type ScoreFunction } from './model-averaging.js';
import { nearIsotonicPath } from './near-isotonic-regression.js';
import { enumOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { applyStep, fitStepEnsembleCalibrator, stepEnsembleFromJSON, stepEnsembleModeOption, type StepEnsemble, type StepEnsembleCalibrator } from './step-ensemble.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { stepEnsembleToOnnx } from '../onnx/step-ensemble.js';

export const enirOptions = {
  score: enumOption(SCORE_FUNCTIONS, 'bic', "Model score: BIC (netcal's default) or AIC."),
  mode: stepEnsembleModeOption,
};
export type EnirOptions = OptionsOf<typeof enirOptions>;
export type EnirCalibrator = StepEnsembleCalibrator<SettingsOf<typeof enirOptions>>;

/** The ENIR ensemble of one binary problem. */
export function fitEnirEnsemble(scores: Float64Array, outcomes: Float64Array, score: ScoreFunction = 'bic'): StepEnsemble {
  const path = nearIsotonicPath(scores, outcomes);
  const knots = path.length > 1 ? path.slice(1) : path;
  const steps = knots.map((k) => ({ upper: k.upper, values: Float64Array.from(k.values, (v) => Math.min(1, Math.max(0, v))) }));
  const lls = steps.map((step) =>
    binaryLogLikelihood(
      scores.map((s) => applyStep(step, s)),
      outcomes,
    ),
  );
  const { kept, weights } = elbow(
    modelScores(
      lls,
      knots.map((k) => k.values.length),
      scores.length,
      score,
    ),
  );
  return { weights, steps: kept.map((m) => steps[m]!) };
}

/** Fit ENIR on validation predictions (N × C) and labels (N). */
export function fitEnir(input: Predictions, labels: Int32Array, options?: EnirOptions, fit: FitOptions = {}): EnirCalibrator {
  const settings = parseOptions('enir options', options, enirOptions);
  return fitStepEnsembleCalibrator('enir', settings, input, labels, (s, t) => fitEnirEnsemble(s, t, settings.score), fit);
}

/** Rebuild an ENIR calibrator from its JSON. */
export function enirFromJSON(json: unknown): EnirCalibrator {
  return stepEnsembleFromJSON(json, 'enir', enirOptions);
}

/** The declaration of enir (calibrators.ts). */
export const enirDefinition = defineCalibrator({
  kind: 'enir',
  summary: 'ensemble of near-isotonic regression fits along the path (Naeini & Cooper 2016)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: enirOptions,
  fit: fitEnir,
  weights: { refused: 'its near-isotonic models are scored by BIC (or AIC) with the sample count n in the penalty, as netcal; a weighted BIC is not defined there' },
  checkedAgainst: 'netcal ENIR with its two path bugs fixed (max |Δ| 1.3e-7)',
  fromJSON: enirFromJSON,
  onnx: stepEnsembleToOnnx,
});
