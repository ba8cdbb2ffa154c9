/**
 * `calib suite status DIR`: every run of a suite directory checked against the suite as last run (its suite.json)
 * by run-check.ts, so a run that `calib suite run` would touch says so and why, naming the file:
 *
 *   done      trained with the suite's settings, files whole, posthoc.json computed from them with the suite's
 *             post-hoc settings (or adopted: written before identities were recorded, with the same settings)
 *   trained   trained; the post-hoc step is left (interrupted)
 *   running   a live process holds the run's lock (run.lock): being trained or finalised now, files still coming
 *   partial   interrupted during training: resumes from its checkpoint
 *   failed    the last attempt failed (the reason)
 *   pending   not started
 *   stale     trained or post-hoc-fitted with other settings than the suite's (retrained / refitted); a run whose
 *             only change is in its evaluation settings says "re-evaluate (ood false → true)": resumed from its
 *             final checkpoint, its weights and log.jsonl kept
 *   broken    missing, unreadable or invalid files (non-finite logits, a deleted logits file, a corrupt posthoc.json),
 *             or not the run's own directory (a copy, a link, an edited config.json): repaired by `calib suite run`
 *             (outputs merely missing beside a finished run's final checkpoint: resumed, redoing its final evaluation)
 */
import { hostname } from 'node:os';
import { runDirectoryHolder } from '../train/artefacts/run-lock.js';
import { checkRun } from './identity/run-check.js';
import { epochsDone, readSuiteRecord, runDirectory, type SuiteRecord } from './suite-directory.js';

export type RunStatusState = 'done' | 'running' | 'trained' | 'partial' | 'failed' | 'pending' | 'stale' | 'broken';

export interface RunStatus {
  readonly id: string;
  readonly state: RunStatusState;
  readonly epochs: number;
  readonly totalEpochs: number;
  /** Why the run is not done (or a note on a done one), naming the file. */
  readonly detail?: string;
}

/** Per-run state of a suite directory. */
export interface SuiteStatus {
  readonly record: SuiteRecord;
  readonly runs: readonly RunStatus[];
}

export async function suiteStatus(dir: string): Promise<SuiteStatus> {
  const record = await readSuiteRecord(dir);
  const expect = { suite: record.suite.name, posthoc: record.suite.posthoc, bins: record.suite.bins };
  const runs: RunStatus[] = [];
  for (const r of record.runs) {
    const holder = await runDirectoryHolder(runDirectory(dir, r.id)).catch(() => null);
    if (holder !== null) {
      const where = holder.host === hostname() ? `process ${holder.pid}` : `process ${holder.pid} on ${holder.host}`;
      runs.push({
        id: r.id,
        state: 'running',
        epochs: await epochsDone(runDirectory(dir, r.id)),
        totalEpochs: r.config.epochs,
        detail: `in progress: ${where} holds its lock (started ${holder.started})`,
      });
      continue;
    }
    const check = await checkRun(dir, r, expect);
    const t = check.training;
    const p = check.posthoc;
    let state: RunStatusState;
    let detail: string | undefined;
    if (t.kind === 'retrain') {
      state = t.why === 'settings' ? 'stale' : 'broken';
      detail = `${t.reason} — calib suite run retrains it`;
    } else if (t.kind === 'failed') {
      state = 'failed';
      detail = t.error;
    } else if (t.kind === 'reevaluate') {
      state = 'stale';
      detail = `re-evaluate (${t.reason}) — calib suite run redoes its final evaluation from its final checkpoint, no epoch retrained`;
    } else if (t.kind === 'partial' && t.reason !== undefined) {
      state = 'broken';
      detail = `${t.reason} — calib suite run resumes it from its final checkpoint (redoing the final evaluation)`;
    } else if (t.kind === 'partial' || t.kind === 'pending') {
      state = t.kind;
      if (t.kind === 'partial' && t.evaluation !== undefined) detail = `resumes with the suite's evaluation settings (${t.evaluation})`;
    } else if (p?.kind === 'compute') {
      state = p.why === 'missing' ? 'trained' : p.why === 'settings' ? 'stale' : 'broken';
      detail = p.why === 'missing' ? 'post-hoc step left' : `${p.reason} — calib suite run refits it`;
    } else {
      state = 'done';
      if (t.kind === 'adopt') detail = "trained before run identities were recorded; its config.json has the suite's settings";
    }
    runs.push({ id: r.id, state, epochs: await epochsDone(runDirectory(dir, r.id)), totalEpochs: r.config.epochs, ...(detail !== undefined ? { detail } : {}) });
  }
  return { record, runs };
}
