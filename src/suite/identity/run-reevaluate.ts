/**
 * Re-evaluating a suite run from its final checkpoint: a run whose training identity is the suite's but whose
 * evaluation identity is not (run-identity.ts: `ood`, `evaluateTrain`, `mcDropout`, `testSubset`, the OOD dataset
 * and subset changed) keeps its weights and log.jsonl; only the finishing is redone.
 *
 * `takeSuiteEvaluation` readies the run directory, in an order that leaves a state the suite understands wherever it
 * stops: summary.json (the mark of a finished run) is removed first, so the run reads as checkpointed and resumable;
 * then identity.json (rewritten when the run finishes again) and the outputs the new settings may not write
 * (ood.json, shift/, the training split's logits); last, config.json takes the suite's evaluation settings, its
 * training settings, `out` and `threads` unchanged. Resuming it (`calib train --resume`, as for any checkpointed
 * run) finds every epoch trained and runs only the final evaluation with the best epoch's checkpoint
 * (train/run/trainer.ts); its posthoc.json, computed from the old files, is refitted after (run-check.ts).
 */
import { rm } from 'node:fs/promises';
import { runPaths, writeJson } from '../../train/artefacts/run-directory.js';
import type { SuiteRun } from '../expand-suite.js';
import { EVALUATION_ONLY_KEYS, evaluationHash, identityPath, trainingHash } from './run-identity.js';
import { readJsonObject } from './run-files.js';

/**
 * `config` with the evaluation-only keys of `suite` (each key `suite` lacks removed): the configuration of a run of
 * `config`'s training that evaluates as `suite` asks.
 */
export function withEvaluationOf(config: Readonly<Record<string, unknown>>, suite: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const key of EVALUATION_ONLY_KEYS) {
    if (suite[key] === undefined) delete out[key];
    else out[key] = suite[key];
  }
  return out;
}

/**
 * Make run directory `rd` (checkpointed, trained with `run`'s training settings) evaluate with `run`'s evaluation
 * settings when resumed (see the module comment). Returns false when its config.json has them already (nothing
 * done). Throws when its training settings are not `run`'s: re-evaluating cannot make such a run the suite's.
 */
export async function takeSuiteEvaluation(rd: string, run: SuiteRun): Promise<boolean> {
  const p = runPaths(rd);
  const current = await readJsonObject(p.config, 'config.json');
  if ('problem' in current) throw new Error(`${rd}/${current.problem}`);
  if (evaluationHash(current.value) === evaluationHash(run.config)) return false;
  if (trainingHash(current.value) !== trainingHash(run.config)) throw new Error(`${p.config}: trained with other training settings than run ${run.id}'s; it cannot be re-evaluated`);
  const next = withEvaluationOf(current.value, run.config as unknown as Record<string, unknown>);
  if (evaluationHash(next) !== evaluationHash(run.config)) throw new Error(`${p.config}: its settings with the suite's evaluation keys still differ from run ${run.id}'s`);
  await rm(p.summary, { force: true });
  await rm(identityPath(rd), { force: true });
  await Promise.all([p.ood, p.trainLogits, p.trainLabels].map((f) => rm(f, { force: true })));
  await rm(p.shift, { recursive: true, force: true });
  await writeJson(p.config, next);
  return true;
}
