/**
 * Out-of-fold fitting of a calibrator (`calib fit --cv K`; scikit-learn's `CalibratedClassifierCV(cv=K)` with a
 * StratifiedKFold, here on the validation set's predictions): the N rows are split into K stratified, seeded folds
 * (`stratifiedFolds`: every fold gets each class in as nearly equal numbers as integers allow); for each fold the method is fitted on the other K − 1 folds and applied to it, giving an out-of-fold
 * prediction for every row, from which the held-out NLL, ECE and Brier score are computed. The final calibrator is
 * then either refitted on all rows ('refit', the default) or the K fold calibrators averaged ('ensemble',
 * scikit-learn's `ensemble=True`; cv-ensemble.ts).
 */
import { Random } from '../../util/random.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { describe, invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, Predictions } from '../calibrator.js';
import type { CalibratorKind, CalibratorOptions } from '../calibrators.js';
import { CvEnsembleCalibrator } from './cv-ensemble.js';
import { progressPart, type FitProgress } from '../fit-progress.js';
import { withFitRecord, type WeightsKind } from '../fit-record.js';
import { fitCalibrator } from '../registry.js';

/** Held-out metrics of the out-of-fold predictions (fractions; ECE: top-label, equal-width bins). */
export interface OutOfFoldMetrics {
  readonly nll: number;
  readonly ece: number;
  readonly brier: number;
}

/** Settings of an out-of-fold fit. */
export interface CrossValidationOptions {
  /** K ≥ 2 folds, at most N and at most the count of every class present. */
  readonly folds: number;
  /** Seed of the fold assignment (default 0). */
  readonly seed?: number;
  /** 'refit' on all rows (default) or average the K fold calibrators ('ensemble'). */
  readonly final?: 'refit' | 'ensemble';
  /** Bins of the out-of-fold ECE (default 15). */
  readonly bins?: number;
  /** Sample weights of the rows (each fold's fit takes its rows' weights) and their kind for the record. */
  readonly sampleWeights?: Float64Array;
  readonly weightsKind?: WeightsKind;
  readonly onProgress?: FitProgress;
  /** Name of the folds argument in messages (default 'folds'; the CLI passes '--cv'). */
  readonly argument?: string;
}

/** The result of an out-of-fold fit. */
export interface CrossValidationResult {
  /** The fold (0 … K − 1) of each row. */
  readonly foldOf: Int32Array;
  /** Out-of-fold calibrated probabilities, N × C. */
  readonly outOfFold: Matrix<Float64Array>;
  readonly metrics: OutOfFoldMetrics;
  /** The fold calibrators (fold k's was fitted without fold k). */
  readonly foldCalibrators: readonly Calibrator[];
  /** The final calibrator (refitted on all rows, or the fold calibrators' average), with `fit.cv` in its JSON. */
  readonly calibrator: Calibrator;
}

/**
 * Refuse K < 2, K > N and K above the count of a class present in `labels` (a fold would then miss that class),
 * naming `argument`.
 */
export function requireFoldCount(folds: unknown, labels: Int32Array, argument = 'folds'): number {
  if (typeof folds !== 'number' || !Number.isInteger(folds) || folds < 2) invalidArgument(argument, 'an integer K ≥ 2 (folds)', describe(folds));
  const n = labels.length;
  if (folds > n) invalidArgument(argument, `at most ${n} folds (one per validation row)`, `K = ${folds}`);
  const counts = new Map<number, number>();
  for (const y of labels) counts.set(y, (counts.get(y) ?? 0) + 1);
  for (const [y, count] of [...counts].sort((a, b) => a[0] - b[0])) {
    if (count < folds) invalidArgument(argument, `at most ${count} folds (class ${y} has ${count} validation rows; stratified folds need each class in every fold)`, `K = ${folds}`);
  }
  return folds;
}

/**
 * Stratified seeded folds: the rows of each class (classes in increasing order) are shuffled by one
 * `Random(seed)` (a permutation per class) and dealt to the folds in turn, continuing from where the previous class
 * stopped: each class is spread over the folds as evenly as integers allow and the fold sizes are ⌊N/K⌋ or ⌈N/K⌉.
 * Returns the fold of each row.
 */
export function stratifiedFolds(labels: Int32Array, folds: number, seed = 0, argument = 'folds'): Int32Array {
  requireFoldCount(folds, labels, argument);
  const n = labels.length;
  const members = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const list = members.get(labels[i]!);
    if (list) list.push(i);
    else members.set(labels[i]!, [i]);
  }
  const rng = new Random(seed);
  const foldOf = new Int32Array(n);
  let next = 0;
  for (const [, rows] of [...members].sort((a, b) => a[0] - b[0])) {
    const order = rng.permutation(rows.length);
    for (let j = 0; j < rows.length; j++) {
      foldOf[rows[order[j]!]!] = next;
      next = (next + 1) % folds;
    }
  }
  return foldOf;
}

/** The rows `rows` of predictions (same kind). */
export function predictionRows(input: Predictions, rows: readonly number[] | Int32Array): Predictions {
  const m = 'logits' in input ? input.logits : input.probabilities;
  const { cols, data } = m;
  const out = data instanceof Float32Array ? new Float32Array(rows.length * cols) : new Float64Array(rows.length * cols);
  rows.forEach((i, j) => out.set(data.subarray(i * cols, (i + 1) * cols), j * cols));
  const matrix = { rows: rows.length, cols, data: out };
  return 'logits' in input ? { logits: matrix } : { probabilities: matrix };
}

/** NLL, ECE (`bins` equal-width bins) and Brier score of calibrated probabilities (metrics/accumulators/evaluate.ts). */
export function heldOutMetrics(probabilities: Matrix, labels: Int32Array, bins = 15): OutOfFoldMetrics {
  const m = evaluate(probabilities, labels, { input: 'probabilities', bins });
  return { nll: m.nll, ece: m.ece, brier: m.brier };
}

/** Fit `method` out of fold (see the file comment). */
export function crossValidate<K extends CalibratorKind>(
  method: K,
  input: Predictions,
  labels: Int32Array,
  options: CalibratorOptions[K] | undefined,
  cv: CrossValidationOptions,
): CrossValidationResult {
  const seed = cv.seed ?? 0;
  const final = cv.final ?? 'refit';
  const bins = cv.bins ?? 15;
  const folds = cv.folds;
  const foldOf = stratifiedFolds(labels, folds, seed, cv.argument);
  const n = labels.length;
  const cols = ('logits' in input ? input.logits : input.probabilities).cols;
  const outOfFold = { rows: n, cols, data: new Float64Array(n * cols) };
  const foldCalibrators: Calibrator[] = [];
  const steps = folds + (final === 'refit' ? 1 : 0);
  for (let k = 0; k < folds; k++) {
    const train: number[] = [];
    const held: number[] = [];
    for (let i = 0; i < n; i++) (foldOf[i] === k ? held : train).push(i);
    const trainLabels = Int32Array.from(train, (i) => labels[i]!);
    const weights = cv.sampleWeights && Float64Array.from(train, (i) => cv.sampleWeights![i]!);
    if (weights && !weights.some((w) => w > 0)) invalidArgument('sampleWeights', `weights that are not all zero on the rows outside fold ${k + 1}`, 'all zero');
    const calibrator = fitCalibrator(method, predictionRows(input, train), trainLabels, options, {
      onProgress: progressPart(cv.onProgress, k / steps, (k + 1) / steps),
      ...(weights && { sampleWeights: weights, weightsKind: cv.weightsKind }),
    });
    foldCalibrators.push(calibrator);
    const q = calibrator.apply(predictionRows(input, held));
    held.forEach((i, j) => outOfFold.data.set(q.data.subarray(j * cols, (j + 1) * cols), i * cols));
  }
  const metrics = heldOutMetrics(outOfFold, labels, bins);
  const cvRecord = { folds, seed, stratified: true, final, bins, out_of_fold: { nll: metrics.nll, ece: metrics.ece, brier: metrics.brier } };
  let calibrator: Calibrator;
  if (final === 'refit') {
    calibrator = fitCalibrator(method, input, labels, options, {
      onProgress: progressPart(cv.onProgress, folds / steps, 1),
      ...(cv.sampleWeights && { sampleWeights: cv.sampleWeights, weightsKind: cv.weightsKind }),
    });
    calibrator = withFitRecord(calibrator, { cv: cvRecord });
  } else {
    calibrator = new CvEnsembleCalibrator(foldCalibrators, { cv: cvRecord });
  }
  return { foldOf, outOfFold, metrics, foldCalibrators, calibrator };
}
