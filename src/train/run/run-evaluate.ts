/**
 * The end of an epoch: validation logits → accuracy, NLL, ECE, AdaECE (the task's validationScores) → best-epoch check → the
 * epoch's log record (train-log.ts) from the epoch's totals. Also the early warning of a run that does not learn:
 * validation accuracy at chance (the majority class's share of the validation split, + 2 points) in every one of the
 * first `CHANCE_EPOCHS` epochs.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeNpy } from '../../io/npy.js';
import type { BestEpoch } from './best-epoch.js';
import { epochLogitsPath } from '../artefacts/run-directory.js';
import { datasetInputs, predictLogits } from '../evaluation/predict.js';
import type { EpochTotals } from './run-checkpoint.js';
import type { RunSetup } from './run-setup.js';
import type { TrainState } from '../steps/train-state.js';
import type { EpochRecord } from '../artefacts/train-log.js';
import { TrainingError } from '../training-error.js';
import { processCpuSeconds } from '../../util/cpu-time.js';

/** Epochs after which a run still at chance accuracy is reported. */
export const CHANCE_EPOCHS = 2;
/** Accuracy within this much of the majority-class share counts as chance. */
const CHANCE_MARGIN = 0.02;

/** Validate `state` after epoch `epoch` (0-based) and build its log record; `best` is updated. Returns the validation logits too. */
export function evaluateEpoch(setup: RunSetup, state: TrainState, epoch: number, totals: EpochTotals, best: BestEpoch): { record: EpochRecord; valLogits: Float32Array } {
  const { config, data } = setup;
  const t0 = performance.now();
  const cpu0 = processCpuSeconds();
  const valLogits = predictLogits(setup.evalStep, state, datasetInputs(data.validation), config.evalBatch);
  throwIfNonFinite(valLogits, epoch, config.out);
  const scores = setup.task.validationScores(valLogits, data, config.bins);
  const improved = best.consider(epoch, scores);
  const trainTerms: Record<string, number> = {};
  for (const [k, v] of Object.entries(totals.termSums)) trainTerms[k] = v / totals.termRows[k]!;
  const record: EpochRecord = {
    epoch: epoch + 1,
    steps: state.step,
    lr: totals.lastLr,
    train_loss: totals.lossSum / totals.rows,
    train_terms: trainTerms,
    val_accuracy: scores.accuracy,
    val_nll: scores.nll,
    val_ece: scores.ece,
    val_adaece: scores.adaece,
    val_refinement_nll: scores.refinement,
    best: improved,
    epoch_time_s: totals.elapsedSeconds + (performance.now() - t0) / 1000,
    cpu_time_s: (totals.cpuSeconds ?? 0) + processCpuSeconds() - cpu0,
    train_time_s: totals.trainSeconds,
    samples_per_s: totals.samples / totals.trainSeconds,
  };
  return { record, valLogits };
}

/** Keep epoch `epoch`'s (1-based) validation logits [N, classes] in the run directory (config `epochLogits`). */
export async function writeEpochLogits(dir: string, epoch: number, logits: Float32Array, classes: number): Promise<void> {
  const path = epochLogitsPath(dir, epoch);
  await mkdir(dirname(path), { recursive: true });
  await writeNpy(path, logits, [logits.length / classes, classes]);
}

/** The share of the most frequent class among `labels` (the accuracy of always predicting it). */
export function chanceAccuracy(labels: ArrayLike<number>): number {
  const counts = new Map<number, number>();
  let top = 0;
  for (let i = 0; i < labels.length; i++) {
    const c = (counts.get(labels[i]!) ?? 0) + 1;
    counts.set(labels[i]!, c);
    if (c > top) top = c;
  }
  return labels.length ? top / labels.length : 0;
}

/**
 * The warning for a run stuck at chance: given every record so far, a message when the first
 * min(CHANCE_EPOCHS, epochs) epochs just finished and all of them are at chance accuracy, else null.
 */
export function chanceWarning(records: readonly EpochRecord[], epochs: number, chance: number): string | null {
  const k = Math.min(CHANCE_EPOCHS, epochs);
  if (records.length !== k) return null;
  if (!records.every((r) => !(r.val_accuracy > chance + CHANCE_MARGIN))) return null;
  const accs = records.map((r) => `${(100 * r.val_accuracy).toFixed(1)}%`).join(', ');
  return (
    `validation accuracy is at chance after ${k} epoch(s) (${accs}; the majority class is ${(100 * chance).toFixed(1)}% of the validation split): ` +
    `the network is not learning; check --lr, the loss options and the data`
  );
}

/**
 * Weights that overflowed give infinite or NaN outputs while the training loss may still be finite (a loss that
 * saturates); such a run has diverged as surely as one whose loss became NaN, and is recorded so.
 */
function throwIfNonFinite(valLogits: Float32Array, epoch: number, out: string): void {
  const i = valLogits.findIndex((v) => !Number.isFinite(v));
  if (i < 0) return;
  throw new TrainingError(
    `the model's validation outputs became ${valLogits[i]} at epoch ${epoch + 1} (output ${i}); the run stopped there ` +
      `(lower --lr, or check the loss options); log.jsonl and the last good checkpoint are kept in ${out}`,
    'diverged',
  );
}
