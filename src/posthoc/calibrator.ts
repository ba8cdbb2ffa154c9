/**
 * Shared types of the post-hoc calibrators (METHODS.md § Post-hoc calibrators).
 *
 * A calibrator is fitted once by a `fit…` function (or `fitCalibrator`) on a validation split and is immutable
 * afterwards: "apply before fit" cannot be written. Every fitted calibrator maps predictions of shape N × C to
 * float64 probabilities of shape N × C whose rows sum to 1, serialises to a plain JSON object and is rebuilt by
 * `calibratorFromJSON`.
 */
import type { Matrix } from '../util/matrix.js';

/**
 * Model outputs for N samples and C classes, row-major N × C, tagged with what they are:
 * `{ logits }` (any real values) or `{ probabilities }` (entries in [0, 1], rows summing to 1).
 * Each method converts to what it needs: logits → probabilities by a stable softmax, probabilities → logits as
 * log p (p clipped below at the smallest normal float64, 2.2e-308, so log p ≥ −708.4).
 */
export type Predictions = { readonly logits: Matrix } | { readonly probabilities: Matrix };

/** Format version of the JSON written by `toJSON`. */
export const CALIBRATOR_FORMAT_VERSION = 1;

/** Version of the calibkit package recorded in every calibrator's JSON (package.json's `version`). */
export { CALIBKIT_VERSION } from '../util/version.js';

/** The `version` field of a calibrator's JSON. */
export interface CalibratorVersion {
  /** Format version (currently 1). */
  readonly format: number;
  /** calibkit version that wrote the file. */
  readonly calibkit: string;
}

/** JSON of a fitted calibrator: a plain object, `JSON.stringify`-able, that round-trips bit for bit. */
export interface CalibratorJSON {
  /** The method (a `CalibratorKind`, calibrators.ts). */
  readonly kind: string;
  readonly version: CalibratorVersion;
  /** Number of classes C the calibrator was fitted for. */
  readonly classes: number;
  /** The fit options after defaults were filled in. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** Fitted parameters (method specific), e.g. `temperature: number`. */
  readonly [parameter: string]: unknown;
}

/** A fitted, immutable calibrator. */
export interface Calibrator {
  /** The method (a `CalibratorKind`, calibrators.ts). */
  readonly kind: string;
  /** Number of classes C. */
  readonly classes: number;
  /** Calibrated probabilities: N × C float64, each row sums to 1. `input` must have C columns. */
  apply(input: Predictions): Matrix<Float64Array>;
  /**
   * Calibrated logits (N × C float64) whose softmax equals `apply(input)`, for methods that are a map into logit
   * space (temperature family, vector, matrix, Dirichlet, Platt, beta): useful to bake the calibrator into an
   * exported model.
   */
  applyLogits?(input: Predictions): Matrix<Float64Array>;
  /** Plain-object serialisation, see `CalibratorJSON`. */
  toJSON(): CalibratorJSON;
}
