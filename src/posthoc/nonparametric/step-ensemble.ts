/**
 * Weighted ensembles of step functions over a probability, the fitted form of BBQ, ENIR and near-isotonic
 * regression (bbq.ts, enir.ts, near-isotonic.ts), and the calibrator that applies them as netcal does
 * (EFS-OpenSource/calibration-framework): a step function has groups with upper bounds u_0 < … < u_last = 1 and
 * values v_j; a score s ∈ [0, 1] takes the value of the first group with s ≤ u_j (groups are (u_{j−1}, u_j],
 * the first includes 0). An ensemble maps s to min(1, max(0, Σ_m w_m v_m(s))).
 *
 * Multi-class handling (`mode`):
 * - 'one-vs-rest' (netcal's): C = 2 calibrates the probability of class 1 (q, rows [1 − q, q]); C > 2 fits one
 *   ensemble per class k on (p_ik, 1[y_i = k]) and divides each row by its sum (a row summing to 0 becomes
 *   uniform); a class absent from the labels gets no ensemble and probability 0 before the division (netcal).
 * - 'top-label': one ensemble on the top-label pairs (confidence, correct); the top class gets the calibrated
 *   confidence and the other classes share the rest in proportion (top-versus-all.ts).
 * Needs probabilities (logits go through a softmax).
 */
import type { FitOptions } from '../fit-progress.js';
import { describe, invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, readHeader, readVector, requireRecord } from '../json.js';
import { enumOption, type OptionSpec, type OptionSpecs, type SettingsOf } from '../options.js';
import { binaryInPlace, fittingProbabilities, mapProbabilities, oneVsRestInPlace } from './probability-map.js';
import { edgeBin } from './score-map.js';
import { recalibrateTopLabel, topLabelPairs } from '../composite/top-versus-all.js';

export const STEP_ENSEMBLE_MODES = ['one-vs-rest', 'top-label'] as const;
export type StepEnsembleMode = (typeof STEP_ENSEMBLE_MODES)[number];

/** The `mode` option shared by the three methods. */
export const stepEnsembleModeOption: OptionSpec<StepEnsembleMode> = enumOption(
  STEP_ENSEMBLE_MODES,
  'one-vs-rest',
  "'one-vs-rest' (netcal's multi-class handling: one fit per class, rows renormalised) or 'top-label' (one fit on the confidence).",
);

export type StepEnsembleKind = 'bbq' | 'enir' | 'near-isotonic';

/** A step function: upper bounds (increasing, last 1) and one value in [0, 1] per group. */
export interface StepFunction {
  readonly upper: Float64Array;
  readonly values: Float64Array;
}

/** Step functions with weights summing to 1. */
export interface StepEnsemble {
  readonly weights: Float64Array;
  readonly steps: readonly StepFunction[];
}

/** v(s) of one step function. */
export function applyStep(step: StepFunction, s: number): number {
  return step.values[edgeBin(step.upper, s)]!;
}

/** min(1, max(0, Σ_m w_m v_m(s))). */
export function applyStepEnsemble(ensemble: StepEnsemble, s: number): number {
  let q = 0;
  for (let m = 0; m < ensemble.steps.length; m++) q += ensemble.weights[m]! * applyStep(ensemble.steps[m]!, s);
  return Math.min(1, Math.max(0, q));
}

/**
 * The ensemble as one step function: the union of all upper bounds, each group valued by the ensemble at its
 * upper bound (every model's bounds are among them, so a score of the group falls in the same group of every
 * model): equal to `applyStepEnsemble` bit for bit. Used by the ONNX exporter.
 */
export function collapseStepEnsemble(ensemble: StepEnsemble): StepFunction {
  const upper = Float64Array.from(new Set(ensemble.steps.flatMap((s) => Array.from(s.upper)))).sort();
  return { upper, values: upper.map((u) => applyStepEnsemble(ensemble, u)) };
}

/** A fitted BBQ, ENIR or near-isotonic calibrator. */
export class StepEnsembleCalibrator<S extends { readonly mode: StepEnsembleMode }> implements Calibrator {
  readonly kind: StepEnsembleKind;
  readonly classes: number;
  readonly settings: S;
  /** One ensemble per class (one-vs-rest, C > 2; null for a class absent from the labels), else one. */
  readonly ensembles: readonly (StepEnsemble | null)[];

  constructor(kind: StepEnsembleKind, classes: number, ensembles: readonly (StepEnsemble | null)[], settings: S) {
    this.kind = kind;
    this.classes = classes;
    this.ensembles = Object.freeze([...ensembles]);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** Calibrated probabilities: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => {
      const first = this.ensembles[0]!;
      if (this.settings.mode === 'top-label') recalibrateTopLabel(p, rows, C, (c) => applyStepEnsemble(first, c));
      else if (C === 2) binaryInPlace(p, rows, (p1) => applyStepEnsemble(first, p1));
      else oneVsRestInPlace(p, rows, C, (v, k) => (this.ensembles[k] ? applyStepEnsemble(this.ensembles[k]!, v) : 0));
    });
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader(this.kind, this.classes, this.settings),
      ensembles: this.ensembles.map((e) => (e ? { weights: Array.from(e.weights), steps: e.steps.map((s) => ({ upper: Array.from(s.upper), values: Array.from(s.values) })) } : null)),
    };
  }
}

/** The binary problems of `mode` (scores, outcomes; null for an absent class) and the fitted calibrator. */
export function fitStepEnsembleCalibrator<S extends { readonly mode: StepEnsembleMode }>(
  kind: StepEnsembleKind,
  settings: S,
  input: Predictions,
  labels: Int32Array,
  fitBinary: (scores: Float64Array, outcomes: Float64Array) => StepEnsemble,
  fit: FitOptions = {},
): StepEnsembleCalibrator<S> {
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const ensembles: (StepEnsemble | null)[] = [];
  if (settings.mode === 'top-label') {
    const { confidence, correct } = topLabelPairs(p, rows, cols, labels);
    ensembles.push(fitBinary(confidence, correct));
  } else {
    for (let k = cols === 2 ? 1 : 0; k < cols; k++) {
      const scores = new Float64Array(rows);
      const outcomes = new Float64Array(rows);
      let present = false;
      for (let i = 0; i < rows; i++) {
        scores[i] = p[i * cols + k]!;
        outcomes[i] = labels[i] === k ? 1 : 0;
        if (labels[i] === k) present = true;
      }
      ensembles.push(present || cols === 2 ? fitBinary(scores, outcomes) : null);
      fit.onProgress?.((k + 1) / cols);
    }
  }
  return new StepEnsembleCalibrator(kind, cols, ensembles, settings);
}

function readEnsemble(argument: string, value: unknown): StepEnsemble {
  const r = requireRecord(argument, value);
  if (!Array.isArray(r.weights) || r.weights.length < 1) invalidArgument(`${argument}.weights`, 'a non-empty array of numbers', describe(r.weights));
  const weights = readVector(`${argument}.weights`, r.weights, r.weights.length);
  weights.forEach((w, m) => {
    if (!(w >= 0 && w <= 1)) invalidArgument(`${argument}.weights[${m}]`, 'a weight in [0, 1]', String(w));
  });
  if (!Array.isArray(r.steps) || r.steps.length !== weights.length) {
    invalidArgument(`${argument}.steps`, `an array of ${weights.length} step functions (one per weight)`, describe(r.steps));
  }
  const steps = (r.steps as unknown[]).map((s, m) => {
    const name = `${argument}.steps[${m}]`;
    const step = requireRecord(name, s);
    if (!Array.isArray(step.upper) || step.upper.length < 1) invalidArgument(`${name}.upper`, 'a non-empty array of numbers', describe(step.upper));
    const upper = readVector(`${name}.upper`, step.upper, step.upper.length);
    const values = readVector(`${name}.values`, step.values, upper.length);
    upper.forEach((u, j) => {
      if (j > 0 && !(u >= upper[j - 1]!)) invalidArgument(`${name}.upper[${j}]`, `a bound ≥ ${upper[j - 1]}`, String(u));
    });
    values.forEach((v, j) => {
      if (!(v >= 0 && v <= 1)) invalidArgument(`${name}.values[${j}]`, 'a value in [0, 1]', String(v));
    });
    return { upper, values };
  });
  return { weights, steps };
}

/** Rebuild a step-ensemble calibrator of `kind` from its JSON (validated; errors name the field). */
export function stepEnsembleFromJSON<T extends OptionSpecs & { mode: OptionSpec<StepEnsembleMode> }>(
  json: unknown,
  kind: StepEnsembleKind,
  spec: T,
): StepEnsembleCalibrator<SettingsOf<T> & { readonly mode: StepEnsembleMode }> {
  const header = readHeader(json, kind, spec);
  const { record, classes } = header;
  const settings = header.settings as SettingsOf<T> & { readonly mode: StepEnsembleMode };
  const expected = settings.mode === 'top-label' || classes === 2 ? 1 : classes;
  if (!Array.isArray(record.ensembles) || record.ensembles.length !== expected) {
    invalidArgument('json.ensembles', `an array of ${expected} ensembles`, describe(record.ensembles));
  }
  const ensembles = (record.ensembles as unknown[]).map((e, k) => {
    if (e === null && expected > 1) return null;
    return readEnsemble(`json.ensembles[${k}]`, e);
  });
  return new StepEnsembleCalibrator(kind, classes, ensembles, settings);
}
