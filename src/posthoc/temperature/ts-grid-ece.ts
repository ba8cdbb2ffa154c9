/**
 * TS grid-ECE: temperature scaling p = softmax(z / T) with T taken, as the official code of MbLS (Liu et al. 2022,
 * `ModelWithTemperature.set_temperature`, `cross_validate='ece'`) and ACLS (Park et al. 2023, the same file) does,
 * from the grid T = 0.1, 0.2, …, 10.0 at the lowest validation top-label ECE (15 equal-width (l, u] bins by
 * default; the first minimum on ties). The same fit as `temperature` with `objective: 'grid-ece'`
 * (temperature.ts, `gridEceTemperature`), under its own name so that a suite can fit both — Guo et al.'s NLL fit and
 * the papers' code's — and its claims can name the one the paper used ("mbls < ce+ts-grid-ece on ece").
 * A temperature at an end of the grid is returned as the code returns it (the ECE minimum may then lie outside;
 * `calib fit` warns). Needs logits (probabilities become log p). Cost: 100 ECE evaluations of O(N·C).
 */
import { readHeader, readNumber } from '../json.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import type { Predictions } from '../calibrator.js';
import { logitFitData } from '../predictions.js';
import { gridEceTemperature } from './temperature.js';
import { TemperatureCalibrator } from './temperature-calibrator.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { temperatureToOnnx } from '../onnx/temperature.js';

export const tsGridEceOptions = {
  bins: numberOption(15, { integer: true, min: 1 }, 'Number of equal-width bins of the validation ECE (the papers: 15).'),
};
export type TsGridEceOptions = OptionsOf<typeof tsGridEceOptions>;

/** Fit TS grid-ECE on validation predictions (N × C) and labels (N). */
export function fitTsGridEce(input: Predictions, labels: Int32Array, options?: TsGridEceOptions): TemperatureCalibrator {
  const settings = parseOptions('ts-grid-ece options', options, tsGridEceOptions);
  const { logits, rows, cols } = logitFitData(input, labels);
  return new TemperatureCalibrator('ts-grid-ece', cols, gridEceTemperature(logits, rows, cols, labels, settings.bins), settings);
}

/** Rebuild a TS grid-ECE calibrator from its JSON (validated; errors name the field). */
export function tsGridEceFromJSON(json: unknown): TemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'ts-grid-ece', tsGridEceOptions);
  return new TemperatureCalibrator('ts-grid-ece', classes, readNumber(record, 'temperature', { positive: true, temperature: true }), settings);
}

/** The declaration of ts-grid-ece (calibrators.ts). */
export const tsGridEceDefinition = defineCalibrator({
  kind: 'ts-grid-ece',
  summary: "softmax(z / T) with T from the grid 0.1, 0.2, …, 10 at the lowest validation ECE (the MbLS / ACLS code's TS)",
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: tsGridEceOptions,
  fit: fitTsGridEce,
  weights: { refused: "it picks T by the unweighted binned ECE on a grid (the papers' protocol); use temperature, whose NLL objective takes weights" },
  checkedAgainst: 'a naive softmax + ECE over the 100 grid temperatures (test); equals temperature with objective grid-ece',
  fromJSON: tsGridEceFromJSON,
  onnx: temperatureToOnnx,
});
