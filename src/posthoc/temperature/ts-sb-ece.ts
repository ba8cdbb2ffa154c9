/**
 * TS-SB-ECE (Karandikar et al. 2021, §5.2 and App. C): temperature scaling p = softmax(z / T) with T minimising
 * the soft-binned ECE (metrics/smooth/soft-binned-ece.ts) of the validation top-label confidences c_i(T) = max_k softmax(z_i / T)_k
 * against the correctness a_i (which does not depend on T). Needs logits (probabilities become log p).
 *
 * Optimisation over u = log T: deterministic start at the best of 25 log-spaced temperatures in [0.05, 20],
 * then L-BFGS (lbfgs.ts) with the analytic gradient
 *   dSB/du = Σ_i (∂SB/∂c_i) · (dc_i/dβ) · (−β),  β = 1/T,  dc_i/dβ = −c_i Σ_k p_ik (z_ik − max_k z_ik).
 * Throws CalibrationFitError if L-BFGS does not converge within its cap (200 iterations).
 */
import type { FloatArray } from '../../util/matrix.js';
import type { Predictions } from '../calibrator.js';
import { CalibrationFitError } from '../fit-error.js';
import { readHeader, readNumber } from '../json.js';
import { lbfgs } from '../solvers/lbfgs.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { logitFitData } from '../predictions.js';
import { SB_ECE_DEFAULTS, softBinnedEce } from '../../metrics/smooth/soft-binned-ece.js';
import { TemperatureCalibrator } from './temperature-calibrator.js';
import { confidencesAt, topLabel, type TopLabel } from './top-label.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { temperatureToOnnx } from '../onnx/temperature.js';

export const tsSbEceOptions = {
  bins: numberOption(SB_ECE_DEFAULTS.bins, { integer: true, min: 1 }, 'Number of soft bins M.'),
  softBinTemperature: numberOption(SB_ECE_DEFAULTS.softBinTemperature, { min: 0, exclusiveMin: true }, 'Soft-bin temperature T_b.'),
  p: numberOption(SB_ECE_DEFAULTS.p, { min: 1 }, 'Norm p ≥ 1.'),
};
export type TsSbEceOptions = OptionsOf<typeof tsSbEceOptions>;

/** SB-ECE of temperature-scaled confidences as a function of u = log T, with its derivative. */
export function sbEceOfLogTemperature(top: TopLabel, logT: number, options: { bins: number; softBinTemperature: number; p: number }): { value: number; derivative: number } {
  const n = top.rows;
  const beta = Math.exp(-logT);
  const conf = new Float64Array(n);
  const dconf = new Float64Array(n);
  const grad = new Float64Array(n);
  confidencesAt(top, beta, conf, dconf);
  const value = softBinnedEce(conf, top.correct, options, grad);
  let d = 0;
  for (let i = 0; i < n; i++) d += grad[i]! * dconf[i]!;
  return { value, derivative: -beta * d };
}

/** T minimising SB-ECE on validation logits (N × C) and labels (N). */
export function sbEceTemperature(logits: FloatArray, rows: number, cols: number, labels: Int32Array, options: { bins: number; softBinTemperature: number; p: number }): number {
  const top = topLabel(logits, rows, cols, labels);
  const lo = Math.log(0.05);
  const hi = Math.log(20);
  let start = 0;
  let best = Infinity;
  for (let j = 0; j < 25; j++) {
    const u = lo + ((hi - lo) * j) / 24;
    const v = sbEceOfLogTemperature(top, u, options).value;
    if (v < best) {
      best = v;
      start = u;
    }
  }
  const result = lbfgs(
    (x, g) => {
      const r = sbEceOfLogTemperature(top, x[0]!, options);
      g[0] = r.derivative;
      return r.value;
    },
    Float64Array.of(start),
    { maxIterations: 200, gradientTolerance: 1e-10, relativeTolerance: 1e-15 },
  );
  if (!result.converged) {
    throw new CalibrationFitError(
      'ts-sb-ece',
      `the SB-ECE minimisation over log T did not converge (${result.reason} after ${result.iterations} iterations, ` + `|gradient| = ${result.gradientNorm})`,
    );
  }
  return Math.exp(result.x[0]!);
}

/** Fit TS-SB-ECE on validation predictions (N × C) and labels (N). */
export function fitTsSbEce(input: Predictions, labels: Int32Array, options?: TsSbEceOptions): TemperatureCalibrator {
  const settings = parseOptions('ts-sb-ece options', options, tsSbEceOptions);
  const { logits, rows, cols } = logitFitData(input, labels);
  return new TemperatureCalibrator('ts-sb-ece', cols, sbEceTemperature(logits, rows, cols, labels, settings), settings);
}

/** Rebuild a TS-SB-ECE calibrator from its JSON. */
export function tsSbEceFromJSON(json: unknown): TemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'ts-sb-ece', tsSbEceOptions);
  return new TemperatureCalibrator('ts-sb-ece', classes, readNumber(record, 'temperature', { positive: true, temperature: true }), settings);
}

/** The declaration of ts-sb-ece (calibrators.ts). */
export const tsSbEceDefinition = defineCalibrator({
  kind: 'ts-sb-ece',
  summary: 'softmax(z / T) with T minimising the soft-binned ECE (Karandikar et al. 2021)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: tsSbEceOptions,
  fit: fitTsSbEce,
  weights: { refused: 'it minimises the unweighted soft-binned ECE; use temperature, whose NLL objective takes weights' },
  checkedAgainst: 'SB-ECE evaluated naively from the formula; its gradient by central differences',
  fromJSON: tsSbEceFromJSON,
  onnx: temperatureToOnnx,
});
