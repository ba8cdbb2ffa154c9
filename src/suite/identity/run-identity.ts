/**
 * A suite run's identity: everything that determines its files, in three layers.
 *
 *   training identity    what determines the weights and log.jsonl: the run's resolved training configuration (every
 *                        default filled in) without `out` and `threads` (which do not change its results) and
 *                        without the settings read only after the last epoch (EVALUATION_ONLY_KEYS), plus the data
 *                        split seed (trainer-data.ts SPLIT_SEED). Dataset, datasetOptions, subset and validation (the
 *                        data) are keys of it; so are `bins` and `evalBatch` (the per-epoch validation metrics of
 *                        log.jsonl, and `select` picks the best epoch by them) and `epochLogits` (files written
 *                        during training, which the final checkpoint cannot recompute).
 *   evaluation identity  the training identity and the settings of the finishing (train/run/run-finalise.ts, read
 *                        after the last epoch with the best epoch's checkpoint): `testSubset`, `evaluateTrain`,
 *                        `mcDropout`, `ood` and, with `ood`, `oodDataset` / `oodDatasetOptions` / `oodSubset`. It
 *                        determines everything `calib train` writes: config.json, the logits, summary.json, and with
 *                        `ood` ood.json and shift/. Its hash is the formula the training identity had before the two
 *                        were split (the whole resolved configuration), so every run recorded before keeps its
 *                        identity. A run whose training identity is the suite's but whose evaluation identity is not
 *                        is re-evaluated from its final checkpoint (run-reevaluate.ts), not retrained.
 *   post-hoc identity    the evaluation identity's hash, the calibrators (in the suite's order), the bins and their
 *                        convention, and the calibkit version that computed them. It determines posthoc.json (test
 *                        metrics before and after each calibrator, calibrated OOD / shift metrics).
 *
 * A run directory records them: `identity.json` (which run of which suite it is, and its evaluation hash; see
 * RunIdentityRecord) and posthoc.json's `identity`. A rerun compares them with what the suite asks for now
 * (run-check.ts) and recomputes exactly what differs.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { resolveTrainConfig, type TrainConfig } from '../../train/train-config.js';
import { SPLIT_SEED } from '../../train/run/trainer-data.js';
import { CALIBKIT_VERSION } from '../../util/version.js';
import type { SuiteRun } from '../expand-suite.js';

/** The file of a run directory that says which run of which suite it holds. */
export const IDENTITY_FILE = 'identity.json';

/** Configuration keys read only by the OOD evaluation (train/run/run-finalise.ts runOod). */
const OOD_ONLY_KEYS = ['oodDataset', 'oodDatasetOptions', 'oodSubset'] as const;

/**
 * Configuration keys read only after the last epoch, by the finishing with the best epoch's weights (run-finalise.ts
 * finalize and runOod, the segmentation task's finalise, run-predictor.ts): the test split (`testSubset`; training
 * and the per-epoch validation never read it), the training split's evaluation, MC dropout (the per-epoch
 * validation and best-epoch selection stay deterministic) and the OOD / shift evaluation.
 */
export const EVALUATION_ONLY_KEYS = ['testSubset', 'evaluateTrain', 'mcDropout', 'ood', ...OOD_ONLY_KEYS] as const;

/** Keys that do not change a run's results. */
const NOT_IDENTITY_KEYS = ['out', 'threads'] as const;

/** The convention of the post-hoc step's bins (posthoc-step.ts). */
export const POSTHOC_CONVENTION = '(l,u]';

/** JSON with object keys sorted at every level (a stable text for hashing and comparing). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The settings of a configuration that determine all of a run's files (its evaluation identity): resolved (so a
 * config.json written before a key existed compares equal to one that states its default), without `out`,
 * `threads`, and the OOD-only keys of a run without `ood`. A configuration today's schema refuses is compared as
 * written.
 */
export function evaluationSettings(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let resolved: Record<string, unknown>;
  try {
    resolved = resolveTrainConfig({ ...config, out: 'x' }, 'config') as unknown as Record<string, unknown>;
  } catch {
    resolved = { ...config };
  }
  for (const key of NOT_IDENTITY_KEYS) delete resolved[key];
  if (!resolved['ood']) for (const key of OOD_ONLY_KEYS) delete resolved[key];
  return resolved;
}

/** The evaluation identity's hash (sha256 hex of its canonical JSON; the training identity's formula before the split). */
export function evaluationHash(config: Readonly<Record<string, unknown>> | TrainConfig): string {
  return sha256(canonicalJson({ config: evaluationSettings(config as Record<string, unknown>), splitSeed: SPLIT_SEED }));
}

/** The settings that determine a run's weights and log.jsonl: its evaluation settings without EVALUATION_ONLY_KEYS. */
export function trainingSettings(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const settings = evaluationSettings(config);
  for (const key of EVALUATION_ONLY_KEYS) delete settings[key];
  return settings;
}

/** The training identity's hash (sha256 hex of its canonical JSON, tagged so it never equals an evaluation hash). */
export function trainingHash(config: Readonly<Record<string, unknown>> | TrainConfig): string {
  return sha256(canonicalJson({ training: trainingSettings(config as Record<string, unknown>), splitSeed: SPLIT_SEED }));
}

/**
 * What differs in the evaluation-only settings of two configurations, as "key a → b" ("ood false → true"), for
 * messages saying why a run is re-evaluated; `unset` for a key one side lacks.
 */
export function evaluationDiff(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string {
  const only = (c: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    const settings = evaluationSettings(c);
    return Object.fromEntries(EVALUATION_ONLY_KEYS.filter((k) => k in settings).map((k) => [k, settings[k]]));
  };
  const changes = changedSettings(only(before), only(after), 'unset');
  return changes.length === 0 ? 'the same settings' : changes.join(', ');
}

/** posthoc.json's `identity`: what its numbers were computed from. */
export interface PosthocIdentity {
  /** evaluationHash of the run's config.json when the step ran (the files it read; named `training` since before the split). */
  readonly training: string;
  readonly calibrators: readonly string[];
  readonly bins: number;
  readonly convention: string;
  /** The calibkit version that computed the file. */
  readonly calibkit: string;
  /** The opt-in metrics of the record computed too (the suite's `metrics:`); absent when none, as before. */
  readonly metrics?: readonly string[];
}

export function posthocIdentity(training: string, calibrators: readonly string[], bins: number, metrics: readonly string[] = []): PosthocIdentity {
  return { training, calibrators: [...calibrators], bins, convention: POSTHOC_CONVENTION, calibkit: CALIBKIT_VERSION, ...(metrics.length > 0 ? { metrics: [...metrics] } : {}) };
}

/** Short hash of a post-hoc identity (queue job ids). */
export function posthocHash(identity: PosthocIdentity): string {
  return sha256(canonicalJson(identity));
}

/** identity.json: which run of which suite a run directory holds, and what it was trained from. */
export interface RunIdentityRecord {
  readonly format: 1;
  readonly suite: string;
  readonly run: string;
  readonly method: string;
  readonly sweep: { readonly key: string; readonly value: number | string | boolean } | null;
  readonly seed: number;
  /**
   * evaluationHash of the run's config.json (the identity of all its files). Named `training` since before the
   * training and evaluation identities were split; kept so that builds on either side of the split read each other's
   * records (a suite is continued by another build: bench/deep-reruns.sh).
   */
  readonly training: string;
  /** The calibkit version that recorded it. */
  readonly calibkit: string;
  /** Set when the run was trained before identities were recorded and adopted from its own config.json. */
  readonly adopted?: true;
}

/** identity.json's fields for run `run` of suite `suite` whose files have evaluation hash `training`, recorded by this calibkit. */
export function runIdentityRecord(suite: string, run: Pick<SuiteRun, 'id' | 'method' | 'sweep' | 'seed'>, training: string): RunIdentityRecord {
  return { format: 1, suite, run: run.id, method: run.method, sweep: run.sweep ?? null, seed: run.seed, training, calibkit: CALIBKIT_VERSION };
}

export function identityPath(runDir: string): string {
  return join(runDir, IDENTITY_FILE);
}

/**
 * What differs between two configurations' settings (evaluationSettings), as "key a → b" (nested option keys
 * dotted), for messages saying why a run is retrained. At most `limit` entries, then "…".
 */
export function settingsDiff(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, limit = 4): string {
  const changes = changedSettings(evaluationSettings(before), evaluationSettings(after), 'unset');
  if (changes.length === 0) return 'the same settings';
  return changes.length > limit ? `${changes.slice(0, limit).join(', ')}, … (${changes.length} keys)` : changes.join(', ');
}

/**
 * Every key whose value differs between two settings records, as "key a → b" in key order: nested objects flattened
 * to dotted keys, values as JSON, `absent` for a key one side lacks (or holds undefined).
 */
export function changedSettings(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>, absent: string): string[] {
  const a = flatten(before);
  const b = flatten(after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => a[k] !== b[k]).map((k) => `${k} ${a[k] ?? absent} → ${b[k] ?? absent}`);
}

function flatten(o: Readonly<Record<string, unknown>>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, `${prefix}${k}.`));
    else if (v !== undefined) out[`${prefix}${k}`] = JSON.stringify(v);
  }
  return out;
}
