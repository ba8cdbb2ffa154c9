/**
 * The segmentation task of the one trainer (task-strategy.ts): datasets with per-pixel masks (e.g. mnist-seg; Liu et
 * al. CVPR 2022, MbLS, Table 5).
 *
 *   data        the dataset's train split carved into subset / validation and its test split into a test subset,
 *               digit-stratified with seed SPLIT_SEED (RunData.classes = the mask classes)
 *   model       a dense model (`outputSpatial`, e.g. seg-net): logits [B, C, H, W]
 *   objective   the configured loss on pixel rows [B·H·W, C] (LossInput flattens dense logits), with `ignoreIndex`
 *               = the dataset's ignore label (255), so unlabelled pixels count nowhere
 *   targets     the masks [B, H, W] of the batch's images
 *   validation  accuracy, NLL, ECE, AdaECE and refinement NLL over the labelled validation pixels (log.jsonl:
 *               val_accuracy = pixel accuracy), the same numbers as segmentationMetrics' pixel_accuracy, nll, ece, adaece
 *   finalise    segmentationMetrics (metrics/segmentation.ts) of validation and test in summary.json, dense logits
 *               [n, C, H, W] and masks [n, H, W] of a seeded sample of `SEGMENTATION_LOGIT_IMAGES` validation / test
 *               images ({val,test}-{logits,labels}.npy; `calib eval --ignore-index 255` reads them), model.onnx
 *
 * Everything else is the trainer's: checkpoints at epoch ends and within epochs, exact resume, best epoch, replicas.
 * Refused (non-default values): augmentation, mixup, secondary terms, interleaving, OOD evaluation, MC dropout,
 * stateful losses (CRL), per-epoch logits, training-split evaluation.
 */
import type { IndexBatch } from '../../data/batching.js';
import { gatherRows, type Dataset } from '../../data/dataset.js';
import { loadDataset, type DatasetName } from '../../data/load-dataset.js';
import { isSegmentationDataset, segmentationSubset, type SegmentationDataset } from '../../data/datasets/mnist-seg.js';
import { randomSplit } from '../../data/splits.js';
import { writeNpy } from '../../io/npy.js';
import { pixelRows, segmentationMetrics, type SegmentationMetrics } from '../../metrics/segmentation.js';
import { invalidArgument } from '../../util/errors.js';
import { Random } from '../../util/random.js';
import type { ValidationScores } from '../run/best-epoch.js';
import { saveOnnx } from '../artefacts/export-onnx.js';
import { validationScores } from '../evaluation/predict.js';
import { writeJson } from '../artefacts/run-directory.js';
import type { TaskStrategy } from './task-strategy.js';
import type { TrainConfig } from '../train-config.js';
import { requireWithin, resolveAugmentation, SPLIT_SEED, type RunData } from '../run/trainer-data.js';
import { createRunModel } from '../run/trainer-model.js';
import { primaryHostState } from '../run/trainer-objective.js';

/** Images whose dense logits are written per split (val, test): 300 × 11 × 28 × 28 float32 ≈ 10 MB. */
export const SEGMENTATION_LOGIT_IMAGES = 300;

/**
 * The images of an n-image split whose dense logits are kept: all when n ≤ SEGMENTATION_LOGIT_IMAGES, else a seeded
 * random sample of that many, in split order (the splits keep their images grouped by digit, so the first 300 would
 * be zeros and ones only).
 */
export function keptImages(n: number): Int32Array {
  if (n <= SEGMENTATION_LOGIT_IMAGES) return Int32Array.from({ length: n }, (_, i) => i);
  return new Random(SPLIT_SEED).permutation(n).slice(0, SEGMENTATION_LOGIT_IMAGES).sort();
}

/** summary.json of a segmentation run. */
export interface SegmentationSummary {
  readonly task: 'segmentation';
  readonly dataset: string;
  readonly model: string;
  readonly loss: string;
  readonly seed: number;
  readonly epochs: number;
  readonly best_epoch: number;
  readonly select: string;
  readonly train_time_s: number;
  readonly samples_per_s: number;
  readonly data: { readonly train: number; readonly validation: number; readonly test: number; readonly logit_images: number };
  readonly ignore_index: number;
  readonly classes: number;
  readonly validation: SegmentationMetrics;
  readonly test: SegmentationMetrics;
}

/** A split of a segmentation run (refusing one without masks). */
export function segmentationSplit(d: Dataset, argument = 'data'): SegmentationDataset {
  if (!isSegmentationDataset(d)) return invalidArgument(argument, 'a dataset with per-pixel masks', d.name);
  return d;
}

/** Refuse the settings this task does not implement (non-default values only). */
function checkSupported(c: TrainConfig): void {
  const refuse = (key: string, why: string): never =>
    invalidArgument(`config.${key}`, `its default for a segmentation dataset (${why})`, JSON.stringify((c as unknown as Record<string, unknown>)[key]));
  if (c.mixup > 0) refuse('mixup', 'no dense mixup');
  if (resolveAugmentation(c.augment, c.dataset) !== 'none') refuse('augment', 'no dense augmentation: crops and flips would have to move the masks too');
  if (c.secondary !== undefined) refuse('secondary', 'no secondary terms on pixels');
  if (c.interleaved !== undefined) refuse('interleaved', 'no interleaving');
  if (c.ood) refuse('ood', 'no OOD evaluation of masks');
  if (c.epochLogits) refuse('epochLogits', 'final logits only');
  if (c.evaluateTrain) refuse('evaluateTrain', 'validation and test only');
  if (c.mcDropout !== undefined) refuse('mcDropout', 'seg-net has no dropout, and MC dropout averages softmax over [N, C] rows, not dense logits');
  if (primaryHostState(c) !== null) refuse('loss', "no per-sample host state such as CRL's history on pixels");
}

/** Take `size` (fraction < 1 or count) of `d`'s images at random (seed SPLIT_SEED): the taken part and the rest. */
function carve(d: SegmentationDataset, size: number, argument: string): { taken: SegmentationDataset; rest: SegmentationDataset } {
  const n = d.labels.length;
  const m = size < 1 ? Math.round(size * n) : size;
  if (!(m >= 1 && m < n)) invalidArgument(argument, `a fraction or count leaving images on both sides of ${n}`, `${size} (→ ${m} of ${n})`);
  const [taken, rest] = randomSplit(n, [m, n - m], { seed: SPLIT_SEED, stratify: d.labels });
  const sorted = (a: Int32Array) => Int32Array.from(a).sort();
  return { taken: segmentationSubset(d, sorted(taken!)), rest: segmentationSubset(d, sorted(rest!)) };
}

/** Load the configured segmentation dataset and carve subset, validation and test subset (digit-stratified). */
export async function loadSegmentationData(config: TrainConfig): Promise<RunData> {
  const splits = await loadDataset(config.dataset as DatasetName, config.datasetOptions as never);
  const train0 = splits.train;
  const test0 = splits.test;
  if (!isSegmentationDataset(train0) || !isSegmentationDataset(test0)) return invalidArgument('config.dataset', 'a dataset with masks and a test split', config.dataset);
  let train = train0;
  let test = test0;
  if (config.subset !== undefined) requireWithin('config.subset', config.subset, train.labels.length, `training samples of ${config.dataset}`);
  if (config.testSubset !== undefined) requireWithin('config.testSubset', config.testSubset, test.labels.length, `test samples of ${config.dataset}`);
  if (config.subset !== undefined && config.subset < train.labels.length) train = carve(train, config.subset, 'config.subset').taken;
  const v = carve(train, config.validation, 'config.validation');
  if (config.testSubset !== undefined && config.testSubset < test.labels.length) test = carve(test, config.testSubset, 'config.testSubset').taken;
  return { train: v.rest, validation: v.taken, test, classes: train.maskClasses };
}

/**
 * The validation scores of dense logits [N, C, H, W] over the labelled pixels: the same numbers as
 * `segmentationMetrics`'s pixel_accuracy, nll, ece and adaece without its mIoU and background-free pass.
 */
function pixelValidationScores(logits: Float32Array, d: SegmentationDataset, bins: number): ValidationScores {
  const all = pixelRows(logits, d.masks, d.labels.length, d.maskClasses, (y) => y !== d.ignoreIndex);
  if (all.labels.length === 0) invalidArgument('labels', 'at least one labelled pixel', `every pixel is ${d.ignoreIndex}`);
  return validationScores(all.predictions.data, all.labels, d.maskClasses, bins);
}

/** The share of the most frequent mask class among the labelled pixels of `d`. */
function pixelChance(d: SegmentationDataset): number {
  const counts = new Float64Array(d.maskClasses);
  let n = 0;
  for (let i = 0; i < d.masks.length; i++) {
    const y = d.masks[i]!;
    if (y === d.ignoreIndex) continue;
    counts[y]!++;
    n++;
  }
  return n ? Math.max(...counts) / n : 0;
}

export const segmentationTask: TaskStrategy = {
  task: 'segmentation',
  checkConfig: checkSupported,
  loadData: loadSegmentationData,
  createModel(config, data) {
    const train = segmentationSplit(data.train, 'data.train');
    const model = createRunModel(config.model, config.modelOptions, { ...train, classes: train.maskClasses });
    const spatial = model.outputSpatial;
    if (spatial === undefined || spatial.join() !== train.shape.slice(1).join()) {
      invalidArgument('config.model', `a dense model with logits [N, ${train.maskClasses}, ${train.shape.slice(1).join(', ')}] for a segmentation dataset (seg-net)`, JSON.stringify(config.model));
    }
    return model;
  },
  objective: (config, data) => ({ ...config, ignoreIndex: segmentationSplit(data.train, 'data.train').ignoreIndex }),
  targets(data, position: IndexBatch) {
    const train = segmentationSplit(data.train, 'data.train');
    const pixels = train.shape[1] * train.shape[2];
    return gatherRows(train.masks, pixels, position.indices, new Int32Array(position.indices.length * pixels));
  },
  validationScores: (logits, data, bins) => pixelValidationScores(logits, segmentationSplit(data.validation, 'data.validation'), bins),
  chanceAccuracy: (data) => pixelChance(segmentationSplit(data.validation, 'data.validation')),
  async finalise({ config, paths, model, predictor, weights, data, best, records }) {
    const train = segmentationSplit(data.train, 'data.train');
    const validation = segmentationSplit(data.validation, 'data.validation');
    const test = segmentationSplit(data.test, 'data.test');
    const [, h, w] = train.shape;
    const pixels = h * w;
    const classes = train.maskClasses;
    const summarise = async (d: SegmentationDataset, logitsPath: string, labelsPath: string): Promise<SegmentationMetrics> => {
      const logits = predictor.logits(weights, d.images);
      const pick = keptImages(d.labels.length);
      const k = pick.length;
      await writeNpy(logitsPath, gatherRows(logits, classes * pixels, pick, new Float32Array(k * classes * pixels)), [k, classes, h, w]);
      await writeNpy(labelsPath, gatherRows(d.masks, pixels, pick, new Int32Array(k * pixels)), [k, h, w]);
      return segmentationMetrics(logits, d.masks, d.labels.length, classes, { ignoreIndex: train.ignoreIndex, bins: config.bins });
    };
    const valMetrics = await summarise(validation, paths.valLogits, paths.valLabels);
    const testMetrics = await summarise(test, paths.testLogits, paths.testLabels);
    await saveOnnx(paths.onnx, model, weights);
    const trainTime = records.reduce((s, r) => s + r.train_time_s, 0);
    const trainSamples = records.reduce((s, r) => s + r.samples_per_s * r.train_time_s, 0);
    const summary: SegmentationSummary = {
      task: 'segmentation',
      dataset: config.dataset,
      model: config.model,
      loss: config.loss,
      seed: config.seed,
      epochs: config.epochs,
      best_epoch: best.epoch + 1,
      select: config.select,
      train_time_s: trainTime,
      samples_per_s: trainTime > 0 ? trainSamples / trainTime : Number.NaN,
      data: { train: train.labels.length, validation: validation.labels.length, test: test.labels.length, logit_images: Math.min(SEGMENTATION_LOGIT_IMAGES, test.labels.length) },
      ignore_index: train.ignoreIndex,
      classes,
      validation: valMetrics,
      test: testMetrics,
    };
    await writeJson(paths.summary, summary);
    return { summary };
  },
};
