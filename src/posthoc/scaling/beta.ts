/**
 * Beta calibration (Kull, Silva Filho & Flach 2017, "Beta calibration: a well-founded and easily implemented
 * improvement on logistic calibration for binary classifiers"; METHODS.md § Post-hoc calibrators), binary only
 * (C = 2), the three-parameter 'abm' model of the betacal reference code:
 *   q_1 = σ(a ln p − b ln(1 − p) + c),  a, b ≥ 0,  p = class-1 probability clipped to [ε, 1 − ε], ε = 2^−52,
 * fitted as a logistic regression on the features [ln p, −ln(1 − p)] with an intercept, by cross-entropy with the
 * hard labels and betacal's (negligible) L2 term ‖(a, b)‖² / (2·C_reg), C_reg = 99999999999 (scikit-learn's
 * LogisticRegression(C=99999999999) as betacal calls it; the sum-of-losses form, here divided by N). As in
 * betacal: if the fitted a < 0, refit with b alone (a = 0); else if b < 0, refit with a alone (b = 0).
 * Damped Newton from zero. Output rows [1 − q_1, q_1]; calibrated logits [0, a ln p − b ln(1 − p) + c].
 * Sample weights (`calib fit --weights`): betacal passes them to LogisticRegression.fit(…, sample_weight), whose
 * loss is Σ w_i ℓ_i + ‖(a, b)‖² / (2·C_reg); here divided by Σ w_i (same optimum), so integer weights equal repeated rows.
 */
import { invalidArgument } from '../../util/errors.js';
import type { CalibratorJSON, Predictions } from '../calibrator.js';
import { binaryLogProbabilities, BinaryScoreCalibrator, requireBinary } from './binary-score.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readNumber } from '../json.js';
import { fitLogistic } from './logistic-regression.js';
import { parseOptions, type OptionsOf } from '../options.js';
import { checkLabels, checkPredictions, type CheckedPredictions } from '../predictions.js';
import { defineCalibrator } from '../calibrator-definition.js';
import type { FitOptions } from '../fit-progress.js';
import { betaToOnnx } from '../onnx/binary.js';

export const betaOptions = {};
export type BetaOptions = OptionsOf<typeof betaOptions>;

/** The inverse regularisation strength betacal passes to LogisticRegression. */
export const BETACAL_C = 99999999999;

/** A fitted beta calibrator. */
export class BetaCalibrator extends BinaryScoreCalibrator {
  readonly kind = 'beta' as const;
  /** q_1 = σ(a ln p − b ln(1 − p) + c), a, b ≥ 0. */
  readonly a: number;
  readonly b: number;
  readonly c: number;

  constructor(a: number, b: number, c: number) {
    super();
    this.a = a;
    this.b = b;
    this.c = c;
    Object.freeze(this);
  }

  /** a ln p − b ln(1 − p) + c on the class-1 probability p. */
  protected scoresOf(checked: CheckedPredictions): Float64Array {
    const { logP, log1mP } = binaryLogProbabilities(checked);
    const s = new Float64Array(logP.length);
    for (let i = 0; i < s.length; i++) s[i] = this.a * logP[i]! - this.b * log1mP[i]! + this.c;
    return s;
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('beta', 2, {}), a: this.a, b: this.b, c: this.c };
  }
}

/** Logistic regression of `labels` on the given feature columns plus an intercept; returns the coefficients. */
function fitColumns(columns: Float64Array[], labels: Int32Array, weights?: Float64Array): Float64Array {
  const n = labels.length;
  const d = columns.length + 1;
  const X = new Float64Array(n * d);
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < columns.length; j++) X[i * d + j] = columns[j]![i]!;
    X[i * d + d - 1] = 1;
    t[i] = labels[i]!;
  }
  const rho = new Float64Array(d);
  const total = weights === undefined ? n : weights.reduce((a, b) => a + b, 0);
  for (let j = 0; j < d - 1; j++) rho[j] = 1 / (BETACAL_C * total);
  const r = fitLogistic(X, n, d, t, rho, new Float64Array(d), weights);
  if (!r.converged) {
    throw new CalibrationFitError('beta', `Newton did not converge (‖gradient‖∞ = ${r.gradientNorm.toExponential(2)})`);
  }
  return r.x;
}

/** Fit beta calibration on binary validation predictions (N × 2) and labels (N). */
export function fitBeta(input: Predictions, labels: Int32Array, options?: BetaOptions, fit: FitOptions = {}): BetaCalibrator {
  parseOptions('beta options', options, betaOptions);
  const checked = checkPredictions('input', input);
  requireBinary('beta', checked);
  checkLabels('labels', labels, checked.matrix.rows, 2);
  const { logP, log1mP } = binaryLogProbabilities(checked);
  const minusLog1mP = log1mP.map((v) => -v);
  const weights = fit.sampleWeights;
  const full = fitColumns([logP, minusLog1mP], labels, weights);
  if (full[0]! < 0) {
    const r = fitColumns([minusLog1mP], labels, weights);
    return new BetaCalibrator(0, r[0]!, r[1]!);
  }
  if (full[1]! < 0) {
    const r = fitColumns([logP], labels, weights);
    return new BetaCalibrator(r[0]!, 0, r[1]!);
  }
  return new BetaCalibrator(full[0]!, full[1]!, full[2]!);
}

/** Rebuild a beta calibrator from its JSON. */
export function betaFromJSON(json: unknown): BetaCalibrator {
  const { record, classes } = readHeader(json, 'beta', betaOptions);
  if (classes !== 2) invalidArgument('json.classes', '2 (beta calibration is binary)', String(classes));
  const a = readNumber(record, 'a');
  const b = readNumber(record, 'b');
  if (a < 0) invalidArgument('json.a', 'a number ≥ 0', String(a));
  if (b < 0) invalidArgument('json.b', 'a number ≥ 0', String(b));
  return new BetaCalibrator(a, b, readNumber(record, 'c'));
}

/** The declaration of beta (calibrators.ts). */
export const betaDefinition = defineCalibrator({
  kind: 'beta',
  summary: 'σ(a ln p − b ln(1 − p) + c) on the class-1 probability, two classes (Kull et al. 2017)',
  input: 'probabilities',
  classes: 'two',
  keepsArgmax: 'not in general',
  options: betaOptions,
  fit: fitBeta,
  weights: 'accepted',
  checkedAgainst: "betacal's abm fit (scikit-learn LogisticRegression) and its exact optimum",
  fromJSON: betaFromJSON,
  onnx: betaToOnnx,
});
