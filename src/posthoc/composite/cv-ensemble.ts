/**
 * The calibrator of `calib fit --cv K --cv-ensemble` (scikit-learn's `CalibratedClassifierCV(ensemble=True)`): the
 * K calibrators fitted on K − 1 folds each, applied together as the mean of their probabilities,
 * q_i = (1/K) Σ_k q_i^(k). Its JSON is `{ kind: 'cv-ensemble', version, classes, settings: { method },
 * members: [K calibrator JSONs], fit: { cv } }`; `calibratorFromJSON` reads it. Not exported to ONNX (see
 * onnx/index.ts: a graph averaging K member graphs is not built; refit on all rows to export).
 */
import type { Matrix } from '../../util/matrix.js';
import { describe, InvalidArgumentError, invalidArgument } from '../../util/errors.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { readFitRecord, type FitRecord } from '../fit-record.js';
import { jsonHeader, readHeader, requireRecord } from '../json.js';

export const CV_ENSEMBLE_KIND = 'cv-ensemble';

/** The mean of K fitted calibrators' probabilities. Immutable. */
export class CvEnsembleCalibrator implements Calibrator {
  readonly kind = CV_ENSEMBLE_KIND;
  readonly classes: number;
  readonly method: string;
  readonly members: readonly Calibrator[];
  readonly record: FitRecord;

  constructor(members: readonly Calibrator[], record: FitRecord) {
    if (members.length < 2) invalidArgument('members', 'at least 2 fold calibrators', `${members.length}`);
    const first = members[0]!;
    for (const [k, m] of members.entries()) {
      if (m.kind !== first.kind || m.classes !== first.classes) invalidArgument(`members[${k}]`, `a ${first.kind} calibrator for ${first.classes} classes`, `${m.kind} for ${m.classes} classes`);
    }
    this.classes = first.classes;
    this.method = first.kind;
    this.members = Object.freeze([...members]);
    this.record = Object.freeze({ ...record });
    Object.freeze(this);
  }

  /** (1/K) Σ_k members[k].apply(input): N × C float64, rows summing to 1. */
  apply(input: Predictions): Matrix<Float64Array> {
    let sum: Matrix<Float64Array> | undefined;
    for (const member of this.members) {
      const q = member.apply(input);
      if (!sum) sum = q;
      else for (let i = 0; i < q.data.length; i++) sum.data[i] = sum.data[i]! + q.data[i]!;
    }
    const inv = 1 / this.members.length;
    for (let i = 0; i < sum!.data.length; i++) sum!.data[i] = sum!.data[i]! * inv;
    return sum!;
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader(CV_ENSEMBLE_KIND, this.classes, { method: this.method }),
      members: this.members.map((m) => m.toJSON()),
      fit: JSON.parse(JSON.stringify(this.record)) as FitRecord,
    };
  }
}

/** Rebuild a cv-ensemble from its JSON; `member` reads each member (registry.ts's calibratorFromJSON). */
export function cvEnsembleFromJSON(json: unknown, member: (json: unknown) => Calibrator): CvEnsembleCalibrator {
  const record = requireRecord('json', json);
  const settings = requireRecord('json.settings', record.settings);
  readHeader({ ...record, settings: {} }, CV_ENSEMBLE_KIND, {});
  for (const key of Object.keys(settings)) if (key !== 'method') invalidArgument(`json.settings.${key}`, 'only the key method', 'an unknown key');
  const members = record.members;
  if (!Array.isArray(members) || members.length < 2) invalidArgument('json.members', 'an array of at least 2 calibrator objects', describe(members));
  const built = members.map((m, k) => {
    try {
      return member(m);
    } catch (error) {
      if (error instanceof InvalidArgumentError) invalidArgument(`json.members[${k}]`, 'a calibrator object', error.message);
      throw error;
    }
  });
  if (settings.method !== built[0]!.kind) invalidArgument('json.settings.method', JSON.stringify(built[0]!.kind), describe(settings.method));
  const classes = record.classes;
  if (built[0]!.classes !== classes) invalidArgument('json.classes', String(built[0]!.classes), describe(classes));
  return new CvEnsembleCalibrator(built, record.fit === undefined ? {} : readFitRecord(record.fit));
}
