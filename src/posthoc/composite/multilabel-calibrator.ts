/**
 * Per-label calibrators of a multi-label model (N × L independent sigmoid outputs): label l's column is seen as a
 * binary problem — logits z as the two-class logits [0, z] (softmax([0, z]) = [1 − σ(z), σ(z)]), probabilities p
 * as [1 − p, p] — and any calibrator of the registry (temperature, Platt, beta, isotonic, histogram, …) is fitted
 * on it with the 0/1 outcomes; the calibrated probability of label l is the calibrator's class-1 probability.
 * Saved as one JSON: { kind: 'multilabel', version, labels: L, method, input, calibrators: [one calibrator JSON
 * per label] }.
 */
import { invalidArgument } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorVersion, Predictions } from '../calibrator.js';
import type { CalibratorKind } from '../calibrators.js';
import { jsonHeader, requireRecord } from '../json.js';
import { calibratorFromJSON, fitCalibrator } from '../registry.js';

export const MULTILABEL_KIND = 'multilabel';

export interface MultilabelCalibratorJSON {
  readonly kind: typeof MULTILABEL_KIND;
  readonly version: CalibratorVersion;
  readonly labels: number;
  readonly method: string;
  readonly input: 'logits' | 'probabilities';
  readonly calibrators: readonly Record<string, unknown>[];
}

/** Label l's column as two-class predictions. */
function column(predictions: Matrix, kind: 'logits' | 'probabilities', l: number): Predictions {
  const { rows, cols, data } = predictions;
  const out = new Float64Array(2 * rows);
  for (let i = 0; i < rows; i++) {
    const v = data[i * cols + l]!;
    out[2 * i] = kind === 'logits' ? 0 : 1 - v;
    out[2 * i + 1] = v;
  }
  return kind === 'logits' ? { logits: matrix(rows, 2, out) } : { probabilities: matrix(rows, 2, out) };
}

export class MultilabelCalibrator {
  readonly kind = MULTILABEL_KIND;
  constructor(
    readonly method: string,
    readonly input: 'logits' | 'probabilities',
    readonly calibrators: readonly Calibrator[],
  ) {
    Object.freeze(this);
  }

  get labels(): number {
    return this.calibrators.length;
  }

  /** Calibrated probabilities N × L of N × L predictions of the kind it was fitted on. */
  apply(predictions: Matrix, kind: 'logits' | 'probabilities', argName = 'predictions'): Matrix<Float64Array> {
    if (kind !== this.input) invalidArgument(argName, `${this.input} (the calibrators were fitted on ${this.input})`, kind);
    if (predictions.cols !== this.labels) invalidArgument(argName, `${this.labels} labels (columns)`, `${predictions.cols}`);
    const { rows } = predictions;
    const out = new Float64Array(rows * this.labels);
    this.calibrators.forEach((c, l) => {
      const q = c.apply(column(predictions, kind, l)).data;
      for (let i = 0; i < rows; i++) out[i * this.labels + l] = q[2 * i + 1]!;
    });
    return matrix(rows, this.labels, out);
  }

  toJSON(): MultilabelCalibratorJSON {
    const { version } = jsonHeader(MULTILABEL_KIND, this.labels, {});
    return { kind: MULTILABEL_KIND, version, labels: this.labels, method: this.method, input: this.input, calibrators: this.calibrators.map((c) => c.toJSON()) };
  }
}

/** Fit `method` on every label's column; `targets` N × L 0/1 (row-major). Errors name the label. */
export function fitMultilabel(method: CalibratorKind, predictions: Matrix, kind: 'logits' | 'probabilities', targets: Uint8Array, options: Record<string, unknown> = {}): MultilabelCalibrator {
  const { rows, cols } = predictions;
  const calibrators = Array.from({ length: cols }, (_, l) => {
    const y = new Int32Array(rows);
    for (let i = 0; i < rows; i++) y[i] = targets[i * cols + l]!;
    try {
      return fitCalibrator(method, column(predictions, kind, l), y, options as never);
    } catch (error) {
      if (error instanceof Error) error.message = `label ${l}: ${error.message}`;
      throw error;
    }
  });
  return new MultilabelCalibrator(method, kind, calibrators);
}

/** Whether a parsed calibrator JSON is a multi-label one. */
export function isMultilabelJSON(json: unknown): boolean {
  return json !== null && typeof json === 'object' && (json as Record<string, unknown>)['kind'] === MULTILABEL_KIND;
}

/** Rebuild from `toJSON()` (validated; errors name the field). */
export function multilabelFromJSON(json: unknown): MultilabelCalibrator {
  const record = requireRecord('calibrator', json);
  const input = record['input'];
  if (input !== 'logits' && input !== 'probabilities') invalidArgument('calibrator.input', "'logits' or 'probabilities'", String(input));
  const list = record['calibrators'];
  if (!Array.isArray(list) || list.length === 0) invalidArgument('calibrator.calibrators', 'a non-empty list of calibrator JSONs', typeof list);
  if (record['labels'] !== list.length) invalidArgument('calibrator.labels', `${list.length} (one calibrator per label)`, String(record['labels']));
  const calibrators = list.map((c, l) => {
    const calibrator = calibratorFromJSON(c);
    if (calibrator.classes !== 2) invalidArgument(`calibrator.calibrators[${l}].classes`, '2 (a binary calibrator per label)', String(calibrator.classes));
    return calibrator;
  });
  return new MultilabelCalibrator(String(record['method']), input, calibrators);
}
