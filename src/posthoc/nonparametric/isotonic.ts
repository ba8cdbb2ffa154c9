/**
 * Isotonic-regression calibration (Zadrozny & Elkan 2002; METHODS.md § Post-hoc calibrators), one-vs-rest:
 * for each class k an isotonic regression of 1[y = k] on p_k (isotonic-regression.ts, scikit-learn's
 * IsotonicRegression(out_of_bounds='clip') behaviour, ties included), then each row is renormalised to sum
 * to 1 (a row whose calibrated values are all 0 becomes uniform 1/C, as scikit-learn's CalibratedClassifierCV).
 * Needs probabilities (logits go through a softmax). Unlike scikit-learn, which fits one calibrator for a
 * binary problem and sets p_0 = 1 − p_1, every class gets its own one-vs-rest fit for C = 2 as well.
 * Not argmax-preserving in general.
 */
import type { Matrix } from '../../util/matrix.js';
import { invalidArgument } from '../../util/errors.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import type { FitOptions } from '../fit-progress.js';
import { fitIsotonic, predictIsotonic, type IsotonicFit } from './isotonic-regression.js';
import { jsonHeader, readHeader, readVector, requireRecord } from '../json.js';
import { parseOptions, type OptionsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities, oneVsRestInPlace } from './probability-map.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { isotonicToOnnx } from '../onnx/binning.js';

export const isotonicOptions = {};
export type IsotonicOptions = OptionsOf<typeof isotonicOptions>;

/** A fitted one-vs-rest isotonic calibrator. */
export class IsotonicCalibrator implements Calibrator {
  readonly kind = 'isotonic' as const;
  readonly classes: number;
  readonly #fits: readonly IsotonicFit[];

  constructor(fits: readonly IsotonicFit[]) {
    this.classes = fits.length;
    this.#fits = fits.map((f) => ({ x: Float64Array.from(f.x), y: Float64Array.from(f.y) }));
    Object.freeze(this);
  }

  /** Per class: interpolation points (x increasing, y non-decreasing), copies. */
  get fits(): IsotonicFit[] {
    return this.#fits.map((f) => ({ x: f.x.slice(), y: f.y.slice() }));
  }

  /** Per-class isotonic maps of p, renormalised: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => oneVsRestInPlace(p, rows, C, (v, k) => predictIsotonic(this.#fits[k]!, v)));
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader('isotonic', this.classes, {}),
      thresholds: this.#fits.map((f) => ({ x: Array.from(f.x), y: Array.from(f.y) })),
    };
  }
}

/**
 * Fit one-vs-rest isotonic calibration on validation predictions (N × C) and labels (N); progress per class.
 * `fit.sampleWeights`: each class's PAV is weighted (isotonic-regression.ts).
 */
export function fitIsotonicCalibrator(input: Predictions, labels: Int32Array, options?: IsotonicOptions, fit: FitOptions = {}): IsotonicCalibrator {
  parseOptions('isotonic options', options, isotonicOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const fits: IsotonicFit[] = [];
  const x = new Float64Array(rows);
  const y = new Float64Array(rows);
  for (let k = 0; k < cols; k++) {
    for (let i = 0; i < rows; i++) {
      x[i] = p[i * cols + k]!;
      y[i] = labels[i] === k ? 1 : 0;
    }
    fits.push(fitIsotonic(x, y, fit.sampleWeights));
    fit.onProgress?.((k + 1) / cols);
  }
  return new IsotonicCalibrator(fits);
}

/** Rebuild an isotonic calibrator from its JSON (x strictly increasing, y non-decreasing in [0, 1]). */
export function isotonicFromJSON(json: unknown): IsotonicCalibrator {
  const { record, classes } = readHeader(json, 'isotonic', isotonicOptions);
  const thresholds = record.thresholds;
  if (!Array.isArray(thresholds) || thresholds.length !== classes) {
    invalidArgument('json.thresholds', `an array of ${classes} { x, y } objects`, String(thresholds));
  }
  const fits = thresholds.map((t: unknown, k: number) => {
    const name = `json.thresholds[${k}]`;
    const r = requireRecord(name, t);
    const len = Array.isArray(r.x) ? r.x.length : -1;
    if (len < 1) invalidArgument(`${name}.x`, 'a non-empty array of numbers', String(r.x));
    const x = readVector(`${name}.x`, r.x, len);
    const y = readVector(`${name}.y`, r.y, len);
    for (let i = 0; i < len; i++) {
      if (i > 0 && !(x[i]! > x[i - 1]!)) invalidArgument(`${name}.x[${i}]`, `a value > ${x[i - 1]} (increasing)`, String(x[i]));
      if (i > 0 && !(y[i]! >= y[i - 1]!)) invalidArgument(`${name}.y[${i}]`, `a value ≥ ${y[i - 1]} (non-decreasing)`, String(y[i]));
      if (!(y[i]! >= 0 && y[i]! <= 1)) invalidArgument(`${name}.y[${i}]`, 'a value in [0, 1]', String(y[i]));
    }
    return { x, y };
  });
  return new IsotonicCalibrator(fits);
}

/** The declaration of isotonic (calibrators.ts). */
export const isotonicDefinition = defineCalibrator({
  kind: 'isotonic',
  summary: 'one-vs-rest isotonic regression of 1[y = k] on p_k, rows renormalised (Zadrozny & Elkan 2002)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'no',
  options: isotonicOptions,
  fit: fitIsotonicCalibrator,
  weights: 'accepted',
  checkedAgainst: "scikit-learn IsotonicRegression(out_of_bounds='clip'), one-vs-rest as CalibratedClassifierCV",
  fromJSON: isotonicFromJSON,
  onnx: isotonicToOnnx,
});
