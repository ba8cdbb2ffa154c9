/**
 * The cost class of a run: what decides how long one of its epochs takes, so that runs of one class can share a
 * measured time per epoch (suite-estimate.ts). Two runs of the same dataset, model and model options (dropout
 * aside), training and validation images, batch and threads per run cost the same per epoch up to their method's
 * own work (mixup, batch-level terms, MC-dropout passes), which the estimate takes from the suite's own runs of
 * that method once they have trained an epoch.
 */
import type { TrainConfig } from '../../train/train-config.js';

/** What decides how long one epoch of a run takes (runs with the same class cost the same per epoch). */
export interface CostClass {
  readonly dataset: string;
  readonly model: string;
  /** The model options, without `dropout` (it does not change the work per epoch). */
  readonly modelOptions: string;
  /** Training images per epoch (subset − validation images); null without a subset (the dataset's whole training split). */
  readonly trainImages: number | null;
  readonly validation: number;
  readonly batch: number;
  readonly threads: number;
}

/** The cost class of a run's configuration run with `threads` ONNX Runtime threads. */
export function costClass(config: TrainConfig, threads: number): CostClass {
  const { dropout: _dropout, ...options } = config.modelOptions as Record<string, unknown>;
  const sorted = Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
  const subset = config.subset;
  const trainImages = subset === undefined ? null : subset - (config.validation >= 1 ? config.validation : Math.round(config.validation * subset));
  return { dataset: config.dataset, model: config.model, modelOptions: JSON.stringify(sorted), trainImages, validation: config.validation, batch: config.batch, threads };
}

/** The text key of a cost class (equal classes, equal keys). */
export function costClassKey(c: CostClass): string {
  return JSON.stringify([c.dataset, c.model, c.modelOptions, c.trainImages, c.validation, c.batch, c.threads]);
}
