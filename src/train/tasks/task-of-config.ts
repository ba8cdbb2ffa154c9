/** Which task strategy (task-strategy.ts) trains a configuration: segmentation for datasets with masks, else classification. */
import { isSegmentationDatasetName } from '../../data/load-dataset.js';
import { classificationTask } from './classification-task.js';
import { segmentationTask } from './segmentation-task.js';
import type { TaskStrategy } from './task-strategy.js';
import type { TrainConfig } from '../train-config.js';

export function taskOf(config: Pick<TrainConfig, 'dataset'>): TaskStrategy {
  return isSegmentationDatasetName(config.dataset) ? segmentationTask : classificationTask;
}
