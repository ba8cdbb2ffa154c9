/**
 * The trainer: runs a configuration (train-config.ts) end to end in a run directory (run-directory.ts), for every
 * task (classification of images or text, segmentation): what differs by task — data, model checks, targets,
 * validation scores, final artefacts — is the task's strategy (task-strategy.ts, chosen by task-of-config.ts); the
 * rest is one loop, in four parts:
 *
 *   open or resume   run-open.ts (directory checks, run.lock, config.json) and run-setup.ts (model, optimizer,
 *                    compiled steps); state fresh, or from checkpoint-last.ckpt (run-checkpoint.ts)
 *   run epoch        run-epoch.ts: the updates of one epoch, mid-epoch checkpoints, stop on signal, divergence check
 *   evaluate         run-evaluate.ts: validation metrics → best-epoch check → checkpoint-best (if improved),
 *                    checkpoint-last, one log.jsonl line
 *   finalise         the task's `finalise` with the best epoch's weights: classification (run-finalise.ts) writes
 *                    validation and test logits (.npy; MC dropout with `mcDropout`, run-predictor.ts), model.onnx,
 *                    summary.json, and with `ood`, ood.json; segmentation (segmentation-task.ts) dense logits of a
 *                    sample of images, model.onnx and pixel metrics in summary.json
 *
 * Exact resumption: every random draw is a function of (seed, epoch, position) or lives in the checkpointed state
 * (the step generator that draws dropout masks, the epoch's host generator, a stateful loss's host state), and a
 * checkpoint is written at every epoch end, every few minutes or N updates within an epoch, and at every stop. A run
 * stopped anywhere resumes from its last checkpoint and ends with the same weights, bit for bit on the same machine,
 * as a run that was never stopped.
 */
import type { ImageDataset } from '../../data/dataset.js';
import type { LossHostState } from '../../losses/host-state.js';
import { BestEpoch, type BestState } from './best-epoch.js';
import type { ShiftReport } from '../evaluation/ood-evaluation.js';
import { SILENT_PROGRESS, type TrainProgress } from './progress.js';
import { loadRunCheckpoint, type RunMetadata, saveRunCheckpoint } from './run-checkpoint.js';
import { clearFailureRecord, writeFailureRecord } from '../artefacts/failure-record.js';
import { readJson, type RunPaths } from '../artefacts/run-directory.js';
import { runEpoch } from './run-epoch.js';
import { chanceWarning, evaluateEpoch, writeEpochLogits } from './run-evaluate.js';
import { openRunDirectory } from './run-open.js';
import { type RunSetup, setupRun } from './run-setup.js';
import { resolveTrainConfig, type TrainConfig } from '../train-config.js';
import { appendRecord, type EpochRecord, writeLog } from '../artefacts/train-log.js';
import { createTrainState, type TrainState } from '../steps/train-state.js';
import { TrainingError } from '../training-error.js';
import type { RunData } from './trainer-data.js';
import type { SegmentationSummary } from '../tasks/segmentation-task.js';
import type { RunSummary } from './run-finalise.js';
import { isSegmentationSummary } from '../tasks/task-strategy.js';
import { taskOf } from '../tasks/task-of-config.js';
import { runPaths } from '../artefacts/run-directory.js';
import { invalidArgument } from '../../util/errors.js';
import { pathExists } from '../../util/path-exists.js';

export { runOptimizer } from './run-setup.js';
export type { RunSummary } from './run-finalise.js';

/** Default wall time between mid-epoch checkpoints (s). */
export const DEFAULT_CHECKPOINT_SECONDS = 300;

/** Options of `train`. */
export interface TrainOptions {
  /** Continue the run in `config.out` from its last checkpoint (the config must be the run's config.json). */
  readonly resume?: boolean;
  /** Replace an existing run in `config.out` instead of refusing. */
  readonly overwrite?: boolean;
  /** Progress display (default: silent). */
  readonly progress?: TrainProgress;
  /** Stop after the current update when aborted: a checkpoint of that point is written, so the run resumes exactly. */
  readonly signal?: AbortSignal;
  /**
   * Mid-epoch checkpoints (checkpoint-last.ckpt) every `steps` updates and/or every `seconds` of wall time (default:
   * every 300 s; 0 or absent turns one criterion off). Epoch ends and stops are always checkpointed.
   */
  readonly checkpointEvery?: { readonly steps?: number; readonly seconds?: number };
  /** Called with a warning (e.g. validation accuracy stuck at chance); default: ignored. */
  readonly onWarning?: (text: string) => void;
  /** Called after every update (0-based epoch, updates done in total). */
  readonly onStep?: (info: { readonly epoch: number; readonly steps: number; readonly phase: 'primary' | 'secondary' }) => void;
  /** Pre-loaded data splits (default: loaded from the configuration). */
  readonly data?: RunData;
  /** Second dataset for the OOD evaluation (default: loaded by name, see `defaultOodDataset`). */
  readonly oodDataset?: ImageDataset;
}

/** What `train` returns. */
export interface TrainResult {
  /** 'completed' (all epochs and the final evaluation done) or 'stopped' (aborted; resumable). */
  readonly status: 'completed' | 'stopped';
  readonly paths: RunPaths;
  readonly config: TrainConfig;
  /** Finished epochs. */
  readonly epochs: number;
  /** Updates made (the step counter of `state`). */
  readonly steps: number;
  readonly best: BestState;
  readonly records: readonly EpochRecord[];
  /** State at the end (completed) or at the stop point (the last checkpoint). */
  readonly state: TrainState;
  /** summary.json of a completed classification run. */
  readonly summary?: RunSummary;
  /** summary.json of a completed segmentation run (pixel metrics; segmentation-task.ts). */
  readonly segmentation?: SegmentationSummary;
  readonly ood?: ShiftReport;
}

/** Continue the run in `dir` (reads its config.json; see `train`). */
export async function resumeTraining(dir: string, options: Omit<TrainOptions, 'resume' | 'overwrite'> & { readonly threads?: number } = {}): Promise<TrainResult> {
  const paths = runPaths(dir);
  if (!(await pathExists(paths.lastCheckpoint))) invalidArgument('--resume', 'a run directory with checkpoint-last.ckpt', `none in ${dir}`);
  const raw = (await readJson(paths.config, `${dir}/config.json`)) as Record<string, unknown>;
  // Threads change no result (the run identity leaves them out), so a resumed run may use another count than config.json's.
  const config = resolveTrainConfig({ ...raw, out: dir, ...(options.threads !== undefined ? { threads: options.threads } : {}) }, `${dir}/config.json`);
  return train(config, { ...options, resume: true });
}

/** Run (or resume) training for `config`; see the module comment. */
export async function train(configInput: TrainConfig, options: TrainOptions = {}): Promise<TrainResult> {
  const config = resolveTrainConfig(configInput);
  const task = taskOf(config);
  task.checkConfig(config);
  const { paths, lock } = await openRunDirectory(config, { resume: options.resume === true, overwrite: options.overwrite === true });
  try {
    const data = options.data ?? (await task.loadData(config));
    const setup = setupRun(config, data, task);
    await clearFailureRecord(paths.dir);
    try {
      return await runTraining(setup, paths, options);
    } catch (e) {
      // The failure's kind, machine-readable for whoever runs the trainer (a suite's failed.json copies it).
      if (e instanceof TrainingError) await writeFailureRecord(paths.dir, e);
      throw e;
    } finally {
      setup.dispose();
    }
  } finally {
    await lock.release();
  }
}

/** Where a run starts: a fresh state, or the last checkpoint's. */
async function startState(setup: RunSetup, paths: RunPaths, resume: boolean): Promise<{ state: TrainState; meta: RunMetadata; host: LossHostState | null }> {
  const { config, host: declaration } = setup;
  if (!resume) {
    const meta: RunMetadata = { epoch: 0, best: new BestEpoch(config.select).best, records: [] };
    await writeLog(paths.log, []);
    return { state: createTrainState(setup.model, setup.optimizer, config.seed), meta, host: declaration?.create(setup.trainSize, setup.data.classes) ?? null };
  }
  const { state, metadata } = await loadRunCheckpoint(paths.lastCheckpoint, setup);
  await writeLog(paths.log, metadata.records);
  const host = declaration?.restore(metadata.lossState, setup.trainSize, setup.data.classes, `${paths.lastCheckpoint}: metadata.lossState`) ?? null;
  return { state, meta: metadata, host };
}

/** The epochs of a run from its start state, then the final evaluation. */
async function runTraining(setup: RunSetup, paths: RunPaths, options: TrainOptions): Promise<TrainResult> {
  const { config } = setup;
  const progress = options.progress ?? SILENT_PROGRESS;
  const start = await startState(setup, paths, options.resume === true);
  const { state, host } = start;
  let meta = start.meta;
  const best = new BestEpoch(config.select, meta.best.epoch >= 0 ? meta.best : undefined);
  const records: EpochRecord[] = [...meta.records];
  const chance = setup.task.chanceAccuracy(setup.data);
  const every = { steps: options.checkpointEvery?.steps ?? 0, seconds: options.checkpointEvery?.seconds ?? DEFAULT_CHECKPOINT_SECONDS };
  let lastSave = performance.now();
  const withState = (m: Omit<RunMetadata, 'lossState'>): RunMetadata => (host ? { ...m, lossState: host.save() } : m);

  progress.start({ totalSteps: setup.stepsPerEpoch * config.epochs, doneSteps: setup.stepsPerEpoch * meta.epoch + (meta.partial?.totals.steps ?? 0), epochs: config.epochs });
  for (let epoch = meta.epoch; epoch < config.epochs; epoch++) {
    const outcome = await runEpoch(setup, state, host, epoch, meta.partial, {
      progress,
      signal: options.signal,
      onStep: options.onStep,
      checkpointDue: (t) => (every.steps > 0 && t.steps % every.steps === 0) || (every.seconds > 0 && performance.now() - lastSave >= every.seconds * 1000),
      saveMidEpoch: async (partial) => {
        await saveRunCheckpoint(paths.lastCheckpoint, setup, state, withState({ epoch, best: best.best, records, partial }));
        lastSave = performance.now();
      },
    });
    if (outcome.status === 'stopped') {
      progress.finish();
      return { status: 'stopped', paths, config, epochs: epoch, steps: state.step, best: best.best, records, state };
    }
    host?.endEpoch();
    const { record, valLogits } = evaluateEpoch(setup, state, epoch, outcome.totals, best);
    if (config.epochLogits) await writeEpochLogits(paths.dir, epoch + 1, valLogits, setup.data.classes);
    records.push(record);
    meta = withState({ epoch: epoch + 1, best: best.best, records });
    if (record.best) await saveRunCheckpoint(paths.bestCheckpoint, setup, state, meta);
    await saveRunCheckpoint(paths.lastCheckpoint, setup, state, meta);
    lastSave = performance.now();
    await appendRecord(paths.log, record);
    progress.epoch(record, config.epochs);
    const warning = chanceWarning(records, config.epochs, chance);
    if (warning) options.onWarning?.(warning);
  }
  progress.finish();

  // Final evaluation with the best weights.
  progress.message(`best epoch ${best.best.epoch + 1} by validation ${config.select}; evaluating and exporting`);
  const bestWeights = (await loadRunCheckpoint(paths.bestCheckpoint, setup)).state;
  const { summary: written, ood } = await setup.task.finalise({
    config,
    paths,
    model: setup.model,
    predictor: setup.predictor,
    weights: bestWeights,
    data: setup.data,
    best: best.best,
    records,
    progress,
    oodDataset: options.oodDataset,
  });
  const summary = isSegmentationSummary(written) ? { segmentation: written } : { summary: written };
  return { status: 'completed', paths, config, epochs: config.epochs, steps: state.step, best: best.best, records, state, ...summary, ...(ood ? { ood } : {}) };
}
