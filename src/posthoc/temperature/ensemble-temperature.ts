/**
 * Ensemble temperature scaling, ETS (Zhang, Kailkhura & Han 2020, "Mix-n-Match: Ensemble and Compositional Methods
 * for Uncertainty Calibration in Deep Learning", ICML; METHODS.md § Post-hoc calibrators):
 *   p = w₀ · softmax(z / T) + w₁ · softmax(z) + w₂ · (1/C),  T > 0, w ≥ 0, w₀ + w₁ + w₂ = 1,
 * fitted in two stages as in the official code (`ets_calibrate`, github.com/zhang64-llnl/Mix-n-Match-Calibration):
 * first T alone (the temperature-scaled member), then the weights with T fixed. Needs logits (probabilities are
 * turned into log p, so softmax(z) is the input itself). The loss of both stages is the option `loss`:
 * - 'mse' (default, as in the official code, whose `ets_calibrate` always uses it): the Brier score
 *   mean_i Σ_k (p_ik − q_ik)² (the official `mse_t` / `mse_w` average over the N·C entries: same minimisers).
 *   T by brier-temperature.ts (global grid over log T, then a root of dB/du). In w it is the quadratic
 *   wᵀAw − 2bᵀw + 1 with A_jl = mean_i Σ_k P_jik P_lik and b_j = mean_i P_jiy over the three members P_j.
 * - 'nll' (the official 'ce'): mean_i −log p_iy. T by temperature.ts (the NLL temperature, exactly temperature
 *   scaling's); in w: −mean_i log Σ_j w_j P_jiy, which depends only on each member's probability of the label.
 * Both weight problems are convex; they are solved exactly on the 2-simplex (simplex-minimize.ts: faces from the
 * sparsest, Newton on each, the first KKT point wins, so unneeded weights are exactly 0), where the official code
 * runs SLSQP from (1, 0, 0) with tol 1e−12 (it stops ~1e−6 away).
 * Differences from the official code: T is searched in [1e−4, 1e4] (official: [0.05, 5]); softmaxes subtract the
 * row maximum (official: exp of raw logits, which overflows for logits above ~710).
 *
 * Keeps the argmax: each member is a non-decreasing function of z_k within a row (softmax(z/T) and softmax(z)
 * preserve the order of the logits, the uniform member is constant), so z_a > z_b implies p_a ≥ p_b.
 * No calibrated logits (`applyLogits`): the result is a mixture of probabilities, not a map into logit space.
 */
import { expShifted, rowMax } from '../../metrics/numeric/softmax.js';
import { invalidArgument } from '../../util/errors.js';
import type { FloatArray, Matrix } from '../../util/matrix.js';
import { brierTemperature } from './brier-temperature.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { CalibrationFitError } from '../fit-error.js';
import { jsonHeader, readHeader, readNumber, readVector } from '../json.js';
import { enumOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { checkPredictions, logitFitData, logitsOf, requireFiniteOutput, softmaxRowsInPlace } from '../predictions.js';
import { minimizeOnSimplex, type SimplexObjective } from '../solvers/simplex-minimize.js';
import { nllTemperature } from './temperature.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { ensembleTemperatureToOnnx } from '../onnx/temperature.js';

export const ensembleTemperatureOptions = {
  loss: enumOption(['mse', 'nll'] as const, 'mse', "Loss of both fitting stages: 'mse' (Brier; the official code's default) or 'nll'."),
};
export type EnsembleTemperatureOptions = OptionsOf<typeof ensembleTemperatureOptions>;
type Settings = SettingsOf<typeof ensembleTemperatureOptions>;

/** Largest tolerated |w₀ + w₁ + w₂ − 1| of weights read from JSON. */
const WEIGHT_SUM_TOLERANCE = 1e-9;

/** A fitted ensemble-temperature-scaling calibrator. */
export class EnsembleTemperatureCalibrator implements Calibrator {
  readonly kind = 'ensemble-temperature' as const;
  readonly classes: number;
  /** The fitted temperature T > 0 of the first member. */
  readonly temperature: number;
  readonly settings: Settings;
  readonly #weights: Float64Array;

  constructor(classes: number, temperature: number, weights: ArrayLike<number>, settings: Settings) {
    this.classes = classes;
    this.temperature = temperature;
    this.#weights = Float64Array.from(weights);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** (w₀, w₁, w₂): weights of softmax(z / T), softmax(z) and the uniform 1/C; a copy. */
  get weights(): Float64Array {
    return this.#weights.slice();
  }

  /** w₀ softmax(z / T) + w₁ softmax(z) + w₂ / C row by row: N × C float64 (rows sum to 1). */
  apply(input: Predictions): Matrix<Float64Array> {
    const checked = checkPredictions('input', input, this.classes);
    const { rows, cols } = checked.matrix;
    const scaled = logitsOf(checked);
    const plain = Float64Array.from(scaled);
    const t = this.temperature;
    // Same arithmetic as TemperatureCalibrator (z / T, then a stable softmax): w = (1, 0, 0) reproduces it bit for bit.
    for (let i = 0; i < scaled.length; i++) scaled[i] = scaled[i]! / t;
    requireFiniteOutput(scaled, cols, this.kind, `T = ${t}`);
    softmaxRowsInPlace(scaled, rows, cols);
    softmaxRowsInPlace(plain, rows, cols);
    const [w0, w1, w2] = this.#weights as unknown as [number, number, number];
    const uniform = w2 / cols;
    for (let i = 0; i < scaled.length; i++) scaled[i] = w0 * scaled[i]! + w1 * plain[i]! + uniform;
    return { rows, cols, data: scaled };
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader(this.kind, this.classes, this.settings),
      temperature: this.temperature,
      weights: Array.from(this.#weights),
    };
  }
}

/**
 * Label probabilities of the three members, N × 3 row-major: softmax(z_i / T)_y, softmax(z_i)_y, 1/C.
 * (Stable softmax; a label probability below ~1e−323 underflows to 0.)
 */
function labelProbabilities(logits: FloatArray, rows: number, cols: number, labels: Int32Array, temperature: number): Float64Array {
  const out = new Float64Array(rows * 3);
  const scaled = new Float64Array(cols);
  const e = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const y = labels[i]!;
    for (let k = 0; k < cols; k++) scaled[k] = logits[o + k]! / temperature;
    out[3 * i] = expShiftedLabel(scaled, 0, cols, y, e);
    out[3 * i + 1] = expShiftedLabel(logits, o, cols, y, e);
    out[3 * i + 2] = 1 / cols;
  }
  return out;
}

/** softmax(z)_y of one row via the shared stable pieces (metrics/numeric/softmax.ts). */
function expShiftedLabel(z: FloatArray, offset: number, cols: number, y: number, scratch: Float64Array): number {
  const s = expShifted(z, offset, cols, rowMax(z, offset, cols), scratch);
  return scratch[y]! / s;
}

/** The Brier score of the mixture as a quadratic in w: A (3 × 3) and b (3), see the file comment. */
function brierQuadratic(logits: FloatArray, rows: number, cols: number, labels: Int32Array, temperature: number): { A: Float64Array; b: Float64Array } {
  const scaled = new Float64Array(cols);
  const p0 = new Float64Array(cols);
  const p1 = new Float64Array(cols);
  let a00 = 0;
  let a01 = 0;
  let a11 = 0;
  let b0 = 0;
  let b1 = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    for (let k = 0; k < cols; k++) scaled[k] = logits[o + k]! / temperature;
    const inv0 = 1 / expShifted(scaled, 0, cols, rowMax(scaled, 0, cols), p0);
    const inv1 = 1 / expShifted(logits, o, cols, rowMax(logits, o, cols), p1);
    let s00 = 0;
    let s01 = 0;
    let s11 = 0;
    for (let k = 0; k < cols; k++) {
      const u = p0[k]! * inv0;
      const v = p1[k]! * inv1;
      s00 += u * u;
      s01 += u * v;
      s11 += v * v;
    }
    a00 += s00;
    a01 += s01;
    a11 += s11;
    const y = labels[i]!;
    b0 += p0[y]! * inv0;
    b1 += p1[y]! * inv1;
  }
  const n = rows;
  const c = 1 / cols; // Σ_k P_jik / C = 1/C for every member j, and the uniform member's label probability
  return {
    A: Float64Array.of(a00 / n, a01 / n, c, a01 / n, a11 / n, c, c, c, c),
    b: Float64Array.of(b0 / n, b1 / n, c),
  };
}

/** Weight objectives f(w), ∇f, ∇²f on ℝ³ for the two losses (see the file comment). */
function weightObjective(loss: Settings['loss'], logits: FloatArray, rows: number, cols: number, labels: Int32Array, temperature: number): SimplexObjective {
  if (loss === 'mse') {
    const { A, b } = brierQuadratic(logits, rows, cols, labels, temperature);
    return (w, g, h) => {
      let f = 1;
      for (let j = 0; j < 3; j++) {
        let aw = 0;
        for (let l = 0; l < 3; l++) aw += A[3 * j + l]! * w[l]!;
        f += w[j]! * aw - 2 * b[j]! * w[j]!;
        g[j] = 2 * (aw - b[j]!);
      }
      for (let j = 0; j < 9; j++) h[j] = 2 * A[j]!;
      return f;
    };
  }
  const q = labelProbabilities(logits, rows, cols, labels, temperature);
  return (w, g, h) => {
    const [w0, w1, w2] = w as unknown as [number, number, number];
    let f = 0;
    g.fill(0);
    h.fill(0);
    for (let i = 0; i < rows; i++) {
      const q0 = q[3 * i]!;
      const q1 = q[3 * i + 1]!;
      const q2 = q[3 * i + 2]!;
      const s = w0 * q0 + w1 * q1 + w2 * q2;
      if (!(s > 0)) return Infinity;
      f -= Math.log(s);
      const r0 = q0 / s;
      const r1 = q1 / s;
      const r2 = q2 / s;
      g[0]! -= r0;
      g[1]! -= r1;
      g[2]! -= r2;
      h[0]! += r0 * r0;
      h[1]! += r0 * r1;
      h[2]! += r0 * r2;
      h[4]! += r1 * r1;
      h[5]! += r1 * r2;
      h[8]! += r2 * r2;
    }
    h[3] = h[1]!;
    h[6] = h[2]!;
    h[7] = h[5]!;
    for (let j = 0; j < 3; j++) g[j]! /= rows;
    for (let j = 0; j < 9; j++) h[j]! /= rows;
    return f / rows;
  };
}

/**
 * Weights (w₀, w₁, w₂) minimising the mixture's loss on the simplex for a fixed temperature
 * (logits N × C, labels N); exact zeros for inactive weights.
 */
export function ensembleWeights(logits: FloatArray, rows: number, cols: number, labels: Int32Array, temperature: number, loss: Settings['loss']): Float64Array {
  const { weights, value } = minimizeOnSimplex(weightObjective(loss, logits, rows, cols, labels, temperature), 3);
  if (!Number.isFinite(value)) {
    throw new CalibrationFitError('ensemble-temperature', `the ${loss} of the mixture is not finite anywhere on the simplex of weights`);
  }
  return weights;
}

/** Fit ensemble temperature scaling on validation predictions (N × C) and labels (N). */
export function fitEnsembleTemperature(input: Predictions, labels: Int32Array, options?: EnsembleTemperatureOptions): EnsembleTemperatureCalibrator {
  const settings = parseOptions('ensemble-temperature options', options, ensembleTemperatureOptions);
  const { logits, rows, cols } = logitFitData(input, labels);
  const temperature = settings.loss === 'mse' ? brierTemperature(logits, rows, cols, labels, 'ensemble-temperature') : nllTemperature(logits, rows, cols, labels, 'ensemble-temperature');
  const weights = ensembleWeights(logits, rows, cols, labels, temperature, settings.loss);
  return new EnsembleTemperatureCalibrator(cols, temperature, weights, settings);
}

/** Rebuild an ensemble-temperature-scaling calibrator from its JSON (validated; errors name the field). */
export function ensembleTemperatureFromJSON(json: unknown): EnsembleTemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'ensemble-temperature', ensembleTemperatureOptions);
  const temperature = readNumber(record, 'temperature', { positive: true, temperature: true });
  const weights = readVector('json.weights', record.weights, 3);
  let sum = 0;
  for (let j = 0; j < 3; j++) {
    if (!(weights[j]! >= 0)) invalidArgument(`json.weights[${j}]`, 'a weight ≥ 0', String(weights[j]));
    sum += weights[j]!;
  }
  if (!(Math.abs(sum - 1) <= WEIGHT_SUM_TOLERANCE)) {
    invalidArgument('json.weights', `3 weights summing to 1 (within ${WEIGHT_SUM_TOLERANCE})`, `weights summing to ${sum}`);
  }
  return new EnsembleTemperatureCalibrator(classes, temperature, weights, settings);
}

/** The declaration of ensemble-temperature (calibrators.ts). */
export const ensembleTemperatureDefinition = defineCalibrator({
  kind: 'ensemble-temperature',
  summary: 'w0 softmax(z / T) + w1 softmax(z) + w2 / C, T then the weights fitted (Zhang et al. 2020, ETS)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: ensembleTemperatureOptions,
  fit: fitEnsembleTemperature,
  weights: { refused: "its simplex fit of the three-way mixture follows the authors' unweighted code; a weighted version is not implemented" },
  checkedAgainst: "the authors' Mix-n-Match code (ets_calibrate)",
  fromJSON: ensembleTemperatureFromJSON,
  onnx: ensembleTemperatureToOnnx,
});
