/**
 * The machinery of a run, built once from its configuration, data and task (task-strategy.ts): model, optimizer, how batches are prepared
 * (trainer-batch.ts), the compiled train steps (the main step; the secondary-only step of interleaved training),
 * the evaluation step, the final evaluation's predictor (deterministic or MC dropout), the learning-rate schedule
 * and the shape of an epoch (which positions it visits, in order).
 */
import { batchPositions, batchesPerEpoch, gatherBatch, type IndexBatch } from '../../data/batching.js';
import { datasetSize, type Dataset } from '../../data/dataset.js';
import { defaultManifoldLayers, checkMixingLayers, mixingHook } from '../../augment/manifold-mixup.js';
import { heldOutSeed, interleavedEpoch } from '../../augment/interleaved.js';
import type { HostStateDeclaration } from '../../losses/host-state.js';
import type { Model } from '../../nn/model.js';
import { createOptimizer } from '../../optim/create.js';
import type { Optimizer } from '../../optim/optimizer.js';
import { invalidArgument } from '../../util/errors.js';
import { EvalStep } from '../steps/compile-eval-step.js';
import { type ExtraSpec, TrainStep, type TrainStepOptions } from '../steps/compile-train-step.js';
import { LearningRate, parseSchedule } from '../lr-schedule-spec.js';
import { type RunPredictor, runPredictor } from './run-predictor.js';
import { optimizerSpec, type TrainConfig } from '../train-config.js';
import { type BatchPlan, type ExtraRows, softTargets } from './trainer-batch.js';
import { resolveAugmentation, type RunData } from './trainer-data.js';
import { objectiveLossFn, placementLossFn, primaryHostState } from './trainer-objective.js';
import type { TaskStrategy } from '../tasks/task-strategy.js';

/** One update of an epoch: a batch position and which step runs it. */
export type EpochStep = IndexBatch & { readonly phase: 'primary' | 'secondary' };

/** Everything a run's epochs need (see the module comment). */
export interface RunSetup {
  readonly config: TrainConfig;
  readonly data: RunData;
  /** What the task decides (targets, validation scores, final artefacts). */
  readonly task: TaskStrategy;
  readonly model: Model;
  readonly optimizer: Optimizer;
  readonly plan: BatchPlan;
  /** Where the secondary term is computed ('mixed' also for interleaved training and runs without one). */
  readonly placement: 'mixed' | 'sources' | 'holdout';
  readonly interleaved: boolean;
  /** The primary loss's host-state declaration (stateful losses such as CRL), else null. */
  readonly host: HostStateDeclaration | null;
  readonly mainStep: TrainStep;
  readonly secondaryStep: TrainStep | null;
  readonly evalStep: EvalStep;
  /** The final evaluation's predictor: `evalStep`, or MC dropout with `config.mcDropout` (run-predictor.ts). */
  readonly predictor: RunPredictor;
  readonly trainSize: number;
  readonly stepsPerEpoch: number;
  readonly lr: LearningRate;
  /** The positions of epoch `epoch`, in order. */
  epochSteps(epoch: number): Iterable<EpochStep>;
  /** The held-out rows appended to update `t` (0-based over the run) under the 'holdout' placement. */
  holdoutRows(t: number): ExtraRows;
  dispose(): void;
}

/** The optimizer of a configuration. */
export function runOptimizer(config: TrainConfig): Optimizer {
  return createOptimizer(optimizerSpec(config), 'config');
}

/** Build the machinery of `config` on `data` for `task`. */
export function setupRun(config: TrainConfig, data: RunData, task: TaskStrategy): RunSetup {
  const model = task.createModel(config, data);
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
  const host = primaryHostState(config);
  const objective = task.objective(config, data);
  const heldOut = data.heldOut;
  if ((interleaved || placement === 'holdout') && !heldOut) invalidArgument('data.heldOut', 'a held-out split for the secondary term', 'none');

  const dropLast = placement !== 'mixed';
  const trainSize = datasetSize(data.train);
  if (dropLast && trainSize < B) invalidArgument('config.batch', `at most the ${trainSize} training samples (full batches are needed for the secondary placement)`, String(B));
  const mainBatches = batchesPerEpoch(trainSize, { batchSize: B, dropLast });
  const heldBatches = interleaved ? batchesPerEpoch(datasetSize(heldOut!), { batchSize: Math.min(B, datasetSize(heldOut!)) }) : 0;
  const stepsPerEpoch = mainBatches + heldBatches;
  const lr = new LearningRate(parseSchedule(config.schedule, config.epochs), config.lr, config.epochs, stepsPerEpoch, config.warmup);
  const holdoutBatch = placement === 'holdout' ? Math.min(B, datasetSize(heldOut!)) : 0;
  const holdoutPerEpoch = placement === 'holdout' ? Math.floor(datasetSize(heldOut!) / holdoutBatch) : 0;

  // Compiled steps (traced lazily per batch size).
  const extras: Record<string, ExtraSpec> = {};
  if (plan.mixLayers) {
    extras['mix-perm'] = { dtype: 'int32', shape: [-1] };
    extras['mix-weights'] = { dtype: 'float32', shape: [plan.mixLayers.length] };
  }
  if (host) for (const [name, spec] of Object.entries(host.inputs)) extras[name] = { ...spec, rows: true };
  const stepOptions: TrainStepOptions = {
    batch: B,
    targets: softTargets(plan) ? 'soft' : 'labels',
    extras,
    ...(plan.mixLayers ? { features: (e) => mixingHook(plan.mixLayers!, e) } : {}),
    outputLogits: host !== null,
    threads: config.threads,
    replicas: config.replicas,
  };
  const mainLoss = placement !== 'mixed' ? placementLossFn(objective, B) : objectiveLossFn(objective, interleaved ? 'primary' : 'full');
  const mainStep = new TrainStep(model, mainLoss, optimizer, stepOptions);
  const secondaryStep = interleaved ? new TrainStep(model, objectiveLossFn(objective, 'secondary'), optimizer, { batch: B, threads: config.threads, replicas: config.replicas }) : null;
  const evalStep = new EvalStep(model, { threads: config.threads });
  let predictor: RunPredictor;
  try {
    predictor = runPredictor(config, model, evalStep);
  } catch (e) {
    mainStep.dispose();
    secondaryStep?.dispose();
    evalStep.dispose();
    throw e;
  }

  return {
    config,
    data,
    task,
    model,
    optimizer,
    plan,
    placement,
    interleaved,
    host,
    mainStep,
    secondaryStep,
    evalStep,
    predictor,
    trainSize,
    stepsPerEpoch,
    lr,
    epochSteps: (epoch) =>
      interleaved
        ? interleavedEpoch(epoch, trainSize, datasetSize(heldOut!), { batchSize: B, seed: config.seed })
        : primarySteps(batchPositions(trainSize, { batchSize: B, seed: config.seed, dropLast, start: { epoch, batch: 0 }, endEpoch: epoch + 1 })),
    holdoutRows: (t) => holdoutRows(heldOut!, t, holdoutBatch, holdoutPerEpoch, config.seed),
    dispose() {
      mainStep.dispose();
      secondaryStep?.dispose();
      evalStep.dispose();
      predictor.dispose();
    },
  };
}

/** Positions of a plain epoch as primary-phase steps. */
function* primarySteps(positions: Iterable<IndexBatch>): Generator<EpochStep> {
  for (const p of positions) yield { ...p, phase: 'primary' as const };
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
