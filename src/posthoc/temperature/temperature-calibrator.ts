/**
 * The fitted object shared by the temperature family (temperature, ts-sb-ece, ts-hb-ece, ts-grid-ece): p = softmax(z / T)
 * (Guo et al. 2017), T > 0. It preserves the argmax of every row. Probabilities as input are first turned into
 * logits log p (see predictions.ts), so softmax(log p / T) ∝ p^{1/T}.
 */
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader } from '../json.js';
import { checkPredictions, logitsOf, requireFiniteOutput, softmaxRowsInPlace } from '../predictions.js';

export type TemperatureKind = 'temperature' | 'ts-sb-ece' | 'ts-hb-ece' | 'ts-grid-ece';

export class TemperatureCalibrator implements Calibrator {
  readonly kind: TemperatureKind;
  readonly classes: number;
  /** The fitted temperature T > 0. */
  readonly temperature: number;
  readonly settings: Readonly<Record<string, unknown>>;

  constructor(kind: TemperatureKind, classes: number, temperature: number, settings: Readonly<Record<string, unknown>>) {
    this.kind = kind;
    this.classes = classes;
    this.temperature = temperature;
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** softmax(z / T) row by row: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const logits = this.applyLogits(input);
    softmaxRowsInPlace(logits.data, logits.rows, logits.cols);
    return logits;
  }

  /** z / T: N × C float64. */
  applyLogits(input: Predictions): Matrix<Float64Array> {
    const checked = checkPredictions('input', input, this.classes);
    const data = logitsOf(checked);
    const t = this.temperature;
    for (let i = 0; i < data.length; i++) data[i] = data[i]! / t;
    requireFiniteOutput(data, checked.matrix.cols, this.kind, `T = ${t}`);
    return { rows: checked.matrix.rows, cols: checked.matrix.cols, data };
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader(this.kind, this.classes, this.settings), temperature: this.temperature };
  }
}
