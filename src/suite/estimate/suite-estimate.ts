/**
 * How long a suite takes, planned before it starts (`calib suite run --dry-run`) and left while it runs
 * (`calib suite status`): runs × measured minutes per run.
 *
 * Each unfinished run costs (epochs left + overhead) × seconds per epoch, where the overhead is the rest of a run in
 * epoch units (start-up, and at the end the test and training-split evaluation, export, post-hoc step: the matching
 * reference's `overheadEpochs`, 0 without one) and the seconds per epoch come, in this order, from
 *   1. the run itself: the mean epoch time of the epochs it has trained (its log.jsonl);
 *   2. runs of the same cost class in the suite directory (same dataset, model and model options, training images,
 *      batch and threads per run; the same method first): their mean epoch time;
 *   3. a measured reference for the cost class (run-cost-references.ts, scaled by training images when only they
 *      differ);
 * and a run with none of these is counted as "no measurement". The machine time is the sum over runs divided by
 * the runs trained side by side (`--jobs`): the per-run times measured under `--jobs N` already include the
 * slowdown of sharing the machine with N − 1 others.
 */
import { type CostClass, costClassKey } from './run-cost-class.js';
import { type CostReference, RUN_COST_REFERENCES, referenceFor } from './run-cost-references.js';

/** One run of a suite as the estimate sees it. */
export interface RunProgress {
  readonly id: string;
  readonly method: string;
  readonly cost: CostClass;
  readonly epochs: number;
  /** Epochs already trained (log.jsonl lines). */
  readonly epochsDone: number;
  /** Finished (trained and post-hoc step done). */
  readonly done: boolean;
  /** Wall seconds of each trained epoch (log.jsonl `epoch_time_s`); empty when none is recorded. */
  readonly epochSeconds: readonly number[];
  /**
   * Set when only the run's finishing is left (re-evaluated from its final checkpoint: its evaluation settings
   * changed): the seconds its previous finishing took (NaN when unknown), used without a reference's overhead.
   */
  readonly finishing?: number;
}

/** Where a run's seconds per epoch came from. */
export type RateSource = 'run' | 'method' | 'suite' | 'reference' | 'none';

export interface RunEstimate {
  readonly id: string;
  readonly done: boolean;
  /** Seconds left for this run (0 when done; NaN without a measurement). */
  readonly seconds: number;
  readonly source: RateSource;
  /** The reference used (source 'reference'). */
  readonly reference?: CostReference;
}

export interface SuiteEstimate {
  readonly runs: readonly RunEstimate[];
  readonly total: number;
  readonly done: number;
  /** Unfinished runs, and of them those with some epochs trained. */
  readonly left: number;
  readonly started: number;
  /** Unfinished runs of which only the finishing is left (re-evaluated from their final checkpoint). */
  readonly finishing: number;
  /** Epochs left over the unfinished runs (their overhead not counted). */
  readonly epochsLeft: number;
  /** Sum of the unfinished runs' estimated seconds (those without a measurement left out). */
  readonly runSeconds: number;
  /** Unfinished runs without a measurement. */
  readonly unmeasured: number;
  readonly jobs: number;
  /** runSeconds / jobs: wall seconds of the machine with `jobs` runs side by side. */
  readonly machineSeconds: number;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, v) => a + v, 0) / values.length;
}

/** Seconds left for every run and for the suite with `jobs` runs side by side (see the module comment). */
export function estimateSuite(runs: readonly RunProgress[], jobs: number, references: readonly CostReference[] = RUN_COST_REFERENCES): SuiteEstimate {
  if (!(Number.isInteger(jobs) && jobs >= 1)) throw new RangeError(`jobs: expected an integer ≥ 1, got ${jobs}`);
  const measured = runs.filter((r) => r.epochSeconds.length > 0);
  const pooled = (keep: (r: RunProgress) => boolean): number => mean(measured.filter(keep).flatMap((r) => r.epochSeconds));
  const estimates: RunEstimate[] = runs.map((run) => {
    const { id, done } = run;
    if (done) return { id, done, seconds: 0, source: 'run' };
    const key = costClassKey(run.cost);
    const match = referenceFor(run.cost, references);
    const left = Math.max(0, run.epochs - run.epochsDone) + (match?.reference.overheadEpochs ?? 0);
    const own = mean(run.epochSeconds);
    // Finishing only: the reference's overhead at the run's own epoch rate, else its previous finishing's seconds.
    if (run.finishing !== undefined && !(match && Number.isFinite(own)) && Number.isFinite(run.finishing)) return { id, done, seconds: run.finishing, source: 'run' };
    if (Number.isFinite(own)) return { id, done, seconds: left * own, source: 'run' };
    const sameMethod = pooled((r) => r.method === run.method && costClassKey(r.cost) === key);
    if (Number.isFinite(sameMethod)) return { id, done, seconds: left * sameMethod, source: 'method' };
    const sameClass = pooled((r) => costClassKey(r.cost) === key);
    if (Number.isFinite(sameClass)) return { id, done, seconds: left * sameClass, source: 'suite' };
    if (match) return { id, done, seconds: left * match.reference.secondsPerEpoch * match.scale, source: 'reference', reference: match.reference };
    return { id, done, seconds: Number.NaN, source: 'none' };
  });
  const unfinished = runs.filter((r) => !r.done);
  const runSeconds = estimates.reduce((a, e) => a + (Number.isFinite(e.seconds) ? e.seconds : 0), 0);
  return {
    runs: estimates,
    total: runs.length,
    done: runs.length - unfinished.length,
    left: unfinished.length,
    started: unfinished.filter((r) => r.epochsDone > 0 && r.finishing === undefined).length,
    finishing: unfinished.filter((r) => r.finishing !== undefined).length,
    epochsLeft: unfinished.reduce((a, r) => a + Math.max(0, r.epochs - r.epochsDone), 0),
    runSeconds,
    unmeasured: estimates.filter((e) => e.source === 'none').length,
    jobs,
    machineSeconds: runSeconds / jobs,
  };
}

/** Hours with one decimal ("3.4 h"), minutes below an hour ("25 min"). */
export function formatHours(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  return seconds >= 3600 ? `${(seconds / 3600).toFixed(1)} h` : `${Math.round(seconds / 60)} min`;
}

/** The lines `suite run --dry-run` and `suite status` print about what is left and how long it takes. */
export function formatEstimate(e: SuiteEstimate, threads: number): string[] {
  const lines: string[] = [];
  const runsLeft = e.left - e.unmeasured;
  const perRun = runsLeft > 0 ? e.runSeconds / runsLeft : Number.NaN;
  const finishing = e.finishing ? `; ${e.finishing} to re-evaluate from their final checkpoint, finishing only` : '';
  lines.push(`left: ${e.left} of ${e.total} runs (${e.started} started, ${e.epochsLeft} epochs to train${finishing})`);
  const bySource = (s: RateSource): number => e.runs.filter((r) => !r.done && r.source === s).length;
  const sources = [
    bySource('run') ? `${bySource('run')} from their own epochs` : '',
    bySource('method') + bySource('suite') ? `${bySource('method') + bySource('suite')} from finished epochs of the suite's runs` : '',
    bySource('reference') ? `${bySource('reference')} from the measured reference (${[...new Set(e.runs.filter((r) => r.reference).map((r) => r.reference!.source))].join('; ')})` : '',
  ].filter((s) => s !== '');
  if (runsLeft > 0) {
    lines.push(
      `estimate: ${runsLeft} runs × ${(perRun / 60).toFixed(1)} min per run (${threads} thread${threads === 1 ? '' : 's'} each) / ${e.jobs} side by side ≈ ${formatHours(e.machineSeconds)} of machine time`,
    );
    lines.push(`  minutes per run: ${sources.join(', ')}`);
  }
  if (e.unmeasured > 0) lines.push(`  ${e.unmeasured} run(s) without a measurement (no epoch trained yet and no measured reference for their model, data and threads): not in the estimate`);
  return lines;
}
