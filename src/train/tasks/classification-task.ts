/**
 * The classification task of the one trainer (task-strategy.ts): images or token sequences with one label each.
 *
 *   data        trainer-data.ts (class-stratified subset, validation, held-out and test splits)
 *   model       a classifier of the dataset's classes (trainer-model.ts refuses a dense model)
 *   targets     the prepared batch's labels, or its soft targets under mixup (trainer-batch.ts)
 *   validation  accuracy, NLL, ECE, AdaECE and refinement NLL of the validation logits (predict.ts)
 *   finalise    run-finalise.ts: logits and labels (.npy), model.onnx; with `ood`, ood.json and shift/; summary.json last
 */
import { within } from '../train-config.js';
import { datasetInputs, validationScores } from '../evaluation/predict.js';
import { chanceAccuracy } from '../run/run-evaluate.js';
import { finalize, runOod, writeSummary } from '../run/run-finalise.js';
import type { TaskStrategy } from './task-strategy.js';
import { loadRunData } from '../run/trainer-data.js';
import { rememberingPredictor } from '../run/run-predictor.js';
import { createRunModel } from '../run/trainer-model.js';

export const classificationTask: TaskStrategy = {
  task: 'classification',
  checkConfig: () => {},
  loadData: loadRunData,
  createModel: (config, data) => within('config.modelOptions', () => createRunModel(config.model, config.modelOptions, data.train)),
  objective: (config) => config,
  targets: (_data, _position, prepared) => prepared.y,
  validationScores: (logits, data, bins) => validationScores(logits, data.validation.labels, data.classes, bins),
  chanceAccuracy: (data) => chanceAccuracy(data.validation.labels),
  async finalise(run) {
    const { config, paths, model, weights, data, best, records, progress, oodDataset } = run;
    // The OOD evaluation's in-distribution set is the test split that finalize evaluates first: computed once.
    const predictor = rememberingPredictor(run.predictor, [datasetInputs(data.test)]);
    const summary = await finalize(config, paths, model, predictor, weights, data, best, records);
    const ood = config.ood ? await runOod(config, paths, predictor, weights, data, oodDataset, progress) : undefined;
    await writeSummary(paths, summary);
    return ood ? { summary, ood } : { summary };
  },
};
