/**
 * The layout of a run directory (`calib train --out runs/x`):
 *
 *   config.json              the resolved configuration (every default filled in; `--resume` reads it back)
 *   log.jsonl                one JSON object per finished epoch (see train-log.ts)
 *   checkpoint-last.ckpt     state after the last finished epoch (resume point)
 *   checkpoint-best.ckpt     state after the best epoch on the validation split
 *   val-logits.npy           float32 [N_val, C] logits of the best weights on the validation split (for `calib fit`)
 *   val-labels.npy           int32 [N_val]
 *   test-logits.npy          float32 [N_test, C] logits of the best weights on the test split (for `calib eval`)
 *   test-labels.npy          int32 [N_test]
 *   train-logits.npy         float32 [N_train, C] logits of the best weights on the training split (evaluateTrain)
 *   train-labels.npy         int32 [N_train] (evaluateTrain)
 *   epoch-logits/val-NNN.npy float32 [N_val, C] validation logits after epoch NNN (1-based; with epochLogits)
 *   model.onnx               the best weights' inference graph (input `input` [batch, …], output `logits`)
 *   summary.json             final metrics, best epoch, data sizes, throughput
 *   ood.json                 OOD / dataset-shift evaluation (with --ood)
 *   failure.json             { kind: 'diverged' | 'error', error } when the last attempt stopped on a TrainingError
 *                            (removed when an attempt starts; a suite copies `kind` into its logs/<id>.failed.json)
 *   shift/                   the logits behind ood.json (with --ood; shift-logits.ts), for post-hoc calibrators:
 *     in-logits.npy          float32 [n, C] logits of the test images evaluated (all, or the oodSubset)
 *     in-labels.npy          int32 [n] their labels (also the labels of every corrupted set)
 *     noise-logits.npy       float32 [n, C] Gaussian-noise images
 *     ood-logits.npy         float32 [m, C] the second dataset's sample (when evaluated)
 *     <corruption>-s<k>-logits.npy  float32 [n, C] the test images under a corruption at severity k
 *
 * Every file is written atomically (temp file + rename), except log.jsonl, which is appended line by line and
 * rewritten atomically on resume.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { describe, invalidArgument } from '../../util/errors.js';

/** Paths of a run directory's files. */
export interface RunPaths {
  readonly dir: string;
  readonly config: string;
  readonly log: string;
  readonly lastCheckpoint: string;
  readonly bestCheckpoint: string;
  readonly valLogits: string;
  readonly valLabels: string;
  readonly testLogits: string;
  readonly testLabels: string;
  readonly trainLogits: string;
  readonly trainLabels: string;
  readonly onnx: string;
  readonly summary: string;
  readonly ood: string;
  /** failure.json: why the last attempt failed (TrainingError's kind and message). */
  readonly failure: string;
  /** shift/: the logits of the OOD / shift sets (see `shiftLogitsPath`). */
  readonly shift: string;
}

/** The file paths of run directory `dir`. */
export function runPaths(dir: string): RunPaths {
  if (typeof dir !== 'string' || dir === '') invalidArgument('dir', 'a directory path', describe(dir));
  return {
    dir,
    config: join(dir, 'config.json'),
    log: join(dir, 'log.jsonl'),
    lastCheckpoint: join(dir, 'checkpoint-last.ckpt'),
    bestCheckpoint: join(dir, 'checkpoint-best.ckpt'),
    valLogits: join(dir, 'val-logits.npy'),
    valLabels: join(dir, 'val-labels.npy'),
    testLogits: join(dir, 'test-logits.npy'),
    testLabels: join(dir, 'test-labels.npy'),
    trainLogits: join(dir, 'train-logits.npy'),
    trainLabels: join(dir, 'train-labels.npy'),
    onnx: join(dir, 'model.onnx'),
    summary: join(dir, 'summary.json'),
    ood: join(dir, 'ood.json'),
    failure: join(dir, 'failure.json'),
    shift: join(dir, 'shift'),
  };
}

/** Sets of shift/: the test images, noise, the second dataset, or a corruption at a severity. */
export type ShiftSetName = 'in' | 'noise' | 'ood' | { readonly corruption: string; readonly severity: number };

/** Where run `dir` keeps the logits of shift set `set` (shift/in-logits.npy, shift/contrast-s3-logits.npy, …). */
export function shiftLogitsPath(dir: string, set: ShiftSetName): string {
  const stem = typeof set === 'string' ? set : `${set.corruption}-s${set.severity}`;
  return join(dir, 'shift', `${stem}-logits.npy`);
}

/** shift/in-labels.npy of run `dir`: the labels of the test images and of every corrupted copy. */
export function shiftLabelsPath(dir: string): string {
  return join(dir, 'shift', 'in-labels.npy');
}

/** Where epoch `epoch`'s (1-based) validation logits are kept with `epochLogits`: epoch-logits/val-NNN.npy. */
export function epochLogitsPath(dir: string, epoch: number): string {
  return join(dir, 'epoch-logits', `val-${String(epoch).padStart(3, '0')}.npy`);
}

/** Write a JSON document atomically (2-space indented, trailing newline). */
export async function writeJson(path: string, value: unknown): Promise<void> {
  await atomicWriteFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Read a JSON document; a missing or unparsable file is an `InvalidArgumentError` naming `argument`. */
export async function readJson(path: string, argument = path): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return invalidArgument(argument, 'a readable JSON file', `no file at ${path}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return invalidArgument(argument, 'valid JSON', `unparsable text (${(e as Error).message})`);
  }
}
