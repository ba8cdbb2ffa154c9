/** Public API of the metrics layer (plain TypeScript on typed arrays; no engine). */
export type { BinConvention, ReliabilityBin, ReliabilityData } from './binned/reliability-types.js';
export {
  DEFAULT_CONVENTION,
  requireBins,
  requireConvention,
  equalWidthEdges,
  equalWidthBin,
  binUpperClosed,
  binLowerClosed,
  assignEqualWidthBins,
  equalMassBinOfRank,
  equalMassBoundaries,
  equalMassStart,
  MAX_BINS,
  interpEqualMassEdges,
  midpointEqualMassEdges,
  upperEdgeBin,
  countAtMost,
} from './binned/binning.js';
export { argsortStable } from './numeric/argsort.js';
export { type BinSums, equalWidthBinSums, binnedCalibrationError, maximumBinGap, overconfidenceFromBins } from './binned/bin-statistics.js';
export { softmax, logSoftmax } from './numeric/softmax.js';
export { PROBABILITY_SUM_TOLERANCE, type PredictionKind, type Labels } from './validation.js';
export { softBinnedEce, sbEceBinCenters, SB_ECE_DEFAULTS, type SoftBinnedEceOptions } from './smooth/soft-binned-ece.js';
export { expectedCalibrationError, maximumCalibrationError, overconfidenceError, type EceOptions, type EqualWidthOptions } from './binned/ece.js';
export { labelBinnedCalibrationError } from './binned/label-binned-ece.js';
export { adaptiveCalibrationError, type AdaptiveScheme, type AdaptiveEceOptions } from './binned/adaptive-ece.js';
export { ksError } from './statistical-tests/ks-error.js';
export { debiasedCalibrationError } from './binned/debiased-ece.js';
export { sweepCalibrationError, type SweepOptions, type SweepResult } from './binned/sweep-ece.js';
export { ClasswiseAccumulator, type ClasswiseOptions } from './accumulators/classwise-accumulator.js';
export { marginalCalibrationError, type MarginalBinning, type MarginalOptions } from './binned/marginal-ece.js';
export { classwiseCalibrationError } from './binned/classwise-ece.js';
export { clippedLogLoss } from './clipped-log-loss.js';
export { separateOneClasswiseEce, type ClasswiseReduction } from './binned/separate-one-classwise-ece.js';
export { auroc, oodAuroc, errorDetectionAuroc } from './selective/auroc.js';
export { reliabilityDiagram } from './binned/reliability-diagram.js';
export { TopLabelAccumulator, type TopLabelOptions, type TopLabelMetrics } from './accumulators/top-label-accumulator.js';
export { CalibrationAccumulator, NLL_CLIP, type CalibrationOptions, type CalibrationMetrics, type CalibrationAccumulatorState } from './accumulators/calibration-accumulator.js';
export type { TopLabelState } from './accumulators/top-label-accumulator.js';
export type { ClasswiseState } from './accumulators/classwise-accumulator.js';
export { accumulateParallel, evaluateParallel, defaultThreads, PARALLEL_MIN_ROWS, MAX_THREADS, type ParallelOptions } from './accumulators/parallel-evaluate.js';
export { sharedFloat32Array, sharedFloat64Array, isShared, toShared } from './accumulators/shared-arrays.js';
export { evaluate, METRIC_NAMES, type MetricName } from './accumulators/evaluate.js';
export { METRICS, TOP_LABEL_METRICS, RECORD_METRICS, RECORD_METRIC_NAMES, metricDefinition, type RecordMetricName, type TopLabelMetricName } from './record/metric-registry.js';
export { OPT_IN_METRICS, OPT_IN_METRIC_NAMES, isOptInMetricName, optInDefinition, requireOptInNames, type OptInMetricName } from './record/opt-in-metrics.js';
export { computeOptIn, evaluateOptIn, evaluateOptInWeighted } from './record/evaluate-opt-in.js';
export { defineMetric, type MetricDefinition, type MetricDirection, type MetricShape, type RowBlock, type WeightedDefinition } from './record/metric-definition.js';
export { DIRECTIONAL_METRIC_NAMES, isMetricName, isRecordMetricName, metricDigits, metricDirection, metricHeader, metricShortName } from './record/metric-display.js';
export { weightedContext, type WeightedContext, type WeightedRows, type WeightSettings } from './weighted/weighted-context.js';
export { MetricContext, type ClassStatistics } from './record/metric-context.js';
export { MetricState, stateBuffers, type MergeRule, type StateField, type StateSpec, type StateSnapshot } from './accumulators/metric-state.js';
export { bootstrapInterval, bootstrapMetric, quantile, type BootstrapOptions, type ConfidenceInterval } from './bootstrap.js';
export { topLabel } from './top-label.js';
export { smoothEce, SmoothEceEvaluator, type SmoothEceResult } from './smooth/smooth-ece.js';
export { smoothedReliability, type SmoothedReliability, type SmoothedReliabilityOptions } from './smooth/smoothed-reliability.js';
export { riskCoverageCurve, selectivePredictionMetrics, riskAtCoverage, coverageAtRisk, type RiskCoverageCurve, type SelectiveMetrics } from './selective/risk-coverage.js';
export { fprAtTpr, errorFprAtTpr } from './selective/fpr-at-tpr.js';
export { mmce, MMCE_WIDTH } from './smooth/mmce.js';
export { spiegelhalterTest, type TestResult } from './statistical-tests/spiegelhalter-test.js';
export { cumulativeCalibrationTests, brownianMaxAbsCdf, brownianRangeCdf, type CumulativeTests } from './statistical-tests/cumulative-calibration-tests.js';
export { corpDecomposition, type CorpDecomposition } from './corp-decomposition.js';
export { calibrationRefinement, REFINEMENT_CALIBRATORS, type CalibrationRefinement, type LossSplit, type RefinementCalibrator } from './calibration-refinement.js';
export { oodScores, OOD_SCORES, requireOodScore, type OodScore } from './selective/ood-scores.js';
export { CONFORMAL_METHODS, requireConformalMethod, type ConformalMethod } from './conformal-scores.js';
export { fitConformal, predictionSets, conformalMetrics, conformalQuantile, type ConformalPredictor, type ConformalMetrics, type ConformalFitOptions } from './conformal-prediction.js';
export {
  fitMondrianConformal,
  minimumCalibrationRows,
  mondrianConformalMetrics,
  mondrianPredictionSets,
  type CategoryMetrics,
  type MondrianConformalMetrics,
  type MondrianConformalPredictor,
  type MondrianFitOptions,
  type MondrianTaxonomy,
} from './mondrian-conformal.js';
export { calibrationCurve, type CalibrationCurve, type CurveStrategy } from './binned/calibration-curve.js';
export { binaryCalibrationError } from './binned/binary-calibration-error.js';
export { ensembleProbabilities } from './ensemble-average.js';
export { groupConfidenceAccuracy, type GroupPoint, type GroupConfidenceAccuracyOptions } from './group-confidence-accuracy.js';
export { requireSampleWeights } from './weighted/sample-weights.js';
export { weightedEqualWidthBinSums, weightedEqualMassBinSums, weightedClasswiseBinSums } from './weighted/weighted-bin-sums.js';
export {
  evaluateWeighted,
  evaluateWeightedTopLabel,
  weightRefusal,
  WEIGHTED_METRIC_NAMES,
  WEIGHTED_TOP_LABEL_NAMES,
  type WeightedMetricName,
  type WeightedTopLabelName,
  type WeightedMetrics,
  type WeightedTopLabelMetrics,
  type WeightedOptions,
} from './weighted/weighted-evaluate.js';
export { meanIoU, pixelRows, segmentationMetrics, selectRows, type PixelCalibration, type SegmentationMetrics, type SegmentationMetricsOptions } from './segmentation.js';
export * from './clinical/index.js';
export { multicalibrationError, type MulticalibrationResult } from './multicalibration.js';
