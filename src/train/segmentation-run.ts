/**
 * The segmentation run path of `calib train` (datasets with per-pixel masks, e.g. mnist-seg; Liu et al. CVPR 2022,
 * MbLS, Table 5): the same configuration, optimizer, learning-rate schedule, compiled train step and loss registry
 * as the classifier trainer (trainer.ts), with dense targets:
 *
 *   model    a dense model (`outputSpatial`, e.g. seg-net): logits [B, C, H, W]
 *   loss     the configured loss on pixel rows [B·H·W, C] (LossInput flattens dense logits), with
 *            the objective's `ignoreIndex` = the dataset's ignore label (255), so unlabelled pixels count nowhere
 *   epochs   plain passes over the shuffled training images (no augmentation), validation pixel metrics per epoch
 *            (log.jsonl: val_accuracy = pixel accuracy, val_nll/ece/adaece over labelled pixels), best epoch by
 *            `select`, kept in memory
 *   finalise with the best weights: segmentationMetrics (metrics/segmentation.ts) of validation and test in
 *            summary.json, dense logits [n, C, H, W] and masks [n, H, W] of a seeded sample of `SEGMENTATION_LOGIT_IMAGES`
 *            validation / test images ({val,test}-{logits,labels}.npy; `calib eval --ignore-index 255` reads them),
 *            model.onnx
 *
 * Checkpoints at every epoch's end (checkpoint-last.ckpt, checkpoint-best.ckpt): `resume` continues from the last one.
 * Not supported here (refused): mixup, secondary terms, interleaving, OOD evaluation, MC dropout, replicas, stateful losses
 * (CRL), mid-epoch checkpoints (an epoch of this path is seconds long).
 */
import { batchPositions, batchesPerEpoch } from '../data/batching.js';
import { gatherRows } from '../data/dataset.js';
import { loadDataset, type DatasetName } from '../data/load-dataset.js';
import { isSegmentationDataset, segmentationSubset, type SegmentationDataset } from '../data/mnist-seg.js';
import { randomSplit } from '../data/splits.js';
import { writeNpy } from '../io/npy.js';
import { pixelRows, segmentationMetrics, type SegmentationMetrics } from '../metrics/segmentation.js';
import type { Model } from '../nn/model.js';
import { describe, invalidArgument } from '../util/errors.js';
import { Random } from '../util/random.js';
import { BestEpoch, type BestState, type ValidationScores } from './best-epoch.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { EvalStep } from './compile-eval-step.js';
import { TrainStep } from './compile-train-step.js';
import { saveOnnx } from './export-onnx.js';
import { LearningRate, parseSchedule } from './lr-schedule-spec.js';
import { predictLogits, validationScores } from './predict.js';
import { SILENT_PROGRESS, type TrainProgress } from './progress.js';
import { writeJson, type RunPaths } from './run-directory.js';
import { openRunDirectory } from './run-open.js';
import { runOptimizer } from './run-setup.js';
import { resolveTrainConfig, type TrainConfig } from './train-config.js';
import { appendRecord, type EpochRecord, writeLog } from './train-log.js';
import { createTrainState } from './train-state.js';
import { requireWithin, SPLIT_SEED } from './trainer-data.js';
import { createRunModel } from './trainer-model.js';
import { objectiveLossFn, primaryHostState } from './trainer-objective.js';

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

/** The splits of a segmentation run. */
export interface SegmentationData {
  readonly train: SegmentationDataset;
  readonly validation: SegmentationDataset;
  readonly test: SegmentationDataset;
}

/** Options of `trainSegmentation`. */
export interface SegmentationTrainOptions {
  readonly overwrite?: boolean;
  /** Continue the run in `config.out` from its last checkpoint (written at every epoch's end). */
  readonly resume?: boolean;
  readonly progress?: TrainProgress;
  /** Stop before the next epoch (the last epoch's checkpoint stays: `resume` continues from it). */
  readonly signal?: AbortSignal;
  /** Pre-loaded splits (default: from the configuration). */
  readonly data?: SegmentationData;
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

/** What `trainSegmentation` returns. */
export interface SegmentationResult {
  readonly status: 'completed' | 'stopped';
  readonly paths: RunPaths;
  readonly config: TrainConfig;
  readonly records: readonly EpochRecord[];
  readonly summary?: SegmentationSummary;
}

/** Refuse the settings this path does not implement (non-default values only). */
function checkSupported(c: TrainConfig): void {
  const refuse = (key: string, why: string): never => invalidArgument(`config.${key}`, `its default for a segmentation dataset (${why})`, JSON.stringify((c as unknown as Record<string, unknown>)[key]));
  if (c.mixup > 0) refuse('mixup', 'no dense mixup');
  if (c.secondary !== undefined) refuse('secondary', 'no secondary terms on pixels');
  if (c.interleaved !== undefined) refuse('interleaved', 'no interleaving');
  if (c.ood) refuse('ood', 'no OOD evaluation of masks');
  if (c.replicas > 1) refuse('replicas', 'one replica');
  if (c.epochLogits) refuse('epochLogits', 'final logits only');
  if (c.evaluateTrain) refuse('evaluateTrain', 'validation and test only');
  if (c.mcDropout !== undefined) refuse('mcDropout', 'seg-net has no dropout');
  if (primaryHostState(c) !== null) refuse('loss', 'no per-sample host state such as CRL\'s history on pixels');
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
export async function loadSegmentationData(config: TrainConfig): Promise<SegmentationData> {
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
  return { train: v.rest, validation: v.taken, test };
}

/**
 * The per-epoch validation scores of dense logits [N, C, H, W] (what log.jsonl records and best-epoch selection reads):
 * accuracy, NLL, ECE and AdaECE over the labelled pixels, the same numbers as `segmentationMetrics`'s pixel_accuracy,
 * nll, ece and adaece without its mIoU and background-free pass.
 */
function pixelValidationScores(logits: Float32Array, d: SegmentationDataset, bins: number): ValidationScores {
  const all = pixelRows(logits, d.masks, d.labels.length, d.maskClasses, (y) => y !== d.ignoreIndex);
  if (all.labels.length === 0) invalidArgument('labels', 'at least one labelled pixel', `every pixel is ${d.ignoreIndex}`);
  return validationScores(all.predictions.data, all.labels, d.maskClasses, bins);
}

/** The dense model of a run (refusing a classifier). */
function segmentationModel(config: TrainConfig, train: SegmentationDataset): Model {
  const model = createRunModel(config.model, config.modelOptions, { ...train, classes: train.maskClasses });
  const spatial = model.outputSpatial;
  if (spatial === undefined || spatial.join() !== train.shape.slice(1).join()) {
    invalidArgument('config.model', `a dense model with logits [N, ${train.maskClasses}, ${train.shape.slice(1).join(', ')}] for a segmentation dataset (seg-net)`, JSON.stringify(config.model));
  }
  return model;
}

/** Train `configInput` on a segmentation dataset into its run directory (see the module comment). */
export async function trainSegmentation(configInput: TrainConfig, options: SegmentationTrainOptions = {}): Promise<SegmentationResult> {
  const config = resolveTrainConfig(configInput);
  checkSupported(config);
  const { paths, lock } = await openRunDirectory(config, { resume: options.resume === true, overwrite: options.overwrite === true });
  try {
    const data = options.data ?? (await loadSegmentationData(config));
    const model = segmentationModel(config, data.train);
    const optimizer = runOptimizer(config);
    const ignoreIndex = data.train.ignoreIndex;
    const lossFn = objectiveLossFn({ ...config, ignoreIndex }, 'full');
    const step = new TrainStep(model, lossFn, optimizer, { batch: config.batch, threads: config.threads });
    const evalStep = new EvalStep(model, { threads: config.threads });
    try {
      return await runSegmentation(config, data, model, step, evalStep, paths, options);
    } finally {
      step.dispose();
      evalStep.dispose();
    }
  } finally {
    await lock.release();
  }
}

/**
 * A segmentation checkpoint's metadata (checkpoint-last.ckpt after every epoch; checkpoint-best.ckpt holds the best
 * epoch's weights): finished epochs, their log records, the best epoch and its score, the training totals of the
 * summary. Batches are drawn per epoch from the run seed (batchPositions), so a resumed run ends with the same
 * weights as an uninterrupted one.
 */
interface SegmentationCheckpointMeta {
  readonly epoch: number;
  readonly records: readonly EpochRecord[];
  /** The best-epoch tracker's state (a NaN value is stored as null). */
  readonly best: { readonly metric: string; readonly epoch: number; readonly value: number | null };
  readonly trainSeconds: number;
  readonly samples: number;
}

/** The state, metadata, best-epoch state and best weights to continue a stopped segmentation run from. */
async function resumePoint(paths: RunPaths, model: Model, step: TrainStep, select: BestState['metric']) {
  const last = await loadCheckpoint(paths.lastCheckpoint, { model, optimizer: step.optimizer });
  const meta = last.header.metadata as unknown as SegmentationCheckpointMeta;
  const at = `${paths.lastCheckpoint}: metadata`;
  if (!Number.isInteger(meta?.epoch) || !Array.isArray(meta.records) || meta.records.length !== meta.epoch || meta.best?.metric !== select || typeof meta.best.epoch !== 'number' || typeof meta.trainSeconds !== 'number' || typeof meta.samples !== 'number') {
    invalidArgument(at, `the metadata of a segmentation run checkpoint selecting by ${select} (epoch, records, best, trainSeconds, samples)`, describe(meta));
  }
  const bestState = meta.best.epoch === meta.epoch - 1 ? last.state : (await loadCheckpoint(paths.bestCheckpoint, { model, optimizer: step.optimizer })).state;
  const best: BestState = { metric: select, epoch: meta.best.epoch, value: meta.best.value ?? Number.NaN };
  return { state: last.state, meta, best, bestWeights: { params: Float32Array.from(bestState.params), buffers: Float32Array.from(bestState.buffers) } };
}

async function runSegmentation(
  config: TrainConfig,
  data: SegmentationData,
  model: Model,
  step: TrainStep,
  evalStep: EvalStep,
  paths: RunPaths,
  options: SegmentationTrainOptions,
): Promise<SegmentationResult> {
  const progress = options.progress ?? SILENT_PROGRESS;
  const { train, validation, test } = data;
  const n = train.labels.length;
  const [, h, w] = train.shape;
  const pixels = h * w;
  const imageSize = train.shape[0] * pixels;
  const classes = train.maskClasses;
  const metricOptions = { ignoreIndex: train.ignoreIndex, bins: config.bins };
  const stepsPerEpoch = batchesPerEpoch(n, { batchSize: config.batch });
  const lr = new LearningRate(parseSchedule(config.schedule, config.epochs), config.lr, config.epochs, stepsPerEpoch, config.warmup);
  const start = options.resume ? await resumePoint(paths, model, step, config.select) : null;
  const state = start?.state ?? createTrainState(model, step.optimizer, config.seed);
  const records: EpochRecord[] = [...(start?.meta.records ?? [])];
  await writeLog(paths.log, records);
  const best = new BestEpoch(config.select, start?.best);
  let bestWeights = start?.bestWeights ?? { params: state.params, buffers: state.buffers };
  let trainSeconds = start?.meta.trainSeconds ?? 0;
  let samples = start?.meta.samples ?? 0;
  const first = start?.meta.epoch ?? 0;
  progress.start({ totalSteps: stepsPerEpoch * config.epochs, doneSteps: first * stepsPerEpoch, epochs: config.epochs });
  for (let epoch = first; epoch < config.epochs; epoch++) {
    if (options.signal?.aborted) return { status: 'stopped', paths, config, records };
    const t0 = performance.now();
    let lossSum = 0;
    let rows = 0;
    const termSums: Record<string, number> = {};
    let batchIndex = 0;
    let lastLr = 0;
    for (const position of batchPositions(n, { batchSize: config.batch, seed: config.seed, start: { epoch, batch: 0 }, endEpoch: epoch + 1 })) {
      const b = position.indices.length;
      const x = gatherRows(train.images, imageSize, position.indices, new Float32Array(b * imageSize));
      const y = gatherRows(train.masks, pixels, position.indices, new Int32Array(b * pixels));
      lastLr = lr.at(epoch, batchIndex);
      const s0 = performance.now();
      const r = step.run(state, { x, y }, lastLr);
      trainSeconds += (performance.now() - s0) / 1000;
      if (!Number.isFinite(r.loss)) invalidArgument('training', 'a finite loss', `${r.loss} at epoch ${epoch + 1}, update ${state.step}`);
      lossSum += r.loss * b;
      for (const [k, v] of Object.entries(r.terms)) termSums[k] = (termSums[k] ?? 0) + v * b;
      rows += b;
      samples += b;
      batchIndex++;
      progress.step({ epoch, doneSteps: epoch * stepsPerEpoch + batchIndex, loss: lossSum / rows, samples: rows, trainSeconds });
    }
    const val = pixelValidationScores(predictLogits(evalStep, state, validation.images, config.evalBatch), validation, config.bins);
    const improved = best.consider(epoch, val);
    if (improved) bestWeights = { params: Float32Array.from(state.params), buffers: Float32Array.from(state.buffers) };
    const record: EpochRecord = {
      epoch: epoch + 1,
      steps: state.step,
      lr: lastLr,
      train_loss: lossSum / rows,
      train_terms: Object.fromEntries(Object.entries(termSums).map(([k, v]) => [k, v / rows])),
      val_accuracy: val.accuracy,
      val_nll: val.nll,
      val_ece: val.ece,
      val_adaece: val.adaece,
      val_refinement_nll: val.refinement,
      best: improved,
      epoch_time_s: (performance.now() - t0) / 1000,
      train_time_s: trainSeconds,
      samples_per_s: samples / trainSeconds,
    };
    records.push(record);
    await appendRecord(paths.log, record);
    const meta: SegmentationCheckpointMeta = { epoch: epoch + 1, records, best: { ...best.best, value: Number.isFinite(best.best.value) ? best.best.value : null }, trainSeconds, samples };
    if (improved) await saveCheckpoint(paths.bestCheckpoint, { model, optimizer: step.optimizer, state, metadata: { ...meta } });
    await saveCheckpoint(paths.lastCheckpoint, { model, optimizer: step.optimizer, state, metadata: { ...meta } });
    progress.epoch(record, config.epochs);
  }

  progress.message('final evaluation');
  const weights = bestWeights;
  const summarise = async (d: SegmentationDataset, logitsPath: string, labelsPath: string): Promise<SegmentationMetrics> => {
    const logits = predictLogits(evalStep, weights, d.images, config.evalBatch);
    const pick = keptImages(d.labels.length);
    const k = pick.length;
    await writeNpy(logitsPath, gatherRows(logits, classes * pixels, pick, new Float32Array(k * classes * pixels)), [k, classes, h, w]);
    await writeNpy(labelsPath, gatherRows(d.masks, pixels, pick, new Int32Array(k * pixels)), [k, h, w]);
    return segmentationMetrics(logits, d.masks, d.labels.length, classes, metricOptions);
  };
  const valMetrics = await summarise(validation, paths.valLogits, paths.valLabels);
  const testMetrics = await summarise(test, paths.testLogits, paths.testLabels);
  await saveOnnx(paths.onnx, model, weights);
  const summary: SegmentationSummary = {
    task: 'segmentation',
    dataset: config.dataset,
    model: config.model,
    loss: config.loss,
    seed: config.seed,
    epochs: config.epochs,
    best_epoch: best.best.epoch + 1,
    select: config.select,
    train_time_s: trainSeconds,
    samples_per_s: samples / trainSeconds,
    data: { train: train.labels.length, validation: validation.labels.length, test: test.labels.length, logit_images: Math.min(SEGMENTATION_LOGIT_IMAGES, test.labels.length) },
    ignore_index: train.ignoreIndex,
    classes,
    validation: valMetrics,
    test: testMetrics,
  };
  await writeJson(paths.summary, summary);
  return { status: 'completed', paths, config, records, summary };
}
