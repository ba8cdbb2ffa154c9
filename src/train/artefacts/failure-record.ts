/**
 * failure.json of a run directory: how the last training attempt failed, machine-readable —
 * `{ kind: 'diverged' | 'error', error }`, written by the trainer when a `TrainingError` stops the run ('diverged':
 * the training loss became NaN or ±∞, run-epoch.ts) and removed when the next attempt starts. A suite runner copies
 * `kind` into its logs/<id>.failed.json, which the report reads (suite/report/suite-results.ts).
 */
import { readFile, rm } from 'node:fs/promises';
import { runPaths, writeJson } from './run-directory.js';
import type { TrainingError, TrainingFailureKind } from '../training-error.js';

export const TRAINING_FAILURE_KINDS: readonly TrainingFailureKind[] = ['diverged', 'error'];

/** Record `error` in `dir`/failure.json (atomically). */
export async function writeFailureRecord(dir: string, error: TrainingError): Promise<void> {
  await writeJson(runPaths(dir).failure, { kind: error.kind, error: error.message });
}

/** Remove `dir`/failure.json (an attempt is starting). */
export async function clearFailureRecord(dir: string): Promise<void> {
  await rm(runPaths(dir).failure, { force: true });
}

/** The kind recorded in `dir`/failure.json, or null when there is none (or it is not a failure record). */
export async function readFailureKind(dir: string): Promise<TrainingFailureKind | null> {
  try {
    const kind = (JSON.parse(await readFile(runPaths(dir).failure, 'utf8')) as { kind?: unknown }).kind;
    return TRAINING_FAILURE_KINDS.includes(kind as TrainingFailureKind) ? (kind as TrainingFailureKind) : null;
  } catch {
    return null;
  }
}
