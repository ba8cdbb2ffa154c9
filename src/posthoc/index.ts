/** Post-hoc calibrators: fit on a validation split, apply, save as JSON, read back. */
export * from './calibrator.js';
export * from './calibrators.js';
export { defineCalibrator, type CalibratorDefinition, type CalibratorInput } from './calibrator-definition.js';
export { describeOption, enumOption, numberOption, parseOptions, schemaOption, type OptionSpec, type OptionSpecs, type OptionsOf, type SettingsOf } from './options.js';
export { CalibrationFitError } from './fit-error.js';
export { type FitOptions, type FitProgress } from './fit-progress.js';
export { fitCalibrator, calibratorFromJSON, calibratedLogits, requireWeightedMethod, weightedKinds } from './registry.js';
export { balancedClassWeights } from './class-weights.js';
export { fitRecordOf, withFitRecord, RecordedCalibrator, type FitRecord, type WeightsKind, type WeightsRecord } from './fit-record.js';
export {
  crossValidate,
  heldOutMetrics,
  predictionRows,
  requireFoldCount,
  stratifiedFolds,
  type CrossValidationOptions,
  type CrossValidationResult,
  type OutOfFoldMetrics,
} from './composite/cross-validation.js';
export { CvEnsembleCalibrator, CV_ENSEMBLE_KIND } from './composite/cv-ensemble.js';
export {
  DEFAULT_MIN_GROUP_SIZE,
  fitGroupwise,
  groupwiseFromJSON,
  GroupwiseCalibrator,
  GROUPWISE_KIND,
  isGroupwiseJSON,
  type GroupMember,
  type GroupRouting,
} from './composite/groupwise-calibrator.js';
export {
  defaultCandidates,
  fitAuto,
  selectCalibrator,
  selectionJson,
  SELECTION_METRICS,
  SIMPLICITY_ORDER,
  SLOW_ABOVE,
  type CandidateResult,
  type Selection,
  type SelectionMetric,
  type SelectionOptions,
} from './composite/auto-select.js';
export { atGridEceEdge, fitTemperature, temperatureFromJSON, temperatureNll, type TemperatureOptions } from './temperature/temperature.js';
export { fitTsSbEce, tsSbEceFromJSON, type TsSbEceOptions } from './temperature/ts-sb-ece.js';
export { fitTsHbEce, tsHbEceFromJSON, type TsHbEceOptions } from './temperature/ts-hb-ece.js';
export { fitTsGridEce, tsGridEceFromJSON, type TsGridEceOptions } from './temperature/ts-grid-ece.js';
export { TemperatureCalibrator, type TemperatureKind } from './temperature/temperature-calibrator.js';
export { fitEnsembleTemperature, ensembleTemperatureFromJSON, EnsembleTemperatureCalibrator, type EnsembleTemperatureOptions } from './temperature/ensemble-temperature.js';
export { fitVector, vectorFromJSON, type VectorOptions } from './scaling/vector.js';
export { fitMatrix, matrixFromJSON, type MatrixOptions } from './scaling/matrix.js';
export { fitDirichlet, dirichletFromJSON, type DirichletOptions } from './scaling/dirichlet.js';
export { LinearCalibrator, type LinearKind } from './scaling/linear-scaling.js';
export { AffineCalibrator, type LinearStructure } from './scaling/affine-calibrator.js';
export { fitHistogram, histogramFromJSON, HistogramCalibrator, type HistogramOptions } from './nonparametric/histogram.js';
export { fitIsotonicCalibrator, isotonicFromJSON, IsotonicCalibrator, type IsotonicOptions } from './nonparametric/isotonic.js';
export { fitPlatt, plattFromJSON, PlattCalibrator, type PlattOptions } from './scaling/platt.js';
export { fitBeta, betaFromJSON, BetaCalibrator, type BetaOptions } from './scaling/beta.js';
export { fitQuadraticScaling, quadraticScalingFromJSON, QuadraticScalingCalibrator, type QuadraticScalingOptions } from './scaling/quadratic-scaling.js';
export { softBinnedEce, sbEceBinCenters, SB_ECE_DEFAULTS, type SoftBinnedEceOptions } from '../metrics/smooth/soft-binned-ece.js';
export { lbfgs, type LbfgsOptions, type LbfgsResult, type Objective } from './solvers/lbfgs.js';
export { fitClassTemperature, classTemperatureFromJSON, ClassTemperatureCalibrator, type ClassTemperatureOptions } from './temperature/class-temperature.js';
export { fitTopVersusAll, topVersusAllFromJSON, TopVersusAllCalibrator, type TopVersusAllOptions } from './composite/top-versus-all.js';
export { fitTopLabel, topLabelFromJSON, TopLabelCalibrator, type TopLabelOptions } from './composite/top-label-calibrator.js';
export { fitScalingBinning, scalingBinningFromJSON, ScalingBinningCalibrator, type ScalingBinningOptions } from './nonparametric/scaling-binning.js';
export { fitVennAbers, vennAbersFromJSON, vennAbersPredict, VennAbersCalibrator, type VennAbersOptions } from './nonparametric/venn-abers.js';
export { fitScoreMap, applyScoreMap, equalMassEdges, SCORE_MAP_KINDS, type ScoreMap, type ScoreMapKind } from './nonparametric/score-map.js';
export { fitSpline, splineFromJSON, SplineCalibrator, type SplineOptions } from './nonparametric/spline.js';
export { bbqBinRange, bbqFromJSON, fitBbq, fitBbqEnsemble, type BbqCalibrator, type BbqOptions } from './nonparametric/bbq.js';
export { enirFromJSON, fitEnir, fitEnirEnsemble, type EnirCalibrator, type EnirOptions } from './nonparametric/enir.js';
export { fitNearIsotonic, fitNearIsotonicStep, nearIsotonicFromJSON, type NearIsotonicCalibrator, type NearIsotonicOptions } from './nonparametric/near-isotonic.js';
export { nearIsotonicAt, nearIsotonicPath, type NearIsotonicKnot } from './nonparametric/near-isotonic-regression.js';
export { binaryLogLikelihood, elbow, modelScores, SCORE_FUNCTIONS, type ScoreFunction } from './nonparametric/model-averaging.js';
export { applyStepEnsemble, StepEnsembleCalibrator, STEP_ENSEMBLE_MODES, type StepEnsemble, type StepEnsembleMode, type StepFunction } from './nonparametric/step-ensemble.js';
export { fitTsMix, tsMixFromJSON, TsMixCalibrator, type TsMixOptions } from './temperature/ts-mix.js';
export { fitSvs, svsFromJSON, type SvsOptions } from './scaling/svs.js';
export { fitSms, smsFromJSON, type SmsOptions } from './scaling/sms.js';
export { StructuredScalingCalibrator, type StructuredKind } from './scaling/structured-scaling.js';
