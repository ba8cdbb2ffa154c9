/**
 * Histogram binning (Zadrozny & Elkan 2001; Guo et al. 2017 §4.1; METHODS.md § Post-hoc calibrators),
 * one-vs-rest: for each class k, the values p_ik are put in M equal-width bins with the toolkit's (l, u]
 * convention (the shared definition in metrics/binned/binning.ts; bin m holds m/M < p ≤ (m+1)/M, p = 0 in bin 0) and each bin gets the
 * empirical frequency θ_km = |{i in bin m : y_i = k}| / |bin m| of class k among its samples; an empty bin gets
 * its midpoint (m + ½)/M (our convention: no evidence, keep roughly the input). A prediction maps p_k to θ_k,bin(p_k)
 * and each row is renormalised (a row of zeros becomes uniform 1/C). Needs probabilities (logits go through a
 * softmax). Not argmax-preserving in general.
 */
import type { FitOptions } from '../fit-progress.js';
import { binUpperClosed, equalWidthEdges } from '../../metrics/binned/binning.js';
import type { Matrix } from '../../util/matrix.js';
import { invalidArgument } from '../../util/errors.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, matrixToRows, readHeader, readMatrix } from '../json.js';
import { numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities, oneVsRestInPlace } from './probability-map.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { histogramToOnnx } from '../onnx/binning.js';

export const histogramOptions = {
  bins: numberOption(15, { integer: true, min: 1, max: 100_000 }, 'Number of equal-width bins M.'),
};
export type HistogramOptions = OptionsOf<typeof histogramOptions>;

/** A fitted histogram-binning calibrator. */
export class HistogramCalibrator implements Calibrator {
  readonly kind = 'histogram' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof histogramOptions>;
  readonly #values: Float64Array;

  constructor(classes: number, values: Float64Array, settings: SettingsOf<typeof histogramOptions>) {
    this.classes = classes;
    this.#values = Float64Array.from(values);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** θ: C × M row-major bin values in [0, 1], a copy. */
  get values(): Float64Array {
    return this.#values.slice();
  }

  /** θ_k,bin(p_k) per entry, rows renormalised: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const M = this.settings.bins;
    const edges = equalWidthEdges(M);
    return mapProbabilities(input, this.classes, (p, rows, C) => oneVsRestInPlace(p, rows, C, (v, k) => this.#values[k * M + binUpperClosed(v, M, edges)]!));
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('histogram', this.classes, this.settings), values: matrixToRows(this.#values, this.classes, this.settings.bins) };
  }
}

/**
 * Fit one-vs-rest histogram binning on validation predictions (N × C) and labels (N). With `fit.sampleWeights`
 * the counts are weighted: θ_km = Σ_{i in bin m, y_i = k} w_i / Σ_{i in bin m} w_i (a bin of zero weight is empty).
 */
export function fitHistogram(input: Predictions, labels: Int32Array, options?: HistogramOptions, fit: FitOptions = {}): HistogramCalibrator {
  const settings = parseOptions('histogram options', options, histogramOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const M = settings.bins;
  const count = new Float64Array(cols * M);
  const hits = new Float64Array(cols * M);
  const edges = equalWidthEdges(M);
  const weights = fit.sampleWeights;
  for (let i = 0; i < rows; i++) {
    const y = labels[i]!;
    const w = weights === undefined ? 1 : weights[i]!;
    if (w === 0) continue;
    for (let k = 0; k < cols; k++) {
      const b = k * M + binUpperClosed(p[i * cols + k]!, M, edges);
      count[b] = count[b]! + w;
      if (y === k) hits[b] = hits[b]! + w;
    }
  }
  const values = new Float64Array(cols * M);
  for (let k = 0; k < cols; k++) {
    for (let m = 0; m < M; m++) {
      const b = k * M + m;
      values[b] = count[b]! > 0 ? hits[b]! / count[b]! : (m + 0.5) / M;
    }
  }
  return new HistogramCalibrator(cols, values, settings);
}

/** Rebuild a histogram-binning calibrator from its JSON. */
export function histogramFromJSON(json: unknown): HistogramCalibrator {
  const { record, classes, settings } = readHeader(json, 'histogram', histogramOptions);
  const values = readMatrix('json.values', record.values, classes, settings.bins);
  for (let i = 0; i < values.length; i++) {
    if (!(values[i]! >= 0 && values[i]! <= 1)) {
      invalidArgument(`json.values[${Math.floor(i / settings.bins)}][${i % settings.bins}]`, 'a value in [0, 1]', String(values[i]));
    }
  }
  return new HistogramCalibrator(classes, values, settings);
}

/** The declaration of histogram (calibrators.ts). */
export const histogramDefinition = defineCalibrator({
  kind: 'histogram',
  summary: 'one-vs-rest histogram binning: each equal-width bin of p_k maps to the frequency of class k in it (Zadrozny & Elkan 2001)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'no',
  options: histogramOptions,
  fit: fitHistogram,
  weights: 'accepted',
  checkedAgainst: 'hand-worked bins; a naive per-class implementation',
  fromJSON: histogramFromJSON,
  onnx: histogramToOnnx,
});
