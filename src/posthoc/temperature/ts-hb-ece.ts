/**
 * TS-HB-ECE (Karandikar et al. 2021, App. C): temperature scaling p = softmax(z / T) with T minimising the
 * hard-binned top-label ECE_p (metrics/binned/ece.ts; equal-width (l, u] bins) of the validation set, found by
 * multi-resolution grid search over u = log T: level 0 evaluates `points` log-spaced temperatures in
 * [minTemperature, maxTemperature]; each further level evaluates `points` values spanning ± one previous grid
 * step around the best so far (clipped to the range). The objective is piecewise constant in T, so ties are
 * common: the first minimum in evaluation order is kept. Needs logits (probabilities become log p).
 * If the level-0 minimum is an end point of the range, strictly below the neighbouring grid point, and the ECE
 * there is not 0, the minimum may lie outside the range (e.g. logits of magnitude 10³ need T ~ 10²–10³): the fit fails with a `CalibrationFitError` naming
 * the option to widen, instead of returning the edge of the range as if it were the answer.
 * Cost: levels × points evaluations of O(N·C).
 */
import { expectedCalibrationError } from '../../metrics/binned/ece.js';
import type { FloatArray } from '../../util/matrix.js';
import { invalidArgument } from '../../util/errors.js';
import type { Predictions } from '../calibrator.js';
import { CalibrationFitError } from '../fit-error.js';
import { readHeader, readNumber } from '../json.js';
import { numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { logitFitData } from '../predictions.js';
import { TemperatureCalibrator } from './temperature-calibrator.js';
import { confidencesAt, topLabel } from './top-label.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { temperatureToOnnx } from '../onnx/temperature.js';

export const tsHbEceOptions = {
  bins: numberOption(15, { integer: true, min: 1 }, 'Number of equal-width bins.'),
  p: numberOption(1, { min: 1 }, 'Norm p ≥ 1 of the ECE (1 = the usual ECE).'),
  levels: numberOption(4, { integer: true, min: 1, max: 20 }, 'Number of resolution levels.'),
  points: numberOption(21, { integer: true, min: 3, max: 10000 }, 'Grid points per level.'),
  minTemperature: numberOption(0.05, { min: 0, exclusiveMin: true }, 'Lower end of the search range of T.'),
  maxTemperature: numberOption(20, { min: 0, exclusiveMin: true }, 'Upper end of the search range of T.'),
};
export type TsHbEceOptions = OptionsOf<typeof tsHbEceOptions>;

/** T minimising the hard-binned ECE by multi-resolution search (see the file comment). */
export function hbEceTemperature(logits: FloatArray, rows: number, cols: number, labels: Int32Array, settings: SettingsOf<typeof tsHbEceOptions>): number {
  const top = topLabel(logits, rows, cols, labels);
  const conf = new Float64Array(rows);
  const eceOptions = { bins: settings.bins, p: settings.p };
  const uMin = Math.log(settings.minTemperature);
  const uMax = Math.log(settings.maxTemperature);
  let bestU = NaN;
  let best = Infinity;
  let from = uMin;
  let to = uMax;
  let edge: 'lower' | 'upper' | null = null; // where the level-0 minimum sits, if at an end point
  const level0 = new Float64Array(settings.points); // level-0 ECE at each grid point
  for (let level = 0; level < settings.levels; level++) {
    const step = (to - from) / (settings.points - 1);
    for (let j = 0; j < settings.points; j++) {
      const u = j === settings.points - 1 ? to : from + j * step;
      const ece = expectedCalibrationError(confidencesAt(top, Math.exp(-u), conf), top.correctMask, eceOptions);
      if (level === 0) level0[j] = ece;
      if (ece < best) {
        best = ece;
        bestU = u;
        if (level === 0) edge = j === 0 ? 'lower' : j === settings.points - 1 ? 'upper' : null;
      }
    }
    from = Math.max(bestU - step, uMin);
    to = Math.min(bestU + step, uMax);
  }
  // Still decreasing into the edge (strictly below the neighbouring grid point; a plateau over the range is kept).
  const last = settings.points - 1;
  const intoEdge = edge === 'lower' ? level0[0]! < level0[1]! : edge === 'upper' ? level0[last]! < level0[last - 1]! : false;
  if (intoEdge && best > 0) {
    const option = edge === 'upper' ? 'maxTemperature' : 'minTemperature';
    const wider = edge === 'upper' ? settings.maxTemperature * 100 : settings.minTemperature / 100;
    throw new CalibrationFitError(
      'ts-hb-ece',
      `the hard-binned ECE is smallest at the ${edge} end of the search range T ∈ [${settings.minTemperature}, ` +
        `${settings.maxTemperature}] (ECE ${best.toPrecision(3)} at T = ${Math.exp(bestU).toPrecision(4)}), so its minimum ` +
        `may lie outside the range; widen it with the option ${option} (CLI: --opt ${option}=${wider}) or fit temperature scaling by NLL`,
    );
  }
  return Math.exp(bestU);
}

function checkRange(prefix: string, settings: SettingsOf<typeof tsHbEceOptions>): void {
  if (!(settings.minTemperature < settings.maxTemperature)) {
    invalidArgument(`${prefix}.maxTemperature`, `a value > minTemperature = ${settings.minTemperature}`, String(settings.maxTemperature));
  }
}

/** Fit TS-HB-ECE on validation predictions (N × C) and labels (N). */
export function fitTsHbEce(input: Predictions, labels: Int32Array, options?: TsHbEceOptions): TemperatureCalibrator {
  const settings = parseOptions('ts-hb-ece options', options, tsHbEceOptions);
  checkRange('ts-hb-ece options', settings);
  const { logits, rows, cols } = logitFitData(input, labels);
  return new TemperatureCalibrator('ts-hb-ece', cols, hbEceTemperature(logits, rows, cols, labels, settings), settings);
}

/** Rebuild a TS-HB-ECE calibrator from its JSON. */
export function tsHbEceFromJSON(json: unknown): TemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'ts-hb-ece', tsHbEceOptions);
  checkRange('json.settings', settings);
  return new TemperatureCalibrator('ts-hb-ece', classes, readNumber(record, 'temperature', { positive: true, temperature: true }), settings);
}

/** The declaration of ts-hb-ece (calibrators.ts). */
export const tsHbEceDefinition = defineCalibrator({
  kind: 'ts-hb-ece',
  summary: 'softmax(z / T) with T minimising the hard-binned ECE by grid search (Karandikar et al. 2021)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: tsHbEceOptions,
  fit: fitTsHbEce,
  weights: { refused: 'it picks T by an unweighted binned ECE; use temperature, whose NLL objective takes weights' },
  checkedAgainst: 'property: no temperature of its level-0 grid has a lower ECE',
  fromJSON: tsHbEceFromJSON,
  onnx: temperatureToOnnx,
});
