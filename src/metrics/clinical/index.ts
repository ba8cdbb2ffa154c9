export { chiSquareUpperTail } from './chi-square.js';
export { normalQuantile } from './normal-quantile.js';
export { logisticRecalibration, clippedLogit, type LogisticRecalibration, type WaldEstimate } from './logistic-recalibration.js';
export { hosmerLemeshow, type HosmerLemeshow } from './hosmer-lemeshow.js';
export { loessCalibration, lowessSorted, type LoessCalibration } from './loess-calibration.js';
export { skce, medianPairwiseDistance, type SkceResult, type SkceOptions } from './skce.js';
export { clinicalStatistics, clinicalJson, requireBinaryOutcomes, type ClinicalStatistics, type ClinicalOptions } from './clinical-statistics.js';
export { CLINICAL_METRICS, RECORD_CLINICAL_SETTINGS, type ClinicalParts } from './clinical-metrics.js';
