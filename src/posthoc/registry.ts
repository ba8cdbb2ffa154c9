/**
 * One entry point for every post-hoc calibrator: `fitCalibrator(method, input, labels, options)` and
 * `calibratorFromJSON(json)`, both driven by the `CALIBRATORS` record (calibrators.ts), where each method's
 * declaration states what it needs, whether it keeps the argmax and its options. Inputs of the other kind are
 * converted (predictions.ts).
 */
import { invalidArgument } from '../util/errors.js';
import { requireSampleWeights } from '../metrics/weighted/sample-weights.js';
import type { CalibratorDefinition } from './calibrator-definition.js';
import { readFitRecord, weightsRecord, withFitRecord, type WeightsKind } from './fit-record.js';
import { cvEnsembleFromJSON, CV_ENSEMBLE_KIND } from './composite/cv-ensemble.js';
import { GROUPWISE_KIND } from './composite/groupwise-calibrator.js';
import type { Matrix } from '../util/matrix.js';
import type { Calibrator, Predictions } from './calibrator.js';
import { calibratorDefinition, CALIBRATOR_KINDS, CALIBRATORS, type CalibratorKind, type CalibratorOptions } from './calibrators.js';
import { monotoneProgress, type FitOptions } from './fit-progress.js';
import { requireKnownKeys, requireRecord } from './json.js';

/** The methods whose fit takes sample weights (declared `weights: 'accepted'`). */
export function weightedKinds(): CalibratorKind[] {
  return CALIBRATOR_KINDS.filter((k) => CALIBRATORS[k].weights === 'accepted');
}

/**
 * Refuse sample weights (given as `argument`, e.g. `--weights`) for a method that cannot take them, naming the
 * method and why; returns its declaration otherwise.
 */
export function requireWeightedMethod(method: string, argument: string): CalibratorDefinition {
  const definition = calibratorDefinition('method', method);
  if (definition.weights !== 'accepted') {
    invalidArgument(argument, `a method whose fit takes sample weights (${weightedKinds().join(', ')})`, `--method ${method}: ${definition.weights.refused}`);
  }
  return definition;
}

/**
 * Fit the calibrator `method` on validation predictions (N × C) and labels (N, Int32Array). Options are
 * validated (unknown or invalid options throw `InvalidArgumentError` naming them). Deterministic: the same
 * inputs give bit-identical JSON. `fit.onProgress` receives the fraction done (non-decreasing, ending with 1 on
 * success; fit-progress.ts). `fit.sampleWeights` (N values ≥ 0, not all zero) weight the fit of a method that
 * accepts them (`requireWeightedMethod`; the others are refused) and are recorded, as their kind (`weightsKind`,
 * default 'sample') and sum, in the JSON's `fit.weights`.
 */
export function fitCalibrator<K extends CalibratorKind>(
  method: K,
  input: Predictions,
  labels: Int32Array,
  options?: CalibratorOptions[K],
  fit: FitOptions & { readonly weightsKind?: WeightsKind } = {},
): Calibrator {
  const definition = calibratorDefinition('method', method);
  let sampleWeights: Float64Array | undefined;
  if (fit.sampleWeights !== undefined) {
    requireWeightedMethod(method, 'sampleWeights');
    sampleWeights = requireSampleWeights(fit.sampleWeights, labels.length, 'sampleWeights');
  }
  const progress = monotoneProgress(fit.onProgress);
  const calibrator = definition.fit(input, labels, options as never, { onProgress: progress.report, ...(sampleWeights && { sampleWeights }), ...(fit.onSolved && { onSolved: fit.onSolved }) });
  progress.finish();
  return sampleWeights ? withFitRecord(calibrator, { weights: weightsRecord(fit.weightsKind ?? 'sample', sampleWeights) }) : calibrator;
}

/**
 * Rebuild any fitted calibrator from its `toJSON()` object (validated; errors name the field). A key the
 * calibrator's own JSON does not have — at any depth, e.g. a misspelt `temprature` beside `temperature` — is refused
 * naming its path, as suite files refuse theirs: the file is compared with what `toJSON()` writes for the calibrator
 * it describes.
 */
export function calibratorFromJSON(json: unknown): Calibrator {
  const full = requireRecord('json', json);
  if (full.kind === CV_ENSEMBLE_KIND) return cvEnsembleFromJSON(full, calibratorFromJSON);
  if (full.kind === GROUPWISE_KIND) {
    invalidArgument('json.kind', 'a calibrator applied to predictions alone (a group-wise calibrator needs a group id per row: groupwiseFromJSON, calib apply --groups)', '"groupwise"');
  }
  const { fit: fitField, ...record } = full;
  let calibrator = calibratorDefinition('json.kind', record.kind).fromJSON(record);
  if (fitField !== undefined) calibrator = withFitRecord(calibrator, readFitRecord(fitField));
  requireKnownKeys('json', full, calibrator.toJSON(), `${/^[aeiou]/.test(calibrator.kind) ? 'an' : 'a'} ${calibrator.kind} calibrator`);
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
