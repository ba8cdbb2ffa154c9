/**
 * The trainer: runs a configuration (train-config.ts) end to end in a run directory (run-directory.ts).
 *
 *   for each epoch e (0-based):
 *     for each batch of the epoch's order (src/data/batching.ts; seed = config.seed, position-addressable):
 *       prepare it on the host (trainer-batch.ts; draws from Random(epochSeed(seed ⊕ HOST_SALT, e)))
 *       one compiled train step at lr(e, step) (forward, loss, backward, update in one ONNX graph)
 *     [interleaved: then each batch of the held-out part with the secondary-only step]
 *     validation logits → accuracy, NLL, ECE, AdaECE → best-epoch check
 *     checkpoint-best (if improved), then checkpoint-last, then one log.jsonl line
 *   finally, with the best epoch's weights: validation and test logits (.npy), model.onnx, summary.json,
 *   and with `ood`, ood.json
 *
 * Exact resumption: every random draw is a function of (seed, epoch, position) or lives in the checkpointed state
 * (the step generator that draws dropout masks; CRL's correctness counts), and a checkpoint is written only at
 * epoch ends. A run stopped anywhere (killed, or `signal` aborted) resumes from its last finished epoch and ends
 * with the same weights, bit for bit on the same machine, as a run that was never stopped.
 */
import { mkdir, rm } from 'node:fs/promises';
import { batchPositions, batchesPerEpoch, epochSeed, gatherBatch } from '../data/batching.js';
import { datasetSize, subset, type Dataset, type ImageDataset } from '../data/dataset.js';
import { loadDataset, type DatasetName } from '../data/load-dataset.js';
import type { Feed } from '../engine/index.js';
import { defaultManifoldLayers, checkMixingLayers, mixingHook } from '../augment/manifold-mixup.js';
import { heldOutSeed, interleavedEpoch } from '../augment/interleaved.js';
import { CorrectnessHistory } from '../losses/crl-history.js';
import { evaluate } from '../metrics/evaluate.js';
import { parameterCount, type Model } from '../nn/model.js';
import { modelSpec } from '../nn/models/zoo.js';
import { createOptimizer, type OptimizerSpec } from '../optim/create.js';
import type { Optimizer } from '../optim/optimizer.js';
import { writeNpy } from '../io/npy.js';
import { describe, invalidArgument } from '../util/errors.js';
import { matrix } from '../util/matrix.js';
import { Random } from '../util/random.js';
import { BestEpoch, type BestState } from './best-epoch.js';
import { loadCheckpoint, saveCheckpoint } from './checkpoint.js';
import { EvalStep } from './compile-eval-step.js';
import { type ExtraSpec, TrainStep, type TrainStepOptions } from './compile-train-step.js';
import { saveOnnx } from './export-onnx.js';
import { LearningRate, parseSchedule } from './lr-schedule-spec.js';
import { defaultOodDataset, evaluateShift, type ShiftReport } from './ood-evaluation.js';
import { datasetInputs, predictLogits, validationScores, type Weights } from './predict.js';
import { SILENT_PROGRESS, type TrainProgress } from './progress.js';
import { readJson, runPaths, type RunPaths, writeJson } from './run-directory.js';
import { resolveTrainConfig, type TrainConfig, within } from './train-config.js';
import { appendRecord, type EpochRecord, writeLog } from './train-log.js';
import { createTrainState, type TrainState } from './train-state.js';
import { type BatchPlan, type ExtraRows, prepareBatch, softTargets } from './trainer-batch.js';
import { loadRunData, resolveAugmentation, type RunData } from './trainer-data.js';
import { createRunModel } from './trainer-model.js';
import { CRL_COUNTS, CRL_EPOCHS, CRL_EXTRAS, CRL_MIN, needsHistory, objectiveLossFn, placementLossFn } from './trainer-objective.js';
import { pathExists } from '../util/path-exists.js';

/** Salt of the host generator (augmentation and mixup draws) so it differs from the batch-order stream. */
const HOST_SALT = 0x6d697875;

/** Options of `train`. */
export interface TrainOptions {
  /** Continue the run in `config.out` from its last checkpoint (the config must be the run's config.json). */
  readonly resume?: boolean;
  /** Replace an existing run in `config.out` instead of refusing. */
  readonly overwrite?: boolean;
  /** Progress display (default: silent). */
  readonly progress?: TrainProgress;
  /** Stop after the current update when aborted (the run stays resumable from its last finished epoch). */
  readonly signal?: AbortSignal;
  /** Called after every update (0-based epoch, updates done in total). */
  readonly onStep?: (info: { readonly epoch: number; readonly steps: number; readonly phase: 'primary' | 'secondary' }) => void;
  /** Pre-loaded data splits (default: loaded from the configuration). */
  readonly data?: RunData;
  /** Second dataset for the OOD evaluation (default: loaded by name, see `defaultOodDataset`). */
  readonly oodDataset?: ImageDataset;
}

/** summary.json. */
export interface RunSummary {
  readonly best_epoch: number;
  readonly select: string;
  readonly epochs: number;
  readonly model: Readonly<Record<string, unknown>>;
  readonly parameters: number;
  readonly data: { readonly train: number; readonly validation: number; readonly test: number; readonly held_out: number; readonly classes: number };
  /** Every metric of the test split (fractions; see src/metrics/evaluate.ts). */
  readonly test: Readonly<Record<string, unknown>>;
  readonly validation: Readonly<Record<string, unknown>>;
  /** Mean training throughput over the run's epochs (samples/s) and total training time (s). */
  readonly samples_per_s: number;
  readonly train_time_s: number;
}

/** What `train` returns. */
export interface TrainResult {
  /** 'completed' (all epochs and the final evaluation done) or 'stopped' (aborted; resumable). */
  readonly status: 'completed' | 'stopped';
  readonly paths: RunPaths;
  readonly config: TrainConfig;
  /** Finished epochs. */
  readonly epochs: number;
  readonly best: BestState;
  readonly records: readonly EpochRecord[];
  /** State after the last finished epoch (last checkpoint). */
  readonly state: TrainState;
  readonly summary?: RunSummary;
  readonly ood?: ShiftReport;
}

/** Metadata stored in every checkpoint of a run. */
interface RunMetadata {
  readonly epoch: number;
  readonly best: BestState;
  readonly records: readonly EpochRecord[];
  readonly crlCounts?: readonly number[];
}

/** The optimizer of a configuration. */
export function runOptimizer(config: TrainConfig): Optimizer {
  const spec: OptimizerSpec =
    config.optimizer === 'sgd'
      ? { kind: 'sgd', momentum: config.momentum, nesterov: config.nesterov, weightDecay: config.weightDecay }
      : { kind: config.optimizer, weightDecay: config.weightDecay };
  return createOptimizer(spec);
}

/** Continue the run in `dir` (reads its config.json; see `train`). */
export async function resumeTraining(dir: string, options: Omit<TrainOptions, 'resume' | 'overwrite'> = {}): Promise<TrainResult> {
  const paths = runPaths(dir);
  if (!(await pathExists(paths.lastCheckpoint))) invalidArgument('--resume', `a run directory with ${'checkpoint-last.ckpt'}`, `none in ${dir}`);
  const raw = (await readJson(paths.config, `${dir}/config.json`)) as Record<string, unknown>;
  const config = resolveTrainConfig({ ...raw, out: dir }, `${dir}/config.json`);
  return train(config, { ...options, resume: true });
}

/** Run (or resume) training for `config`; see the module comment. */
export async function train(configInput: TrainConfig, options: TrainOptions = {}): Promise<TrainResult> {
  const config = resolveTrainConfig(configInput);
  const paths = runPaths(config.out);
  const progress = options.progress ?? SILENT_PROGRESS;
  await mkdir(paths.dir, { recursive: true });
  if (!options.resume) {
    if (!options.overwrite && (await pathExists(paths.lastCheckpoint))) {
      invalidArgument('out', 'a directory without a run (resume it with --resume, or choose another --out)', `${paths.dir} holds checkpoint-last.ckpt`);
    }
    if (options.overwrite) {
      // Outputs of the replaced run must not survive next to the new one (e.g. an old ood.json).
      const stale = [paths.lastCheckpoint, paths.bestCheckpoint, paths.valLogits, paths.valLabels, paths.testLogits, paths.testLabels, paths.onnx, paths.summary, paths.ood];
      await Promise.all(stale.map((f) => rm(f, { force: true })));
    }
    await writeJson(paths.config, config);
  }

  const data = options.data ?? (await loadRunData(config));
  const model = within('config.modelOptions', () => createRunModel(config.model, config.modelOptions, data.train));
  const optimizer = runOptimizer(config);
  const B = config.batch;
  const plan: BatchPlan = {
    augmentation: data.train.kind === 'image' ? resolveAugmentation(config.augment, config.dataset) : 'none',
    alpha: config.mixup,
    kind: config.mixupKind,
    mixLayers:
      config.mixup > 0 && config.mixupKind === 'manifold'
        ? checkMixingLayers(config.mixupLayers ?? defaultManifoldLayers(model.featureLayers), model.featureLayers, 'config.mixupLayers')
        : config.mixup > 0 && config.mixupKind === 'embedding'
          ? checkMixingLayers(['embedding'], model.featureLayers, 'config.mixupKind')
          : null,
    classes: data.classes,
  };
  const placement = config.secondary !== undefined && config.interleaved === undefined ? config.arcPlacement : 'mixed';
  const interleaved = config.interleaved !== undefined;
  const history = needsHistory(config);
  const heldOut = data.heldOut;
  if ((interleaved || placement === 'holdout') && !heldOut) invalidArgument('data.heldOut', 'a held-out split for the secondary term', 'none');

  // Compiled steps (traced lazily per batch size).
  const extras: Record<string, ExtraSpec> = {};
  if (plan.mixLayers) {
    extras['mix-perm'] = { dtype: 'int32', shape: [-1] };
    extras['mix-weights'] = { dtype: 'float32', shape: [plan.mixLayers.length] };
  }
  if (history) Object.assign(extras, CRL_EXTRAS);
  const stepOptions: TrainStepOptions = {
    batch: B,
    targets: softTargets(plan) ? 'soft' : 'labels',
    extras,
    ...(plan.mixLayers ? { features: (e) => mixingHook(plan.mixLayers!, e) } : {}),
    outputLogits: history,
    threads: config.threads,
  };
  const mainLoss = placement !== 'mixed' ? placementLossFn(config, B) : objectiveLossFn(config, interleaved ? 'primary' : 'full');
  const mainStep = new TrainStep(model, mainLoss, optimizer, stepOptions);
  const secondaryStep = interleaved ? new TrainStep(model, objectiveLossFn(config, 'secondary'), optimizer, { batch: B, threads: config.threads }) : null;
  const evalStep = new EvalStep(model, { threads: config.threads });

  try {
    // State: fresh or from the last checkpoint.
    let state: TrainState;
    let meta: RunMetadata;
    if (options.resume) {
      const ckpt = await loadCheckpoint(paths.lastCheckpoint, { model, optimizer });
      state = ckpt.state;
      meta = ckpt.header.metadata as unknown as RunMetadata;
      if (!Number.isInteger(meta.epoch) || !Array.isArray(meta.records)) invalidArgument(paths.lastCheckpoint, 'a checkpoint written by the trainer (metadata.epoch, metadata.records)', describe(meta.epoch));
      await writeLog(paths.log, meta.records);
    } else {
      state = createTrainState(model, optimizer, config.seed);
      meta = { epoch: 0, best: new BestEpoch(config.select).best, records: [] };
      await writeLog(paths.log, []);
    }
    const best = new BestEpoch(config.select, meta.best.epoch >= 0 ? meta.best : undefined);
    const records: EpochRecord[] = [...meta.records];
    const crl = history ? restoreHistory(datasetSize(data.train), meta) : null;

    // Batches per epoch and the learning rate.
    const dropLast = placement !== 'mixed';
    const nTrain = datasetSize(data.train);
    if (dropLast && nTrain < B) invalidArgument('config.batch', `at most the ${nTrain} training samples (full batches are needed for the secondary placement)`, String(B));
    const mainBatches = batchesPerEpoch(nTrain, { batchSize: B, dropLast });
    const heldBatches = interleaved ? batchesPerEpoch(datasetSize(heldOut!), { batchSize: Math.min(B, datasetSize(heldOut!)) }) : 0;
    const stepsPerEpoch = mainBatches + heldBatches;
    const lr = new LearningRate(parseSchedule(config.schedule, config.epochs), config.lr, config.epochs, stepsPerEpoch, config.warmup);
    const holdoutBatch = placement === 'holdout' ? Math.min(B, datasetSize(heldOut!)) : 0;
    const holdoutPerEpoch = placement === 'holdout' ? Math.floor(datasetSize(heldOut!) / holdoutBatch) : 0;

    progress.start({ totalSteps: stepsPerEpoch * config.epochs, doneSteps: stepsPerEpoch * meta.epoch, epochs: config.epochs });
    let stopped = false;
    for (let epoch = meta.epoch; epoch < config.epochs && !stopped; epoch++) {
      const t0 = performance.now();
      const rng = new Random(epochSeed(config.seed ^ HOST_SALT, epoch));
      let lossSum = 0;
      let rows = 0;
      const termSums: Record<string, number> = {};
      const termRows: Record<string, number> = {};
      let trainSeconds = 0;
      let samples = 0;
      let lastLr = 0;
      let stepInEpoch = 0;
      const steps = interleaved
        ? interleavedEpoch(epoch, nTrain, datasetSize(heldOut!), { batchSize: B, seed: config.seed })
        : mapSteps(batchPositions(nTrain, { batchSize: B, seed: config.seed, dropLast, start: { epoch, batch: 0 }, endEpoch: epoch + 1 }));
      for (const position of steps) {
        const ts = performance.now();
        const rate = lr.at(epoch, stepInEpoch);
        lastLr = rate;
        let result;
        let batchRows: number;
        if (position.phase === 'secondary') {
          const batch = gatherBatch(heldOut!, position);
          batchRows = batch.labels.length;
          result = secondaryStep!.run(state, { x: batch.kind === 'image' ? batch.images : batch.tokens, y: batch.labels }, rate);
        } else {
          const batch = gatherBatch(data.train, position);
          let extra: 'sources' | ExtraRows | undefined;
          if (placement === 'sources') extra = 'sources';
          else if (placement === 'holdout') extra = holdoutRows(heldOut!, state.step, holdoutBatch, holdoutPerEpoch, config.seed);
          const prepared = prepareBatch(plan, batch, rng, extra);
          batchRows = prepared.mainRows;
          const feeds: Record<string, Feed> = { ...prepared.extras };
          if (crl) {
            feeds[CRL_COUNTS] = crl.batch(batch.indices);
            feeds[CRL_EPOCHS] = crl.epochs;
            feeds[CRL_MIN] = crl.min;
          }
          result = mainStep.run(state, { x: prepared.x, y: prepared.y, extras: feeds }, rate);
          if (crl) crl.record(batch.indices, correctRows(result.logits!, batch.labels, data.classes));
        }
        lossSum += result.loss * batchRows;
        for (const [k, v] of Object.entries(result.terms)) {
          termSums[k] = (termSums[k] ?? 0) + v * batchRows;
          termRows[k] = (termRows[k] ?? 0) + batchRows;
        }
        rows += batchRows;
        samples += batchRows;
        trainSeconds += (performance.now() - ts) / 1000;
        stepInEpoch++;
        progress.step({ epoch, doneSteps: epoch * stepsPerEpoch + stepInEpoch, loss: lossSum / rows, samples, trainSeconds });
        options.onStep?.({ epoch, steps: state.step, phase: position.phase });
        if (options.signal) {
          await new Promise((resolve) => setImmediate(resolve));
          if (options.signal.aborted) {
            stopped = true;
            break;
          }
        }
      }
      if (stopped) break;
      crl?.endEpoch();

      const valLogits = predictLogits(evalStep, state, datasetInputs(data.validation), config.evalBatch);
      const scores = validationScores(valLogits, data.validation.labels, data.classes, config.bins);
      const improved = best.consider(epoch, scores);
      const trainTerms: Record<string, number> = {};
      for (const [k, v] of Object.entries(termSums)) trainTerms[k] = v / termRows[k]!;
      const record: EpochRecord = {
        epoch: epoch + 1,
        steps: state.step,
        lr: lastLr,
        train_loss: lossSum / rows,
        train_terms: trainTerms,
        val_accuracy: scores.accuracy,
        val_nll: scores.nll,
        val_ece: scores.ece,
        val_adaece: scores.adaece,
        best: improved,
        epoch_time_s: 0,
        train_time_s: trainSeconds,
        samples_per_s: samples / trainSeconds,
      };
      records.push({ ...record, epoch_time_s: (performance.now() - t0) / 1000 });
      const metadata: RunMetadata = { epoch: epoch + 1, best: best.best, records, ...(crl ? { crlCounts: Array.from(crl.batch(allIndices(nTrain))) } : {}) };
      if (improved) await saveCheckpoint(paths.bestCheckpoint, { model, optimizer, state, metadata: metadata as never });
      await saveCheckpoint(paths.lastCheckpoint, { model, optimizer, state, metadata: metadata as never });
      const final = records[records.length - 1]!;
      await appendRecord(paths.log, final);
      progress.epoch(final, config.epochs);
      meta = metadata;
    }
    progress.finish();
    if (stopped) return { status: 'stopped', paths, config, epochs: meta.epoch, best: best.best, records, state };

    // Final evaluation with the best weights.
    progress.message(`best epoch ${best.best.epoch + 1} by validation ${config.select}; evaluating and exporting`);
    const bestWeights: Weights = (await loadCheckpoint(paths.bestCheckpoint, { model, optimizer })).state;
    const summary = await finalize(config, paths, model, evalStep, bestWeights, data, best.best, records);
    let ood: ShiftReport | undefined;
    if (config.ood) {
      ood = await runOod(config, paths, evalStep, bestWeights, data, options.oodDataset, progress);
    }
    return { status: 'completed', paths, config, epochs: config.epochs, best: best.best, records, state, summary, ...(ood ? { ood } : {}) };
  } finally {
    mainStep.dispose();
    secondaryStep?.dispose();
    evalStep.dispose();
  }
}

/** Positions of a plain epoch as primary-phase steps. */
function* mapSteps<T>(positions: Iterable<T>): Generator<T & { phase: 'primary' }> {
  for (const p of positions) yield { ...p, phase: 'primary' as const };
}

function allIndices(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/** Rebuild CRL's correctness history from checkpoint metadata (counts per sample, finished epochs). */
function restoreHistory(n: number, meta: RunMetadata): CorrectnessHistory {
  const h = new CorrectnessHistory(n);
  const counts = meta.crlCounts ?? [];
  if (counts.length !== 0 && counts.length !== n) invalidArgument('checkpoint metadata.crlCounts', `${n} counts`, String(counts.length));
  const idx: number[] = [];
  counts.forEach((c, i) => {
    for (let k = 0; k < c; k++) idx.push(i);
  });
  if (idx.length) h.record(idx, new Array<number>(idx.length).fill(1));
  for (let e = 0; e < meta.epoch; e++) h.endEpoch();
  return h;
}

/** 1 where argmax of the logits row equals the label (first index on ties), else 0. Shapes: [B, C], [B]. */
function correctRows(logits: Float32Array, labels: Int32Array, classes: number): Uint8Array {
  const out = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    let arg = 0;
    for (let k = 1; k < classes; k++) if (logits[i * classes + k]! > logits[i * classes + arg]!) arg = k;
    out[i] = arg === labels[i] ? 1 : 0;
  }
  return out;
}

/**
 * The held-out batch of update t (0-based, counted over the run): position (⌊t / P⌋, t mod P) of the held-out
 * stream (full batches, seed heldOutSeed(seed)), so it follows from the step counter alone.
 */
function holdoutRows(heldOut: Dataset, t: number, batch: number, perEpoch: number, seed: number): ExtraRows {
  const start = { epoch: Math.floor(t / perEpoch), batch: t % perEpoch };
  const position = batchPositions(datasetSize(heldOut), { batchSize: batch, seed: heldOutSeed(seed), dropLast: true, start, endEpoch: start.epoch + 1 }).next().value!;
  const b = gatherBatch(heldOut, position);
  return { x: b.kind === 'image' ? b.images : b.tokens, labels: b.labels };
}

/** Final logits, model export and summary with the best weights. */
async function finalize(
  config: TrainConfig,
  paths: RunPaths,
  model: Model,
  evalStep: EvalStep,
  weights: Weights,
  data: RunData,
  best: BestState,
  records: readonly EpochRecord[],
): Promise<RunSummary> {
  const c = data.classes;
  const valLogits = predictLogits(evalStep, weights, datasetInputs(data.validation), config.evalBatch);
  const testLogits = predictLogits(evalStep, weights, datasetInputs(data.test), config.evalBatch);
  await writeNpy(paths.valLogits, valLogits, [data.validation.labels.length, c]);
  await writeNpy(paths.valLabels, data.validation.labels, [data.validation.labels.length]);
  await writeNpy(paths.testLogits, testLogits, [data.test.labels.length, c]);
  await writeNpy(paths.testLabels, data.test.labels, [data.test.labels.length]);
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
    },
    test: metrics(testLogits, data.test.labels),
    validation: metrics(valLogits, data.validation.labels),
    samples_per_s: trainTime > 0 ? trainSamples / trainTime : Number.NaN,
    train_time_s: trainTime,
  };
  await writeJson(paths.summary, JSON.parse(JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))));
  return summary;
}

/** OOD / shift evaluation of the best weights into ood.json (image datasets only). */
async function runOod(
  config: TrainConfig,
  paths: RunPaths,
  evalStep: EvalStep,
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
      const splits = await loadDataset(name as DatasetName, config.oodDatasetOptions as never);
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
  const report = evaluateShift((images) => predictLogits(evalStep, weights, images, config.evalBatch), data.train, test, {
    ...(other ? { oodDataset: other } : {}),
    seed: config.seed,
    bins: config.bins,
    onProgress: (what) => progress.message(`ood: ${what}`),
  });
  const out = skipped ? { ...report, ood_dataset_skipped: skipped } : report;
  await writeJson(paths.ood, JSON.parse(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))));
  return report;
}
