/**
 * Temperature scaling with a uniform mixture, "ts-mix" (probmetrics, dholzmueller/probmetrics calibrators.py:
 * `get_calibrator('ts-mix')` = MixtureCalibrator(TemperatureScalingCalibrator, output_constant = 1)):
 *   q = (1 − ε) · softmax(z / T) + ε / C,   ε = c / (N + 1),
 * with T the exact NLL temperature (temperature.ts: safeguarded Halley iteration; probmetrics bisects log(1/T)
 * in [−16, 16] for 30 steps, i.e. to about 3e−8) and N the number of validation rows. The mixture (a Laplace-like
 * additive smoothing, default c = 1) bounds every probability below by ε / C, so the log loss of a confidently
 * wrong prediction stays finite. It keeps every row's argmax. Needs logits (probabilities become log p).
 *
 * Also the first stage of structured vector / matrix scaling (svs.ts, sms.ts), whose affine maps act on the
 * log of this mixture.
 */
import type { FitOptions } from '../fit-progress.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readNumber } from '../json.js';
import { numberOption, parseOptions, type OptionsOf } from '../options.js';
import { checkPredictions, logitFitData, logitsOf, requireFiniteOutput, softmaxRowsInPlace, type CheckedPredictions } from '../predictions.js';
import { nllTemperature } from './temperature.js';
import { tsMixToOnnx } from '../onnx/structured-scaling.js';
import { invalidArgument, describe } from '../../util/errors.js';

export const tsMixOptions = {
  mixtureConstant: numberOption(1, { min: 0 }, 'c: the uniform mixture weight is ε = c / (N + 1), N the validation rows (probmetrics: 1).'),
};
export type TsMixOptions = OptionsOf<typeof tsMixOptions>;

/** The fitted first stage: temperature T and uniform weight ε. */
export interface MixedTemperature {
  readonly temperature: number;
  readonly uniformWeight: number;
}

/**
 * T by exact NLL and ε = c / (N + 1) on validation logits (N × C). With sample weights the NLL is weighted and N is
 * their sum Σ w_i (so integer weights equal repeated rows).
 */
export function fitMixedTemperature(input: Predictions, labels: Int32Array, mixtureConstant: number, method: string, sampleWeights?: Float64Array): MixedTemperature & { rows: number; cols: number } {
  const { logits, rows, cols } = logitFitData(input, labels);
  const temperature = nllTemperature(logits, rows, cols, labels, method, sampleWeights);
  const n = sampleWeights ? sampleWeights.reduce((a, b) => a + b, 0) : rows;
  const uniformWeight = mixtureConstant / (n + 1);
  if (!(uniformWeight < 1)) throw new CalibrationFitError(method, `the uniform weight c / (N + 1) = ${uniformWeight} must be below 1 (lower mixtureConstant)`);
  return { temperature, uniformWeight, rows, cols };
}

/** (1 − ε) softmax(z / T) + ε / C for validated predictions: N × C float64 probabilities. */
export function mixedProbabilities(checked: CheckedPredictions, stage: MixedTemperature, kind: string): Float64Array {
  const { rows, cols } = checked.matrix;
  const data = logitsOf(checked);
  const t = stage.temperature;
  for (let i = 0; i < data.length; i++) data[i] = data[i]! / t;
  requireFiniteOutput(data, cols, kind, `T = ${t}`);
  softmaxRowsInPlace(data, rows, cols);
  const keep = 1 - stage.uniformWeight;
  const floor = stage.uniformWeight / cols;
  for (let i = 0; i < data.length; i++) data[i] = keep * data[i]! + floor;
  return data;
}

/** log of `mixedProbabilities`, in place (finite: every entry is ≥ ε / C when ε > 0). */
export function logInPlace(values: Float64Array): Float64Array {
  for (let i = 0; i < values.length; i++) values[i] = Math.log(values[i]!);
  return values;
}

/** Read `temperature` and `uniformWeight` (in [0, 1)) from a calibrator's JSON record. */
export function readMixedTemperature(record: Record<string, unknown>): MixedTemperature {
  const temperature = readNumber(record, 'temperature', { positive: true, temperature: true });
  const uniformWeight = readNumber(record, 'uniformWeight');
  if (!(uniformWeight >= 0 && uniformWeight < 1)) invalidArgument('json.uniformWeight', 'a number in [0, 1)', describe(uniformWeight));
  return { temperature, uniformWeight };
}

/** A fitted ts-mix calibrator. Immutable. */
export class TsMixCalibrator implements Calibrator {
  readonly kind = 'ts-mix';
  readonly classes: number;
  readonly temperature: number;
  /** ε, the weight of the uniform distribution. */
  readonly uniformWeight: number;
  readonly settings: Readonly<Record<string, unknown>>;

  constructor(classes: number, stage: MixedTemperature, settings: Readonly<Record<string, unknown>>) {
    this.classes = classes;
    this.temperature = stage.temperature;
    this.uniformWeight = stage.uniformWeight;
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** (1 − ε) softmax(z / T) + ε / C: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const checked = checkPredictions('input', input, this.classes);
    return { rows: checked.matrix.rows, cols: this.classes, data: mixedProbabilities(checked, this, this.kind) };
  }

  /** log q (a logit vector whose softmax is q). */
  applyLogits(input: Predictions): Matrix<Float64Array> {
    const q = this.apply(input);
    logInPlace(q.data);
    return q;
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader(this.kind, this.classes, this.settings), temperature: this.temperature, uniformWeight: this.uniformWeight };
  }
}

/** Fit ts-mix on validation predictions (N × C) and labels (N). */
export function fitTsMix(input: Predictions, labels: Int32Array, options?: TsMixOptions, fit: FitOptions = {}): TsMixCalibrator {
  const settings = parseOptions('ts-mix options', options, tsMixOptions);
  const stage = fitMixedTemperature(input, labels, settings.mixtureConstant, 'ts-mix', fit.sampleWeights);
  return new TsMixCalibrator(stage.cols, stage, settings);
}

/** Rebuild a ts-mix calibrator from its JSON. */
export function tsMixFromJSON(json: unknown): TsMixCalibrator {
  const { record, classes, settings } = readHeader(json, 'ts-mix', tsMixOptions);
  return new TsMixCalibrator(classes, readMixedTemperature(record), settings);
}

/** The declaration of ts-mix (calibrators.ts). */
export const tsMixDefinition = defineCalibrator({
  kind: 'ts-mix',
  summary: '(1 − ε) softmax(z / T) + ε / C, ε = 1 / (N + 1): temperature scaling with a uniform mixture (probmetrics code, D. Holzmüller)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: tsMixOptions,
  fit: fitTsMix,
  weights: 'accepted',
  checkedAgainst: "probmetrics' MixtureCalibrator(TemperatureScalingCalibrator) run on small and real data (fixture)",
  fromJSON: tsMixFromJSON,
  onnx: tsMixToOnnx,
});
