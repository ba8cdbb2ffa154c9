/**
 * Quadratic scaling (probmetrics code, D. Holzmüller: calibrators.py BinaryLogisticCalibrator(type='quadratic'),
 * `get_calibrator('quadratic-scaling')`, and RegularizedQuadraticScalingCalibrator for the ridge), binary only (C = 2):
 *   q_1 = σ(a + b x + c x²)
 * on the class-1 logit x = clip(f, ±L), f = z_1 − z_0 (from probabilities ln max(p_1, ε) − ln max(p_0, ε),
 * ε = 2.2e−308, as Platt), L = −ln ε ≈ 708.4 (so logits and probabilities of exactly 0 / 1 give the same finite
 * x, and x² ≤ 5.1e5 stays finite). Fitted by logistic regression on the features [1, x, x²] with the hard labels
 * (probmetrics: scikit-learn LogisticRegression(penalty=None) on those features), minimising
 *   mean_i [softplus(s_i) − y_i s_i] + λ_a a² + λ_c c²,   s_i = a + b x_i + c x_i²,
 * where the optional ridge λ_a = `lambdaIntercept`, λ_c = `lambdaQuadratic` (default 0) is the one probmetrics'
 * RegularizedQuadraticScalingCalibrator(penalty='ridge') applies (its proximal step w / (1 + 2ηλ)). Exact damped
 * Newton in float64 (logistic-regression.ts) from a = ln(N₊ / N₋), b = c = 0. Affine scaling σ(a + b x) is Platt
 * scaling (platt.ts), which fits it against Platt's smoothed targets. Sample weights make the mean a weighted mean.
 * Labels separable by a + b x + c x² (one class only, or a threshold / interval of x) have no finite unpenalised
 * minimiser (scikit-learn returns large coefficients with a warning); without a ridge the fit is refused then.
 * Output rows [1 − q_1, q_1]; calibrated logits [0, a + b x + c x²].
 */
import { invalidArgument } from '../../util/errors.js';
import type { CalibratorJSON, Predictions } from '../calibrator.js';
import { binaryLogit, BinaryScoreCalibrator, requireBinary } from './binary-score.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readNumber } from '../json.js';
import { fitLogistic } from './logistic-regression.js';
import { numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { checkLabels, checkPredictions, LOG_CLIP, type CheckedPredictions } from '../predictions.js';
import { defineCalibrator } from '../calibrator-definition.js';
import type { FitOptions } from '../fit-progress.js';
import { quadraticScalingToOnnx } from '../onnx/binary.js';

/** |x| ≤ L = −ln(2.2e−308) ≈ 708.4: the largest class-1 logit that probabilities can express (binaryLogit). */
export const QUADRATIC_LOGIT_LIMIT = -Math.log(LOG_CLIP);

export const quadraticScalingOptions = {
  lambdaIntercept: numberOption(0, { min: 0 }, 'Ridge weight λ_a of λ_a a² on the intercept a, added to the mean log loss (probmetrics: 0).'),
  lambdaQuadratic: numberOption(0, { min: 0 }, 'Ridge weight λ_c of λ_c c² on the quadratic coefficient c, added to the mean log loss (probmetrics: 0).'),
};
export type QuadraticScalingOptions = OptionsOf<typeof quadraticScalingOptions>;
type QuadraticScalingSettings = SettingsOf<typeof quadraticScalingOptions>;

/** The clipped class-1 logit x of each row (length N). */
export function quadraticScalingLogit(checked: CheckedPredictions): Float64Array {
  const x = binaryLogit(checked);
  for (let i = 0; i < x.length; i++) x[i] = Math.min(Math.max(x[i]!, -QUADRATIC_LOGIT_LIMIT), QUADRATIC_LOGIT_LIMIT);
  return x;
}

/** A fitted quadratic-scaling calibrator. */
export class QuadraticScalingCalibrator extends BinaryScoreCalibrator {
  readonly kind = 'quadratic-scaling' as const;
  readonly settings: QuadraticScalingSettings;
  /** q_1 = σ(a + b x + c x²). */
  readonly a: number;
  readonly b: number;
  readonly c: number;

  constructor(settings: QuadraticScalingSettings, a: number, b: number, c: number) {
    super();
    this.settings = settings;
    this.a = a;
    this.b = b;
    this.c = c;
    Object.freeze(this);
  }

  /** a + b x + c x² on the clipped class-1 logit x. */
  protected scoresOf(checked: CheckedPredictions): Float64Array {
    const x = quadraticScalingLogit(checked);
    for (let i = 0; i < x.length; i++) x[i] = this.a + (this.b + this.c * x[i]!) * x[i]!;
    return x;
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('quadratic-scaling', 2, this.settings), a: this.a, b: this.b, c: this.c };
  }
}

/** Fit quadratic scaling on binary validation predictions (N × 2) and labels (N). */
export function fitQuadraticScaling(input: Predictions, labels: Int32Array, options?: QuadraticScalingOptions, fit: FitOptions = {}): QuadraticScalingCalibrator {
  const settings = parseOptions('quadratic-scaling options', options, quadraticScalingOptions);
  const checked = checkPredictions('input', input);
  requireBinary('quadratic-scaling', checked);
  const { rows } = checked.matrix;
  checkLabels('labels', labels, rows, 2);
  const x = quadraticScalingLogit(checked);
  const weights = fit.sampleWeights;
  let positives = 0;
  let negatives = 0;
  const X = new Float64Array(3 * rows);
  const t = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const w = weights === undefined ? 1 : weights[i]!;
    if (labels[i] === 1) positives += w;
    else negatives += w;
    X[3 * i] = 1;
    X[3 * i + 1] = x[i]!;
    X[3 * i + 2] = x[i]! * x[i]!;
    t[i] = labels[i]!;
  }
  const start = positives > 0 && negatives > 0 ? Math.log(positives / negatives) : 0;
  const rho = Float64Array.of(2 * settings.lambdaIntercept, 0, 2 * settings.lambdaQuadratic);
  const r = fitLogistic(X, rows, 3, t, rho, Float64Array.of(start, 0, 0), weights);
  if (!r.converged) {
    throw new CalibrationFitError(
      'quadratic-scaling',
      `Newton did not converge (‖gradient‖∞ = ${r.gradientNorm.toExponential(2)}): the labels may be separable by a + b x + c x², which then has no finite minimiser (give lambdaIntercept / lambdaQuadratic > 0 or use platt)`,
    );
  }
  const [a, b, c] = [r.x[0]!, r.x[1]!, r.x[2]!];
  if (settings.lambdaIntercept === 0 && settings.lambdaQuadratic === 0 && separates(x, labels, weights, a, b, c)) {
    throw new CalibrationFitError(
      'quadratic-scaling',
      'the labels are separable by a + b x + c x² (the fitted scores classify every weighted row correctly), so the unpenalised log loss has no finite minimiser (give lambdaIntercept / lambdaQuadratic > 0 or use platt)',
    );
  }
  return new QuadraticScalingCalibrator(settings, a, b, c);
}

/** Whether s = a + b x + c x² puts every row of positive weight on its label's side (y = 1 ⇔ s > 0). */
function separates(x: Float64Array, labels: Int32Array, weights: Float64Array | undefined, a: number, b: number, c: number): boolean {
  for (let i = 0; i < x.length; i++) {
    if (weights !== undefined && weights[i] === 0) continue;
    const s = a + (b + c * x[i]!) * x[i]!;
    if ((labels[i] === 1) !== s > 0) return false;
  }
  return true;
}

/** Rebuild a quadratic-scaling calibrator from its JSON. */
export function quadraticScalingFromJSON(json: unknown): QuadraticScalingCalibrator {
  const { record, classes, settings } = readHeader(json, 'quadratic-scaling', quadraticScalingOptions);
  if (classes !== 2) invalidArgument('json.classes', '2 (quadratic scaling is binary)', String(classes));
  return new QuadraticScalingCalibrator(settings, readNumber(record, 'a'), readNumber(record, 'b'), readNumber(record, 'c'));
}

/** The declaration of quadratic-scaling (calibrators.ts). */
export const quadraticScalingDefinition = defineCalibrator({
  kind: 'quadratic-scaling',
  summary: 'σ(a + b x + c x²) on the class-1 logit x, two classes, by exact Newton on the log loss with optional ridge on a and c (probmetrics code, D. Holzmüller; its affine scaling is platt)',
  input: 'logits',
  classes: 'two',
  keepsArgmax: 'not in general',
  options: quadraticScalingOptions,
  fit: fitQuadraticScaling,
  weights: 'accepted',
  checkedAgainst: 'scikit-learn LogisticRegression(penalty=None) on the features [x, x²] (fixture)',
  fromJSON: quadraticScalingFromJSON,
  onnx: quadraticScalingToOnnx,
});
