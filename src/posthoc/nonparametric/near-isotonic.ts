/**
 * Near-isotonic regression as a calibrator (Tibshirani, Hoefling & Tibshirani 2011; netcal's
 * NearIsotonicRegression, EFS-OpenSource/calibration-framework): one fit β̂(λ) of the modified-PAVA path
 * (near-isotonic-regression.ts), a step function over the score. `select=lambda` takes the path at the given λ
 * (λ = 0 is netcal's standalone fit, which reproduces the fitting outcomes; λ → ∞ is isotonic regression);
 * `select=bic|aic` (default bic) takes the path knot with the best BIC/AIC (d = number of groups; the score
 * ENIR averages over, model-averaging.ts). Multi-class: step-ensemble.ts (`mode`).
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { binaryLogLikelihood, modelScores } from './model-averaging.js';
import { nearIsotonicAt, nearIsotonicPath } from './near-isotonic-regression.js';
import { enumOption, numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { applyStep, fitStepEnsembleCalibrator, stepEnsembleFromJSON, stepEnsembleModeOption, type StepEnsemble, type StepEnsembleCalibrator } from './step-ensemble.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { stepEnsembleToOnnx } from '../onnx/step-ensemble.js';

export const nearIsotonicOptions = {
  select: enumOption(['bic', 'aic', 'lambda'] as const, 'bic', "How λ is chosen: the best path knot by 'bic' or 'aic', or the given 'lambda'."),
  lambda: numberOption(0, { min: 0 }, 'The penalty λ ≥ 0 on decreases (used with select=lambda).'),
  mode: stepEnsembleModeOption,
};
export type NearIsotonicOptions = OptionsOf<typeof nearIsotonicOptions>;
export type NearIsotonicSettings = SettingsOf<typeof nearIsotonicOptions>;
export type NearIsotonicCalibrator = StepEnsembleCalibrator<NearIsotonicSettings>;

/** The near-isotonic fit of one binary problem (an ensemble of one step function). */
export function fitNearIsotonicStep(scores: Float64Array, outcomes: Float64Array, settings: Pick<NearIsotonicSettings, 'select' | 'lambda'>): StepEnsemble {
  const path = nearIsotonicPath(scores, outcomes);
  if (settings.select === 'lambda') return { weights: Float64Array.of(1), steps: [nearIsotonicAt(path, settings.lambda)] };
  const steps = path.map((k) => ({ upper: k.upper, values: Float64Array.from(k.values, (v) => Math.min(1, Math.max(0, v))) }));
  const lls = steps.map((step) =>
    binaryLogLikelihood(
      scores.map((s) => applyStep(step, s)),
      outcomes,
    ),
  );
  const w = modelScores(
    lls,
    path.map((k) => k.values.length),
    scores.length,
    settings.select,
  );
  let best = 0;
  for (let m = 1; m < w.length; m++) if (w[m]! > w[best]!) best = m;
  return { weights: Float64Array.of(1), steps: [steps[best]!] };
}

/** Fit near-isotonic regression on validation predictions (N × C) and labels (N). */
export function fitNearIsotonic(input: Predictions, labels: Int32Array, options?: NearIsotonicOptions, fit: FitOptions = {}): NearIsotonicCalibrator {
  const settings = parseOptions('near-isotonic options', options, nearIsotonicOptions);
  return fitStepEnsembleCalibrator('near-isotonic', settings, input, labels, (s, t) => fitNearIsotonicStep(s, t, settings), fit);
}

/** Rebuild a near-isotonic calibrator from its JSON. */
export function nearIsotonicFromJSON(json: unknown): NearIsotonicCalibrator {
  return stepEnsembleFromJSON(json, 'near-isotonic', nearIsotonicOptions);
}

/** The declaration of near-isotonic (calibrators.ts). */
export const nearIsotonicDefinition = defineCalibrator({
  kind: 'near-isotonic',
  summary: 'one nearly-isotonic fit with penalty λ on decreases (Tibshirani et al. 2011)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: nearIsotonicOptions,
  fit: fitNearIsotonic,
  weights: { refused: "the near-isotonic path's knot events are derived for unit weights (netcal's algorithm); a weighted path is not implemented" },
  checkedAgainst: 'netcal NearIsotonicRegression path, knot by knot (exact)',
  fromJSON: nearIsotonicFromJSON,
  onnx: stepEnsembleToOnnx,
});
