/**
 * What differs between the tasks the one trainer (trainer.ts) runs — classification of images or text
 * (classification-task.ts) and dense segmentation (segmentation-task.ts) — and nothing else: the epochs,
 * checkpoints (epoch ends, mid-epoch, stops), exact resume, best-epoch selection, progress, run lock, replicas and
 * the compiled steps are the trainer's, the same for every task.
 *
 *   checkConfig        refuse the settings the task does not implement, before the run directory is touched
 *   loadData           the run's splits (RunData; `classes` = the model's output classes)
 *   createModel        the model, checked against the task's outputs (a classifier, or a dense model)
 *   objective          the loss settings (segmentation adds the dataset's ignore label)
 *   targets            what the compiled step is fed as `y` for a prepared training batch
 *   validationScores   the per-epoch validation scores (log.jsonl, best-epoch selection)
 *   chanceAccuracy     the accuracy of always predicting the most frequent class (the "not learning" warning)
 *   finalise           the final artefacts with the best epoch's weights (logits files, model.onnx, summary.json)
 *
 * Text classification is classification (the same strategy; the batch's tokens are its inputs).
 */
import type { IndexBatch } from '../../data/batching.js';
import type { ImageDataset } from '../../data/dataset.js';
import type { Model } from '../../nn/model.js';
import type { BestState, ValidationScores } from '../run/best-epoch.js';
import type { ShiftReport } from '../evaluation/ood-evaluation.js';
import type { Weights } from '../evaluation/predict.js';
import type { TrainProgress } from '../run/progress.js';
import type { RunPaths } from '../artefacts/run-directory.js';
import type { RunPredictor } from '../run/run-predictor.js';
import type { RunSummary } from '../run/run-finalise.js';
import type { SegmentationSummary } from './segmentation-task.js';
import type { TrainConfig } from '../train-config.js';
import type { EpochRecord } from '../artefacts/train-log.js';
import type { PreparedBatch } from '../run/trainer-batch.js';
import type { RunData } from '../run/trainer-data.js';
import type { ObjectiveSettings } from '../run/trainer-objective.js';

/** The tasks of `calib train`. */
export type TaskName = 'classification' | 'segmentation';

/** summary.json of a completed run, by task. */
export type TaskSummary = RunSummary | SegmentationSummary;

/** What a task's final evaluation is given. */
export interface FinalRun {
  readonly config: TrainConfig;
  readonly paths: RunPaths;
  readonly model: Model;
  readonly predictor: RunPredictor;
  /** The best epoch's weights. */
  readonly weights: Weights;
  readonly data: RunData;
  readonly best: BestState;
  readonly records: readonly EpochRecord[];
  readonly progress: TrainProgress;
  /** The second dataset of an OOD evaluation, when the caller loaded it. */
  readonly oodDataset?: ImageDataset | undefined;
}

/** A task of the one trainer (see the module comment). */
export interface TaskStrategy {
  readonly task: TaskName;
  checkConfig(config: TrainConfig): void;
  loadData(config: TrainConfig): Promise<RunData>;
  createModel(config: TrainConfig, data: RunData): Model;
  objective(config: TrainConfig, data: RunData): ObjectiveSettings;
  /** `y` of the compiled step for the training rows of `position`, prepared (augmented, mixed) as `prepared`. */
  targets(data: RunData, position: IndexBatch, prepared: PreparedBatch): Int32Array | Float32Array;
  validationScores(logits: Float32Array, data: RunData, bins: number): ValidationScores;
  chanceAccuracy(data: RunData): number;
  finalise(run: FinalRun): Promise<{ readonly summary: TaskSummary; readonly ood?: ShiftReport }>;
}

/** Whether a summary.json is a segmentation run's. */
export function isSegmentationSummary(summary: TaskSummary): summary is SegmentationSummary {
  return (summary as { task?: unknown }).task === 'segmentation';
}
