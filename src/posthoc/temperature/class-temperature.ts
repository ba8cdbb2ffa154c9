/**
 * Class-wise temperature scaling ("class-based temperature scaling", CTS; the `class_based_temperature_scaler`
 * of Jung et al. 2023's SCTL code, after Frenkel & Goldberger 2021): one temperature per class,
 *   q_i = softmax(z_i ⊘ T),  T ∈ ℝ^C_{>0},
 * fitted by minimising the mean NLL over u = log T (so T stays positive) with L-BFGS from T = 1. With
 * Q = softmax(z ⊘ T) and one-hot Y, ∂NLL/∂u_k = −(1/N) Σ_i (q_ik − y_ik) z_ik / T_k.
 * Unlike temperature scaling it does NOT preserve the argmax in general (classes are rescaled differently).
 * Needs logits (probabilities become log p, predictions.ts). Optional L2 penalty l2 · mean_k (log T_k)².
 */
import type { FitOptions } from '../fit-progress.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readVector, STORED_TEMPERATURE_RANGE } from '../json.js';
import { lbfgs } from '../solvers/lbfgs.js';
import { numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { checkLabels, checkPredictions, logitsOf, requireFiniteOutput, softmaxRowsInPlace } from '../predictions.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { classTemperatureToOnnx } from '../onnx/temperature.js';

export const classTemperatureOptions = {
  l2: numberOption(0, { min: 0 }, 'Strength of the L2 penalty on log T_k (mean over classes); 0 = plain NLL.'),
  maxIterations: numberOption(1000, { integer: true, min: 1 }, 'L-BFGS iteration cap.'),
};
export type ClassTemperatureOptions = OptionsOf<typeof classTemperatureOptions>;

/** A fitted class-wise temperature calibrator. */
export class ClassTemperatureCalibrator implements Calibrator {
  readonly kind = 'class-temperature' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof classTemperatureOptions>;
  readonly #temperatures: Float64Array;

  constructor(temperatures: Float64Array, settings: SettingsOf<typeof classTemperatureOptions>) {
    this.classes = temperatures.length;
    this.#temperatures = Float64Array.from(temperatures);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** T_k per class (a copy). */
  get temperatures(): Float64Array {
    return this.#temperatures.slice();
  }

  /** softmax(z ⊘ T) per row: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const out = this.applyLogits(input);
    softmaxRowsInPlace(out.data, out.rows, out.cols);
    return out;
  }

  /** z_ik / T_k: N × C float64. */
  applyLogits(input: Predictions): Matrix<Float64Array> {
    const checked = checkPredictions('input', input, this.classes);
    const C = this.classes;
    const data = logitsOf(checked);
    for (let i = 0; i < data.length; i++) data[i] = data[i]! / this.#temperatures[i % C]!;
    requireFiniteOutput(data, C, this.kind, 'z / T');
    return { rows: checked.matrix.rows, cols: C, data };
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('class-temperature', this.classes, this.settings), temperatures: Array.from(this.#temperatures) };
  }
}

/** Fit class-wise temperatures by NLL on validation predictions (N × C) and labels (N). */
export function fitClassTemperature(input: Predictions, labels: Int32Array, options?: ClassTemperatureOptions, fit: FitOptions = {}): ClassTemperatureCalibrator {
  const settings = parseOptions('class-temperature options', options, classTemperatureOptions);
  const checked = checkPredictions('input', input);
  const { rows, cols: C } = checked.matrix;
  checkLabels('labels', labels, rows, C);
  const z = logitsOf(checked);
  const scaled = new Float64Array(C);
  const objective = (u: Float64Array, gradient: Float64Array): number => {
    gradient.fill(0);
    let nll = 0;
    for (let i = 0; i < rows; i++) {
      const o = i * C;
      let max = -Infinity;
      for (let k = 0; k < C; k++) {
        scaled[k] = z[o + k]! * Math.exp(-u[k]!);
        if (scaled[k]! > max) max = scaled[k]!;
      }
      let sum = 0;
      for (let k = 0; k < C; k++) sum += Math.exp(scaled[k]! - max);
      const y = labels[i]!;
      nll += Math.log(sum) + max - scaled[y]!;
      for (let k = 0; k < C; k++) {
        const q = Math.exp(scaled[k]! - max) / sum;
        gradient[k] = gradient[k]! - (q - (k === y ? 1 : 0)) * scaled[k]!;
      }
    }
    let f = nll / rows;
    for (let k = 0; k < C; k++) gradient[k] = gradient[k]! / rows;
    if (settings.l2 > 0) {
      for (let k = 0; k < C; k++) {
        f += (settings.l2 / C) * u[k]! * u[k]!;
        gradient[k] = gradient[k]! + ((2 * settings.l2) / C) * u[k]!;
      }
    }
    return f;
  };
  const result = lbfgs(objective, new Float64Array(C), { maxIterations: settings.maxIterations, onProgress: fit.onProgress });
  const temperatures = result.x.map((u) => Math.exp(u));
  if (!result.converged || !temperatures.every((t) => Number.isFinite(t) && t > 0)) {
    throw new CalibrationFitError(
      'class-temperature',
      `L-BFGS stopped (${result.reason}) after ${result.iterations} iterations without converging ` + `(a class may be perfectly separated on the validation split); try --opt l2=1e-3`,
    );
  }
  return new ClassTemperatureCalibrator(temperatures, settings);
}

/** Rebuild a class-wise temperature calibrator from its JSON. */
export function classTemperatureFromJSON(json: unknown): ClassTemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'class-temperature', classTemperatureOptions);
  const t = readVector('json.temperatures', record.temperatures, classes);
  t.forEach((v, k) => {
    if (!(v >= STORED_TEMPERATURE_RANGE.min && v <= STORED_TEMPERATURE_RANGE.max)) {
      invalidArgument(`json.temperatures[${k}]`, `a temperature in [${STORED_TEMPERATURE_RANGE.min}, ${STORED_TEMPERATURE_RANGE.max}]`, String(v));
    }
  });
  return new ClassTemperatureCalibrator(t, settings);
}

/** The declaration of class-temperature (calibrators.ts). */
export const classTemperatureDefinition = defineCalibrator({
  kind: 'class-temperature',
  summary: 'softmax(z_k / T_k), one temperature per class by NLL (Frenkel & Goldberger 2021; Jung et al. 2023)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'no',
  options: classTemperatureOptions,
  fit: fitClassTemperature,
  weights: { refused: 'its NLL has a weighted form, but the weighted fit is not implemented yet (use temperature or vector)' },
  checkedAgainst: 'the same NLL minimised by scipy L-BFGS-B (SCTL)',
  fromJSON: classTemperatureFromJSON,
  onnx: classTemperatureToOnnx,
});
