/**
 * The end of a completed run, with the best epoch's weights and the run's predictor (run-predictor.ts: the
 * deterministic network, or MC dropout with `config.mcDropout`): validation and test logits and labels (.npy),
 * with `evaluateTrain` the training split's too, model.onnx, summary.json (every metric of both splits, data sizes, throughput), and with `ood` the OOD /
 * dataset-shift evaluation into ood.json.
 */
import { datasetSize, subset, type ImageDataset } from '../../data/dataset.js';
import { loadDataset, type DatasetName } from '../../data/load-dataset.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { parameterCount, type Model } from '../../nn/model.js';
import { modelSpec } from '../../nn/models/zoo.js';
import { writeNpy } from '../../io/npy.js';
import { invalidArgument } from '../../util/errors.js';
import { matrix } from '../../util/matrix.js';
import { Random } from '../../util/random.js';
import type { BestState } from './best-epoch.js';
import { saveOnnx } from '../artefacts/export-onnx.js';
import { defaultOodDataset, evaluateShiftSets, type ShiftReport } from '../evaluation/ood-evaluation.js';
import { datasetInputs, type Weights } from '../evaluation/predict.js';
import type { TrainProgress } from './progress.js';
import { type RunPaths, writeJson } from '../artefacts/run-directory.js';
import type { McDropoutRecord, RunPredictor } from './run-predictor.js';
import { writeShiftLogits } from '../evaluation/shift-logits.js';
import type { TrainConfig } from '../train-config.js';
import type { EpochRecord } from '../artefacts/train-log.js';
import type { RunData } from './trainer-data.js';

/** summary.json. */
export interface RunSummary {
  readonly best_epoch: number;
  readonly select: string;
  readonly epochs: number;
  readonly model: Readonly<Record<string, unknown>>;
  readonly parameters: number;
  readonly data: {
    readonly train: number;
    readonly validation: number;
    readonly test: number;
    readonly held_out: number;
    readonly classes: number;
    readonly source?: Readonly<Record<string, string | number>>;
  };
  /** Every metric of the test split (fractions; see src/metrics/accumulators/evaluate.ts). */
  readonly test: Readonly<Record<string, unknown>>;
  readonly validation: Readonly<Record<string, unknown>>;
  /** Every metric of the training split, with `evaluateTrain` (the selected weights, no augmentation or mixup). */
  readonly train?: Readonly<Record<string, unknown>>;
  /** Mean training throughput over the run's epochs (samples/s) and total training time (s). */
  readonly samples_per_s: number;
  readonly train_time_s: number;
  /** With `config.mcDropout`: the logits written (and every metric above) are log p̄ of K passes at rate p (run-predictor.ts). */
  readonly mc_dropout?: McDropoutRecord;
}

/** Final logits and model export with the best weights, and the run's summary (written by writeSummary, last). */
export async function finalize(
  config: TrainConfig,
  paths: RunPaths,
  model: Model,
  predictor: RunPredictor,
  weights: Weights,
  data: RunData,
  best: BestState,
  records: readonly EpochRecord[],
): Promise<RunSummary> {
  const c = data.classes;
  const valLogits = predictor.logits(weights, datasetInputs(data.validation));
  const testLogits = predictor.logits(weights, datasetInputs(data.test));
  await writeNpy(paths.valLogits, valLogits, [data.validation.labels.length, c]);
  await writeNpy(paths.valLabels, data.validation.labels, [data.validation.labels.length]);
  await writeNpy(paths.testLogits, testLogits, [data.test.labels.length, c]);
  await writeNpy(paths.testLabels, data.test.labels, [data.test.labels.length]);
  let trainLogits: Float32Array | undefined;
  if (config.evaluateTrain) {
    trainLogits = predictor.logits(weights, datasetInputs(data.train));
    await writeNpy(paths.trainLogits, trainLogits, [data.train.labels.length, c]);
    await writeNpy(paths.trainLabels, data.train.labels, [data.train.labels.length]);
  }
  await saveOnnx(paths.onnx, model, weights);
  const metrics = (logits: Float32Array, labels: Int32Array): Record<string, unknown> =>
    ({ ...evaluate(matrix(labels.length, c, logits), labels, { input: 'logits', bins: config.bins }) }) as Record<string, unknown>;
  const trainTime = records.reduce((s, r) => s + r.train_time_s, 0);
  const trainSamples = records.reduce((s, r) => s + r.samples_per_s * r.train_time_s, 0);
  const summary: RunSummary = {
    best_epoch: best.epoch + 1,
    select: config.select,
    epochs: config.epochs,
    model: { ...modelSpec(model) },
    parameters: parameterCount(model),
    data: {
      train: datasetSize(data.train),
      validation: datasetSize(data.validation),
      test: datasetSize(data.test),
      held_out: data.heldOut ? datasetSize(data.heldOut) : 0,
      classes: c,
      ...(data.source ? { source: data.source } : {}),
    },
    test: metrics(testLogits, data.test.labels),
    validation: metrics(valLogits, data.validation.labels),
    ...(trainLogits ? { train: metrics(trainLogits, data.train.labels) } : {}),
    samples_per_s: trainTime > 0 ? trainSamples / trainTime : Number.NaN,
    train_time_s: trainTime,
    ...(predictor.mcDropout ? { mc_dropout: predictor.mcDropout } : {}),
  };
  return summary;
}

/**
 * Write summary.json, the mark of a finished run: written last, after every other output of the run (ood.json and
 * shift/ included), so that a run stopped during its final evaluation has no summary and `--resume` redoes it.
 */
export async function writeSummary(paths: RunPaths, summary: RunSummary): Promise<void> {
  await writeJson(paths.summary, JSON.parse(JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))));
}

/** OOD / shift evaluation of the best weights into ood.json, its sets' logits into shift/ (image datasets only). */
export async function runOod(
  config: TrainConfig,
  paths: RunPaths,
  predictor: RunPredictor,
  weights: Weights,
  data: RunData,
  given: ImageDataset | undefined,
  progress: TrainProgress,
): Promise<ShiftReport> {
  if (data.train.kind !== 'image' || data.test.kind !== 'image') invalidArgument('config.ood', 'an image dataset (OOD noise and corruptions are image transforms)', config.dataset);
  let other = given;
  let skipped: string | null = null;
  const name = config.oodDataset ?? defaultOodDataset(config.dataset);
  if (!other && name) {
    try {
      const splits = await loadDataset(name as DatasetName, config.oodDatasetOptions as never, 'config.oodDataset');
      const d = splits.test ?? splits.train;
      if (d.kind !== 'image') throw new Error(`${name} is not an image dataset`);
      other = d;
    } catch (e) {
      if (config.oodDataset !== undefined) throw e;
      skipped = `${name}: ${(e as Error).message.split('.')[0]}`;
      progress.message(`OOD dataset skipped (${skipped})`);
    }
  }
  let test = data.test;
  if (config.oodSubset !== undefined && config.oodSubset < datasetSize(test)) {
    const pick = new Random(config.seed).permutation(datasetSize(test)).slice(0, config.oodSubset).sort();
    test = subset(data.test, pick);
  }
  const { report, sets } = evaluateShiftSets((images) => predictor.logits(weights, images), data.train, test, {
    ...(other ? { oodDataset: other } : {}),
    seed: config.seed,
    bins: config.bins,
    onProgress: (what) => progress.message(`ood: ${what}`),
  });
  const out = skipped ? { ...report, ood_dataset_skipped: skipped } : report;
  // The logits behind ood.json (shift/), for post-hoc calibrators applied under shift (suite post-hoc step).
  await writeShiftLogits(paths.dir, sets);
  await writeJson(paths.ood, JSON.parse(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))));
  return report;
}
