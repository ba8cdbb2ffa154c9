/**
 * How a calibrator was fitted, beyond its method and settings: the sample weights used (their kind and sum, not
 * the vector), the out-of-fold check of `calib fit --cv` and the automatic choice of `--method auto`. Stored as
 * the `fit` field of the calibrator's JSON; `calibratorFromJSON` reads it back (validated) and keeps it, so
 * `calib apply` and `calib export` see the same calibrator with its record.
 */
import type { Matrix } from '../util/matrix.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { Calibrator, CalibratorJSON, Predictions } from './calibrator.js';
import { requireRecord } from './json.js';

/** Which weights a fit used: 'sample' (given per row) or 'balanced' (w_i = N / (C · n_{y_i}), class-weights.ts). */
export type WeightsKind = 'sample' | 'balanced';

/** The weights of a fit, summarised. */
export interface WeightsRecord {
  readonly kind: WeightsKind;
  /** Σ_i w_i. */
  readonly sum: number;
  /** N, the rows weighted. */
  readonly rows: number;
}

/** The `fit` field of a calibrator's JSON: plain JSON values (cv and selection are written by cross-validation.ts and auto-select.ts). */
export interface FitRecord {
  readonly weights?: WeightsRecord;
  readonly cv?: Readonly<Record<string, unknown>>;
  readonly selection?: Readonly<Record<string, unknown>>;
}

/** Summary of `weights` for the record. */
export function weightsRecord(kind: WeightsKind, weights: Float64Array): WeightsRecord {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += weights[i]!;
  return { kind, sum, rows: weights.length };
}

/** A fitted calibrator with its fit record: applies as the calibrator, writes `fit` into its JSON. Immutable. */
export class RecordedCalibrator implements Calibrator {
  readonly kind: string;
  readonly classes: number;
  readonly inner: Calibrator;
  readonly record: FitRecord;
  readonly applyLogits?: (input: Predictions) => Matrix<Float64Array>;

  constructor(inner: Calibrator, record: FitRecord) {
    this.inner = inner instanceof RecordedCalibrator ? inner.inner : inner;
    this.kind = this.inner.kind;
    this.classes = this.inner.classes;
    this.record = Object.freeze({ ...(inner instanceof RecordedCalibrator ? inner.record : {}), ...record });
    const logits = this.inner.applyLogits;
    if (logits) this.applyLogits = (input) => logits.call(this.inner, input);
    Object.freeze(this);
  }

  apply(input: Predictions): Matrix<Float64Array> {
    return this.inner.apply(input);
  }

  toJSON(): CalibratorJSON {
    return { ...this.inner.toJSON(), fit: JSON.parse(JSON.stringify(this.record)) as FitRecord };
  }
}

/** `calibrator` with `record` added to (merged into) its fit record. */
export function withFitRecord(calibrator: Calibrator, record: FitRecord): Calibrator {
  return new RecordedCalibrator(calibrator, record);
}

/** The fit record of a calibrator ({} when it has none). */
export function fitRecordOf(calibrator: Calibrator): FitRecord {
  return calibrator instanceof RecordedCalibrator ? calibrator.record : {};
}

/** Validate the `fit` field of a calibrator file (errors name `json.fit.…`). */
export function readFitRecord(value: unknown): FitRecord {
  const record = requireRecord('json.fit', value);
  const out: { weights?: WeightsRecord; cv?: Record<string, unknown>; selection?: Record<string, unknown> } = {};
  for (const key of Object.keys(record)) {
    if (key !== 'weights' && key !== 'cv' && key !== 'selection') invalidArgument(`json.fit.${key}`, 'one of the keys weights, cv, selection', 'an unknown key');
  }
  if (record.weights !== undefined) {
    const w = requireRecord('json.fit.weights', record.weights);
    if (w.kind !== 'sample' && w.kind !== 'balanced') invalidArgument('json.fit.weights.kind', "'sample' or 'balanced'", describe(w.kind));
    if (typeof w.sum !== 'number' || !(w.sum > 0) || !Number.isFinite(w.sum)) invalidArgument('json.fit.weights.sum', 'a finite number > 0', describe(w.sum));
    if (typeof w.rows !== 'number' || !Number.isInteger(w.rows) || w.rows < 1) invalidArgument('json.fit.weights.rows', 'an integer ≥ 1', describe(w.rows));
    out.weights = { kind: w.kind, sum: w.sum, rows: w.rows };
  }
  if (record.cv !== undefined) out.cv = requireRecord('json.fit.cv', record.cv);
  if (record.selection !== undefined) out.selection = requireRecord('json.fit.selection', record.selection);
  return out;
}
