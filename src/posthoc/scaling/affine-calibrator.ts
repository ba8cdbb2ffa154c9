/**
 * The fitted object of every calibrator of the form q = softmax(W x + b): vector scaling, matrix scaling and
 * Dirichlet calibration (linear-scaling.ts; x = logits or log-probabilities) and structured vector / matrix scaling
 * (structured-scaling.ts; x = log ts-mix(z)). They differ only in their features x and in the fields their JSON adds;
 * the parameters, the map and its JSON fields are defined here once.
 *
 * Parameter vector θ = [W row-major (C values for 'diagonal' W = diag(w), C² for 'full'), b (C values)];
 * z_k = b_k + Σ_j W_kj x_j ('full') or b_k + w_k x_k ('diagonal').
 */
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { matrixToRows, readMatrix, readVector } from '../json.js';
import { checkPredictions, requireFiniteOutput, softmaxRowsInPlace, type CheckedPredictions } from '../predictions.js';

export type LinearStructure = 'diagonal' | 'full';

/** Number of weights for the structure: C (diagonal) or C² (full). */
export function weightCount(structure: LinearStructure, classes: number): number {
  return structure === 'full' ? classes * classes : classes;
}

/** Z = W x + b for every row of `features` (N × C) → N × C. */
export function linearLogits(
  features: Float64Array,
  rows: number,
  classes: number,
  structure: LinearStructure,
  theta: Float64Array,
  out: Float64Array = new Float64Array(rows * classes),
): Float64Array {
  const C = classes;
  const bOff = weightCount(structure, C);
  const full = structure === 'full';
  for (let i = 0; i < rows; i++) {
    const o = i * C;
    for (let k = 0; k < C; k++) out[o + k] = linearLogit(theta, features, o, k, C, full, bOff);
  }
  return out;
}

/** z_k = b_k + Σ_j W_kj x_j ('full') or b_k + w_k x_k ('diagonal') for the row of `features` at offset `o`. */
export function linearLogit(theta: Float64Array, features: Float64Array, o: number, k: number, C: number, full: boolean, bOff: number): number {
  let z = theta[bOff + k]!;
  if (full) {
    const w = k * C;
    for (let j = 0; j < C; j++) z += theta[w + j]! * features[o + j]!;
  } else {
    z += theta[k]! * features[o + k]!;
  }
  return z;
}

/** θ from a calibrator JSON's `weights` (C values, or C rows of C for 'full') and `bias` (C values); errors name the field. */
export function readAffineParameters(record: Readonly<Record<string, unknown>>, structure: LinearStructure, classes: number): Float64Array {
  const C = classes;
  const count = weightCount(structure, C);
  const theta = new Float64Array(count + C);
  theta.set(structure === 'full' ? readMatrix('json.weights', record['weights'], C, C) : readVector('json.weights', record['weights'], C));
  theta.set(readVector('json.bias', record['bias'], C), count);
  return theta;
}

/**
 * A fitted q = softmax(W x + b). A subclass states its `kind`, the features x of the validated input (`featuresOf`)
 * and its JSON, and freezes itself once its own fields are set.
 */
export abstract class AffineCalibrator implements Calibrator {
  abstract readonly kind: string;
  readonly classes: number;
  readonly structure: LinearStructure;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly #theta: Float64Array;

  protected constructor(classes: number, structure: LinearStructure, parameters: Float64Array, settings: Readonly<Record<string, unknown>>) {
    this.classes = classes;
    this.structure = structure;
    this.#theta = Float64Array.from(parameters);
    this.settings = Object.freeze({ ...settings });
  }

  /** Parameter vector [W row-major (C or C² values), b (C values)], a copy. */
  get parameters(): Float64Array {
    return this.#theta.slice();
  }

  /** W (C values for 'diagonal', C × C row-major for 'full'), a copy. */
  get weights(): Float64Array {
    return this.#theta.slice(0, weightCount(this.structure, this.classes));
  }

  /** b (C values), a copy. */
  get bias(): Float64Array {
    return this.#theta.slice(weightCount(this.structure, this.classes));
  }

  /** softmax(W x + b): N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    const z = this.applyLogits(input);
    softmaxRowsInPlace(z.data, z.rows, z.cols);
    return z;
  }

  /** W x + b: N × C float64, x = the features of the input (`featuresOf`). */
  applyLogits(input: Predictions): Matrix<Float64Array> {
    const checked = checkPredictions('input', input, this.classes);
    const { rows } = checked.matrix;
    const data = linearLogits(this.featuresOf(checked), rows, this.classes, this.structure, this.#theta);
    requireFiniteOutput(data, this.classes, this.kind, 'W x + b');
    return { rows, cols: this.classes, data };
  }

  /** The features x (N × C float64, a fresh array) of validated predictions. */
  protected abstract featuresOf(checked: CheckedPredictions): Float64Array;

  /** The JSON fields of W and b: `weights` (C values, or C rows of C for 'full') and `bias` (C values). */
  protected affineJSON(): { readonly weights: number[] | number[][]; readonly bias: number[] } {
    const C = this.classes;
    const w = this.weights;
    return { weights: this.structure === 'full' ? matrixToRows(w, C, C) : Array.from(w), bias: Array.from(this.bias) };
  }

  abstract toJSON(): CalibratorJSON;
}
