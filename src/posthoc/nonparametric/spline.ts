/**
 * Spline calibration (Gupta, Rahimi, Ajanthan, Mensink, Sminchisescu & Hartley 2021, "Calibration of neural
 * networks using splines"; reference kartikgupta-at-anu/spline-calibration, `get_recalibration_function`),
 * top-label: with the validation confidences sorted, c_(1) ≤ … ≤ c_(n), and their correctness a_(i),
 *   y_i = (1/n) Σ_{j≤i} (a_(j) − c_(j))   at   t_i = (i − 1)/(n − 1)   (linspace(0, 1, n)),
 * a least-squares cubic spline with K equally spaced knots on [0, 1] ('natural', 'parabolic' or 'cubic'
 * run-out, as the reference's Spline class) is fitted to (t_i, y_i), and the recalibrated confidence at c_(i)
 * is g_i = s'(t_i) + c_(i). A new confidence c maps to the piecewise-linear interpolation of (c_(i), g_i)
 * (constant beyond the ends, see `interpolateTable`), clipped to [0, 1] (the reference does not clip; a
 * probability must lie in [0, 1]). The top probability is replaced and the other classes rescaled
 * (top-versus-all.ts). Needs probabilities. The fit solves the K × K normal equations (the reference uses
 * numpy lstsq; the same solution for these well-conditioned systems).
 */
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, readHeader, readVector } from '../json.js';
import { solveLinear } from '../solvers/linear-solve.js';
import { enumOption, numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities } from './probability-map.js';
import { recalibrateTopLabel, topLabelPairs } from '../composite/top-versus-all.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { splineToOnnx } from '../onnx/top-label.js';

export const splineOptions = {
  knots: numberOption(6, { integer: true, min: 3, max: 100 }, "Number of equally spaced knots K on [0, 1] (the paper's experiments: 6)."),
  runout: enumOption(['natural', 'parabolic', 'cubic'] as const, 'natural', "End conditions of the spline ('natural': zero second derivative at both ends; the reference's default)."),
};
export type SplineOptions = OptionsOf<typeof splineOptions>;

/** K × K matrix giving the knots' second derivatives M from the knot values (the reference's ky_to_M). */
function secondDerivativesFromKnots(K: number, h: number, runout: 'natural' | 'parabolic' | 'cubic'): Float64Array {
  const n = K - 2;
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    A[i * n + i] = 4;
    if (i > 0) A[i * n + i - 1] = 1;
    if (i < n - 1) A[i * n + i + 1] = 1;
  }
  if (runout === 'parabolic') {
    A[0] = 5;
    A[n * n - 1] = 5;
  } else if (runout === 'cubic') {
    A[0] = 6;
    if (n > 1) A[1] = 0;
    A[n * n - 1] = 6;
    if (n > 1) A[n * n - 2] = 0;
  }
  const B = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    B[i * K + i] = 6 / (h * h);
    B[i * K + i + 1] = -12 / (h * h);
    B[i * K + i + 2] = 6 / (h * h);
  }
  const inner = solveLinear(A, B, n, K);
  const out = new Float64Array(K * K);
  out.set(inner, K);
  if (runout === 'parabolic') {
    out.set(inner.subarray(0, K), 0);
    out.set(inner.subarray((n - 1) * K, n * K), (K - 1) * K);
  } else if (runout === 'cubic') {
    for (let k = 0; k < K; k++) {
      out[k] = 2 * inner[k]! - (n > 1 ? inner[K + k]! : inner[k]!);
      out[(K - 1) * K + k] = 2 * inner[(n - 1) * K + k]! - (n > 1 ? inner[(n - 2) * K + k]! : inner[(n - 1) * K + k]!);
    }
  }
  return out;
}

/** Segment j and offset x of t in the knot grid (the reference's clamping). */
function segment(t: number, K: number, h: number): [number, number] {
  let j = Math.floor(t / h);
  if (j >= K - 1) j = K - 2;
  if (j < 0) j = 0;
  return [j, t - j * h];
}

/**
 * Fit the recalibration table of spline calibration on scores s and outcomes a (0/1): returns the sorted scores
 * and the recalibrated values g_i (unclipped, as the reference).
 */
export function fitSplineTable(s: Float64Array, a: Float64Array, K: number, runout: 'natural' | 'parabolic' | 'cubic') {
  const n = s.length;
  if (n < 2) invalidArgument('input', 'at least 2 validation samples for spline calibration', `${n}`);
  const order = Array.from(s.keys()).sort((i, j) => s[i]! - s[j]!);
  const x = Float64Array.from(order, (i) => s[i]!);
  const h = 1 / (K - 1);
  const mFromK = secondDerivativesFromKnots(K, h, runout);
  const G = new Float64Array(K * K);
  const rhs = new Float64Array(K);
  const row = new Float64Array(K);
  let cumA = 0;
  let cumS = 0;
  const t = (i: number) => (n === 1 ? 0 : i / (n - 1));
  for (let i = 0; i < n; i++) {
    cumA += a[order[i]!]!;
    cumS += x[i]!;
    const y = cumA / n - cumS / n;
    const [j, u] = segment(t(i), K, h);
    const cM0 = -(u ** 3) / (6 * h) + (u * u) / 2 - (2 * h * u) / 6;
    const cM1 = u ** 3 / (6 * h) - (h * u) / 6;
    for (let k = 0; k < K; k++) row[k] = cM0 * mFromK[j * K + k]! + cM1 * mFromK[(j + 1) * K + k]!;
    row[j] = row[j]! + 1 - u / h;
    row[j + 1] = row[j + 1]! + u / h;
    for (let p = 0; p < K; p++) {
      rhs[p] = rhs[p]! + row[p]! * y;
      for (let q = 0; q < K; q++) G[p * K + q] = G[p * K + q]! + row[p]! * row[q]!;
    }
  }
  const ky = solveLinear(G, rhs, K, 1);
  const M = new Float64Array(K);
  for (let r = 0; r < K; r++) for (let k = 0; k < K; k++) M[r] = M[r]! + mFromK[r * K + k]! * ky[k]!;
  const g = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const [j, u] = segment(t(i), K, h);
    const d = (-(u * u) / (2 * h) + u - (2 * h) / 6) * M[j]! + ((u * u) / (2 * h) - h / 6) * M[j + 1]! + (-1 / h) * ky[j]! + (1 / h) * ky[j + 1]!;
    g[i] = d + x[i]!;
  }
  return { scores: x, values: g };
}

/**
 * Piecewise-linear interpolation of (x, y) at c, constant beyond the ends (the reference's interpolated_function,
 * which brackets c by the first x ≥ c and its predecessor; its weights are swapped — β·y[ind] + α·y[ind−1] with
 * α = c − x[ind−1], β = x[ind] − c — which we do not copy: this is the usual linear interpolation).
 */
export function interpolateTable(x: Float64Array, y: Float64Array, c: number): number {
  const n = x.length;
  if (c >= x[n - 1]!) return y[n - 1]!;
  if (c <= x[0]!) return y[0]!;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid]! >= c) hi = mid;
    else lo = mid + 1;
  }
  const alpha = c - x[lo - 1]!;
  const beta = x[lo]! - c;
  return alpha + beta > 0 ? (alpha * y[lo]! + beta * y[lo - 1]!) / (alpha + beta) : y[lo]!;
}

/** A fitted spline calibrator (top-label). */
export class SplineCalibrator implements Calibrator {
  readonly kind = 'spline' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof splineOptions>;
  readonly #scores: Float64Array;
  readonly #values: Float64Array;

  constructor(classes: number, scores: Float64Array, values: Float64Array, settings: SettingsOf<typeof splineOptions>) {
    this.classes = classes;
    this.#scores = Float64Array.from(scores);
    this.#values = Float64Array.from(values);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** The recalibrated top-label confidence of a confidence c, in [0, 1]. */
  confidence(c: number): number {
    return Math.min(1, Math.max(0, interpolateTable(this.#scores, this.#values, c)));
  }

  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => recalibrateTopLabel(p, rows, C, (c) => this.confidence(c)));
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('spline', this.classes, this.settings), scores: Array.from(this.#scores), values: Array.from(this.#values) };
  }
}

/** Fit top-label spline calibration on validation predictions (N × C) and labels (N). */
export function fitSpline(input: Predictions, labels: Int32Array, options?: SplineOptions): SplineCalibrator {
  const settings = parseOptions('spline options', options, splineOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const { confidence, correct } = topLabelPairs(p, rows, cols, labels);
  const { scores, values } = fitSplineTable(confidence, correct, settings.knots, settings.runout);
  return new SplineCalibrator(cols, scores, values, settings);
}

/** Rebuild a spline calibrator from its JSON. */
export function splineFromJSON(json: unknown): SplineCalibrator {
  const { record, classes, settings } = readHeader(json, 'spline', splineOptions);
  const n = Array.isArray(record.scores) ? record.scores.length : -1;
  if (n < 1) invalidArgument('json.scores', 'a non-empty array of numbers', String(record.scores));
  const scores = readVector('json.scores', record.scores, n);
  scores.forEach((v, i) => {
    if (i > 0 && !(v >= scores[i - 1]!)) invalidArgument(`json.scores[${i}]`, `a value ≥ ${scores[i - 1]} (sorted)`, String(v));
  });
  return new SplineCalibrator(classes, scores, readVector('json.values', record.values, n), settings);
}

/** The declaration of spline (calibrators.ts). */
export const splineDefinition = defineCalibrator({
  kind: 'spline',
  summary: 'top-label spline fit to the cumulative accuracy-minus-confidence curve (Gupta et al. 2021)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: splineOptions,
  fit: fitSpline,
  weights: { refused: 'its spline is fitted to the unweighted cumulative accuracy curve (Gupta et al.); a weighted curve is not implemented' },
  checkedAgainst: 'kartikgupta-at-anu/spline-calibration get_recalibration_function',
  fromJSON: splineFromJSON,
  onnx: splineToOnnx,
});
