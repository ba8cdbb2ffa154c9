/**
 * One entry point for every post-hoc calibrator: `fitCalibrator(method, input, labels, options)` and
 * `calibratorFromJSON(json)`, both driven by the `CALIBRATORS` record (calibrators.ts), where each method's
 * declaration states what it needs, whether it keeps the argmax and its options. Inputs of the other kind are
 * converted (predictions.ts).
 */
import { invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import type { Calibrator, Predictions } from './calibrator.js';
import { calibratorDefinition, type CalibratorKind, type CalibratorOptions } from './calibrators.js';
import { monotoneProgress, type FitOptions } from './fit-progress.js';
import { requireKnownKeys, requireRecord } from './json.js';

/**
 * Fit the calibrator `method` on validation predictions (N × C) and labels (N, Int32Array). Options are
 * validated (unknown or invalid options throw `InvalidArgumentError` naming them). Deterministic: the same
 * inputs give bit-identical JSON. `fit.onProgress` receives the fraction done (non-decreasing, ending with 1 on
 * success; fit-progress.ts).
 */
export function fitCalibrator<K extends CalibratorKind>(
  method: K,
  input: Predictions,
  labels: Int32Array,
  options?: CalibratorOptions[K],
  fit: FitOptions = {},
): Calibrator {
  const definition = calibratorDefinition('method', method);
  const progress = monotoneProgress(fit.onProgress);
  const calibrator = definition.fit(input, labels, options as never, { onProgress: progress.report });
  progress.finish();
  return calibrator;
}

/**
 * Rebuild any fitted calibrator from its `toJSON()` object (validated; errors name the field). A key the
 * calibrator's own JSON does not have — at any depth, e.g. a misspelt `temprature` beside `temperature` — is refused
 * naming its path, as suite files refuse theirs: the file is compared with what `toJSON()` writes for the calibrator
 * it describes.
 */
export function calibratorFromJSON(json: unknown): Calibrator {
  const record = requireRecord('json', json);
  const calibrator = calibratorDefinition('json.kind', record.kind).fromJSON(record);
  requireKnownKeys('json', record, calibrator.toJSON(), `${/^[aeiou]/.test(calibrator.kind) ? 'an' : 'a'} ${calibrator.kind} calibrator`);
  return calibrator;
}

/**
 * Calibrated logits (N × C float64) of a calibrator that is a map into logit space (temperature family,
 * vector, matrix, Dirichlet, Platt, beta, class-wise temperature); throws `InvalidArgumentError` for histogram,
 * isotonic, ensemble temperature scaling, top-versus-all, top-label, scaling-binning, Venn–Abers, spline, BBQ, ENIR and near-isotonic (maps of
 * probabilities, not into logit space).
 */
export function calibratedLogits(calibrator: Calibrator, input: Predictions): Matrix<Float64Array> {
  if (!calibrator.applyLogits) {
    invalidArgument('calibrator', 'a calibrator with calibrated logits (not a binning, isotonic, Venn-Abers, top-label or ensemble method)', JSON.stringify(calibrator.kind));
  }
  return calibrator.applyLogits(input);
}
