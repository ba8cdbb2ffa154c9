/**
 * One entry point for every post-hoc calibrator: `fitCalibrator(method, input, labels, options)` and
 * `calibratorFromJSON(json)`. The table below is a plain constant (no registration by import side effects).
 *
 * | method       | needs              | argmax kept | file            |
 * | ------------ | ------------------ | ----------- | --------------- |
 * | temperature  | logits             | yes         | temperature.ts  |
 * | ts-sb-ece    | logits             | yes         | ts-sb-ece.ts    |
 * | ts-hb-ece    | logits             | yes         | ts-hb-ece.ts    |
 * | ensemble-temperature | logits     | yes         | ensemble-temperature.ts |
 * | vector       | logits             | no          | vector.ts       |
 * | matrix       | logits             | no          | matrix.ts       |
 * | dirichlet    | log-probabilities  | no          | dirichlet.ts    |
 * | histogram    | probabilities      | no          | histogram.ts    |
 * | isotonic     | probabilities      | no          | isotonic.ts     |
 * | platt        | class-1 logit (C = 2)       | no (the 0.5 threshold moves) | platt.ts |
 * | beta         | class-1 probability (C = 2) | not in general            | beta.ts  |
 * | class-temperature | logits        | no          | class-temperature.ts |
 * | top-versus-all | probabilities    | not in general | top-versus-all.ts |
 * | top-label    | probabilities      | not in general | top-label-calibrator.ts |
 * | scaling-binning | probabilities   | no          | scaling-binning.ts |
 * | venn-abers   | probabilities      | not in general | venn-abers.ts |
 * | spline       | probabilities      | not in general | spline.ts |
 * | bbq          | probabilities      | not in general | bbq.ts |
 * | enir         | probabilities      | not in general | enir.ts |
 * | near-isotonic | probabilities     | not in general | near-isotonic.ts |
 * Inputs of the other kind are converted (predictions.ts).
 */
import { describe, invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { betaFromJSON, fitBeta, type BetaOptions } from './beta.js';
import { CALIBRATOR_KINDS, type Calibrator, type CalibratorKind, type Predictions } from './calibrator.js';
import { monotoneProgress, type FitOptions } from './fit-progress.js';
import { dirichletFromJSON, fitDirichlet, type DirichletOptions } from './dirichlet.js';
import { ensembleTemperatureFromJSON, fitEnsembleTemperature, type EnsembleTemperatureOptions } from './ensemble-temperature.js';
import { fitHistogram, histogramFromJSON, type HistogramOptions } from './histogram.js';
import { fitIsotonicCalibrator, isotonicFromJSON, type IsotonicOptions } from './isotonic.js';
import { requireRecord } from './json.js';
import { fitMatrix, matrixFromJSON, type MatrixOptions } from './matrix.js';
import { fitPlatt, plattFromJSON, type PlattOptions } from './platt.js';
import { fitTemperature, temperatureFromJSON, type TemperatureOptions } from './temperature.js';
import { fitTsHbEce, tsHbEceFromJSON, type TsHbEceOptions } from './ts-hb-ece.js';
import { fitTsSbEce, tsSbEceFromJSON, type TsSbEceOptions } from './ts-sb-ece.js';
import { fitVector, vectorFromJSON, type VectorOptions } from './vector.js';
import { classTemperatureFromJSON, fitClassTemperature, type ClassTemperatureOptions } from './class-temperature.js';
import { fitTopVersusAll, topVersusAllFromJSON, type TopVersusAllOptions } from './top-versus-all.js';
import { fitTopLabel, topLabelFromJSON, type TopLabelOptions } from './top-label-calibrator.js';
import { fitScalingBinning, scalingBinningFromJSON, type ScalingBinningOptions } from './scaling-binning.js';
import { fitVennAbers, vennAbersFromJSON, type VennAbersOptions } from './venn-abers.js';
import { fitSpline, splineFromJSON, type SplineOptions } from './spline.js';
import { bbqFromJSON, fitBbq, type BbqOptions } from './bbq.js';
import { enirFromJSON, fitEnir, type EnirOptions } from './enir.js';
import { fitNearIsotonic, nearIsotonicFromJSON, type NearIsotonicOptions } from './near-isotonic.js';

/** The options accepted by each method. */
export interface CalibratorOptions {
  temperature: TemperatureOptions;
  'ts-sb-ece': TsSbEceOptions;
  'ts-hb-ece': TsHbEceOptions;
  'ensemble-temperature': EnsembleTemperatureOptions;
  vector: VectorOptions;
  matrix: MatrixOptions;
  dirichlet: DirichletOptions;
  histogram: HistogramOptions;
  isotonic: IsotonicOptions;
  platt: PlattOptions;
  beta: BetaOptions;
  'class-temperature': ClassTemperatureOptions;
  'top-versus-all': TopVersusAllOptions;
  'top-label': TopLabelOptions;
  'scaling-binning': ScalingBinningOptions;
  'venn-abers': VennAbersOptions;
  spline: SplineOptions;
  bbq: BbqOptions;
  enir: EnirOptions;
  'near-isotonic': NearIsotonicOptions;
}

/** What each method works on (other inputs are converted). */
export const CALIBRATOR_INPUTS: Readonly<Record<CalibratorKind, 'logits' | 'log-probabilities' | 'probabilities'>> =
  Object.freeze({
    temperature: 'logits',
    'ts-sb-ece': 'logits',
    'ts-hb-ece': 'logits',
    'ensemble-temperature': 'logits',
    vector: 'logits',
    matrix: 'logits',
    dirichlet: 'log-probabilities',
    histogram: 'probabilities',
    isotonic: 'probabilities',
    platt: 'logits',
    beta: 'probabilities',
    'class-temperature': 'logits',
    'top-versus-all': 'probabilities',
    'top-label': 'probabilities',
    'scaling-binning': 'probabilities',
    'venn-abers': 'probabilities',
    spline: 'probabilities',
    bbq: 'probabilities',
    enir: 'probabilities',
    'near-isotonic': 'probabilities',
  });

type Fit = (input: Predictions, labels: Int32Array, options?: never, fit?: FitOptions) => Calibrator;

const ENTRIES: Readonly<Record<CalibratorKind, { fit: Fit; fromJSON: (json: unknown) => Calibrator }>> = Object.freeze({
  temperature: { fit: fitTemperature, fromJSON: temperatureFromJSON },
  'ts-sb-ece': { fit: fitTsSbEce, fromJSON: tsSbEceFromJSON },
  'ts-hb-ece': { fit: fitTsHbEce, fromJSON: tsHbEceFromJSON },
  'ensemble-temperature': { fit: fitEnsembleTemperature, fromJSON: ensembleTemperatureFromJSON },
  vector: { fit: fitVector, fromJSON: vectorFromJSON },
  matrix: { fit: fitMatrix, fromJSON: matrixFromJSON },
  dirichlet: { fit: fitDirichlet, fromJSON: dirichletFromJSON },
  histogram: { fit: fitHistogram, fromJSON: histogramFromJSON },
  isotonic: { fit: fitIsotonicCalibrator, fromJSON: isotonicFromJSON },
  platt: { fit: fitPlatt, fromJSON: plattFromJSON },
  beta: { fit: fitBeta, fromJSON: betaFromJSON },
  'class-temperature': { fit: fitClassTemperature, fromJSON: classTemperatureFromJSON },
  'top-versus-all': { fit: fitTopVersusAll, fromJSON: topVersusAllFromJSON },
  'top-label': { fit: fitTopLabel, fromJSON: topLabelFromJSON },
  'scaling-binning': { fit: fitScalingBinning, fromJSON: scalingBinningFromJSON },
  'venn-abers': { fit: fitVennAbers, fromJSON: vennAbersFromJSON },
  spline: { fit: fitSpline, fromJSON: splineFromJSON },
  bbq: { fit: fitBbq, fromJSON: bbqFromJSON },
  enir: { fit: fitEnir, fromJSON: enirFromJSON },
  'near-isotonic': { fit: fitNearIsotonic, fromJSON: nearIsotonicFromJSON },
});

function requireKind(argument: string, value: unknown): CalibratorKind {
  if (typeof value !== 'string' || !(CALIBRATOR_KINDS as readonly string[]).includes(value)) {
    invalidArgument(argument, `one of ${CALIBRATOR_KINDS.join(', ')}`, describe(value));
  }
  return value as CalibratorKind;
}

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
  const kind = requireKind('method', method);
  const progress = monotoneProgress(fit.onProgress);
  const calibrator = ENTRIES[kind].fit(input, labels, options as never, { onProgress: progress.report });
  progress.finish();
  return calibrator;
}

/** Rebuild any fitted calibrator from its `toJSON()` object (validated; errors name the field). */
export function calibratorFromJSON(json: unknown): Calibrator {
  const record = requireRecord('json', json);
  return ENTRIES[requireKind('json.kind', record.kind)].fromJSON(record);
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
