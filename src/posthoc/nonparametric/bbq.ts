/**
 * Bayesian Binning into Quantiles (Naeini, Cooper & Hauskrecht 2015, "Obtaining well calibrated probabilities
 * using Bayesian binning", AAAI), as netcal's BBQ (EFS-OpenSource/calibration-framework, netcal/binning/BBQ.py
 * with HistogramBinning): for a binary problem of n scores s_i and outcomes t_i, histogram-binning models with
 * M = ⌊max(1, n^{1/3} / 10)⌋ … min(⌈n / 5⌉, ⌈10 n^{1/3}⌉) equal-width bins are fitted (bin value = mean outcome
 * of its scores, scores clipped to [ε, 1 − ε] and put in [e_j, e_{j+1}) while fitting; an empty bin gets its
 * midpoint; applying uses (e_j, e_{j+1}] as netcal), scored by BIC (or AIC) with d = M and averaged with the
 * elbow cut (model-averaging.ts). netcal's default equal_intervals=True bins are equal-width (its quantile
 * option is not implemented in its transform). Multi-class: step-ensemble.ts (`mode`).
 */
import type { FitOptions } from '../fit-progress.js';
import type { Predictions } from '../calibrator.js';
import { binaryLogLikelihood, elbow, modelScores, SCORE_FUNCTIONS } from './model-averaging.js';
import { enumOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { applyStep, fitStepEnsembleCalibrator, stepEnsembleFromJSON, stepEnsembleModeOption, type StepEnsemble, type StepEnsembleCalibrator, type StepFunction } from './step-ensemble.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { stepEnsembleToOnnx } from '../onnx/step-ensemble.js';

export const bbqOptions = {
  score: enumOption(SCORE_FUNCTIONS, 'bic', "Model score: BIC (netcal's default) or AIC."),
  mode: stepEnsembleModeOption,
};
export type BbqOptions = OptionsOf<typeof bbqOptions>;
export type BbqCalibrator = StepEnsembleCalibrator<SettingsOf<typeof bbqOptions>>;

const EPS = 2.220446049250313e-16;

/** netcal's bin-count range for n samples: [max(1, ⌊n^{1/3}/10⌋), min(⌈n/5⌉, ⌈10 n^{1/3}⌉)]. */
export function bbqBinRange(n: number): { min: number; max: number } {
  const root = Math.pow(n, 1 / 3);
  return { min: Math.max(1, Math.floor(root / 10)), max: Math.min(Math.ceil(n / 5), Math.ceil(root * 10)) };
}

/** One equal-width histogram-binning step function with M bins (netcal's HistogramBinning fit). */
export function fitEqualWidthStep(scores: Float64Array, outcomes: Float64Array, bins: number): StepFunction {
  const step = 1 / bins;
  const edges = Float64Array.from({ length: bins + 1 }, (_, j) => (j === bins ? 1 : j * step));
  const sum = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let i = 0; i < scores.length; i++) {
    const x = Math.min(Math.max(scores[i]!, EPS), 1 - EPS);
    let lo = 0; // largest j ≤ bins − 1 with e_j ≤ x
    let hi = bins - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (edges[mid]! <= x) lo = mid;
      else hi = mid - 1;
    }
    sum[lo]! += outcomes[i]!;
    count[lo]!++;
  }
  const values = Float64Array.from(sum, (s, j) => (count[j]! > 0 ? s / count[j]! : 0.5 * (edges[j]! + edges[j + 1]!)));
  return { upper: edges.slice(1), values };
}

/** The BBQ ensemble of one binary problem. */
export function fitBbqEnsemble(scores: Float64Array, outcomes: Float64Array, score: (typeof SCORE_FUNCTIONS)[number] = 'bic'): StepEnsemble {
  const n = scores.length;
  const { min, max } = bbqBinRange(n);
  const steps: StepFunction[] = [];
  const lls: number[] = [];
  const dofs: number[] = [];
  for (let M = min; M <= max; M++) {
    const step = fitEqualWidthStep(scores, outcomes, M);
    steps.push(step);
    lls.push(
      binaryLogLikelihood(
        scores.map((s) => applyStep(step, s)),
        outcomes,
      ),
    );
    dofs.push(M);
  }
  const { kept, weights } = elbow(modelScores(lls, dofs, n, score));
  return { weights, steps: kept.map((m) => steps[m]!) };
}

/** Fit BBQ on validation predictions (N × C) and labels (N). */
export function fitBbq(input: Predictions, labels: Int32Array, options?: BbqOptions, fit: FitOptions = {}): BbqCalibrator {
  const settings = parseOptions('bbq options', options, bbqOptions);
  return fitStepEnsembleCalibrator('bbq', settings, input, labels, (s, t) => fitBbqEnsemble(s, t, settings.score), fit);
}

/** Rebuild a BBQ calibrator from its JSON. */
export function bbqFromJSON(json: unknown): BbqCalibrator {
  return stepEnsembleFromJSON(json, 'bbq', bbqOptions);
}

/** The declaration of bbq (calibrators.ts). */
export const bbqDefinition = defineCalibrator({
  kind: 'bbq',
  summary: 'Bayesian Binning into Quantiles: BIC-weighted equal-width histograms (Naeini et al. 2015)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: bbqOptions,
  fit: fitBbq,
  weights: { refused: 'its binnings are scored by BIC (or AIC) with the sample count n in the penalty, as netcal; a weighted BIC is not defined there' },
  checkedAgainst: 'netcal BBQ (max |Δ| 3e-7)',
  fromJSON: bbqFromJSON,
  onnx: stepEnsembleToOnnx,
});
