/**
 * Training machinery (compiled parts): the one-graph train step, the inference step, host training state,
 * checkpoints and ONNX export. The trainer loop and CLI build on these.
 */
export { type LossFn, type LossOutput, crossEntropy } from './steps/loss-fn.js';
export { ModelLayout } from './steps/model-layout.js';
export { TrainState, createTrainState } from './steps/train-state.js';
export { TrainStep, compileTrainStep, type TrainStepOptions, type TrainBatch, type StepResult, type ExtraSpec, type CompileStats } from './steps/compile-train-step.js';
export { EvalStep, compileEvalStep, type EvalStepOptions, type EvalResult } from './steps/compile-eval-step.js';
export { encodeCheckpoint, decodeCheckpoint, saveCheckpoint, loadCheckpoint, type Checkpoint, type CheckpointHeader, type CheckpointArray, type CheckpointContent } from './artefacts/checkpoint.js';
export { exportOnnx, saveOnnx, type ExportOptions } from './artefacts/export-onnx.js';
// The trainer loop and its parts (config, schedules, run directory, log, progress, OOD / shift evaluation).
export { train, resumeTraining, runOptimizer, DEFAULT_CHECKPOINT_SECONDS, type TrainOptions, type TrainResult, type RunSummary } from './run/trainer.js';
export { isSegmentationSummary, type TaskStrategy, type TaskName, type TaskSummary, type FinalRun } from './tasks/task-strategy.js';
export { taskOf } from './tasks/task-of-config.js';
export { classificationTask } from './tasks/classification-task.js';
export { segmentationTask, loadSegmentationData, keptImages, SEGMENTATION_LOGIT_IMAGES, type SegmentationSummary } from './tasks/segmentation-task.js';
export { TrainingError, type TrainingFailureKind } from './training-error.js';
export { lockRunDirectory, LOCK_FILE, runDirectoryHolder, type RunLock } from './artefacts/run-lock.js';
export {
  TRAIN_CONFIG_SCHEMA,
  TRAIN_CONFIG_KEYS,
  resolveTrainConfig,
  mergeConfig,
  within,
  MIXUP_KINDS,
  SECONDARY_PLACEMENTS,
  AUGMENTATIONS,
  type TrainConfig,
  type MixupKind,
  type SecondaryPlacement,
} from './train-config.js';
export { parseSchedule, epochSchedule, LearningRate, type ScheduleSpec } from './lr-schedule-spec.js';
export { BestEpoch, SELECTION_METRICS, type SelectionMetric, type BestState, type ValidationScores } from './run/best-epoch.js';
export { runPaths, type RunPaths } from './artefacts/run-directory.js';
export { appendRecord, readLog, writeLog, type EpochRecord } from './artefacts/train-log.js';
export { ConsoleProgress, SILENT_PROGRESS, formatEpochLine, type TrainProgress } from './run/progress.js';
export { loadRunData, runSplits, SPLIT_SEED, type RunData } from './run/trainer-data.js';
export { createRunModel, resolveModelSpec, modelAlias } from './run/trainer-model.js';
export { objectiveLossFn, placementLossFn, type ObjectiveSettings } from './run/trainer-objective.js';
export { prepareBatch, type BatchPlan, type PreparedBatch } from './run/trainer-batch.js';
export { predictLogits, validationScores, confidences } from './evaluation/predict.js';
export { evaluateShift, evaluateShiftSets, predictShiftSets, defaultOodDataset, type ShiftReport, type ShiftOptions } from './evaluation/ood-evaluation.js';
export { shiftReport, shiftMetrics, mapShiftSets, type ShiftSets } from './evaluation/shift-metrics.js';
export { readShiftLogits, writeShiftLogits } from './evaluation/shift-logits.js';
export { compileMcDropoutStep, mcDropoutProbabilities, McDropoutStep, type McDropoutOptions, type McDropoutStepOptions } from './evaluation/mc-dropout.js';
