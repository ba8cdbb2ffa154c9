/**
 * Which runs of a suite will not train because a run of the same evaluation identity (run-identity.ts) supplies them
 * (run-reuse.ts), for the estimate before a suite starts (`calib suite run --dry-run --reuse-from`, `calib suite
 * budget`): a finished run of a `--reuse-from` directory now, a run such a directory plans but has not finished
 * (copied once it finishes: its suite runs first), or a twin earlier in the same suite. Failing those, a run of the
 * same training identity (the same weights, other evaluation settings) supplies it too, to be re-evaluated from its
 * final checkpoint (`reevaluate`: its finishing still costs).
 */
import type { SuiteRun } from '../expand-suite.js';
import { evaluationHash, trainingHash } from './run-identity.js';

export type ReuseSource = 'finished' | 'planned' | 'twin';

export interface ReusePlan {
  /**
   * Run id → where its files come from ('finished' / 'planned': the directory or suite named in `from`);
   * `reevaluate` when the source has the run's training identity only (its final evaluation is redone).
   */
  readonly reused: ReadonlyMap<string, { readonly source: ReuseSource; readonly from: string; readonly reevaluate?: true }>;
}

/** Sources by training hash (run-identity.ts trainingHash): finished runs with their checkpoints, and planned runs. */
export interface WeightSources {
  readonly finished: ReadonlyMap<string, string>;
  readonly planned: ReadonlyMap<string, string>;
}

/**
 * The reuse plan of `runs`: `finished` and `planned` map evaluation hashes to the directory (or suite) that holds or
 * will hold such a run; runs of `runs` with an earlier twin in `runs` are reused from it.
 */
export function planReuse(runs: readonly SuiteRun[], finished: ReadonlyMap<string, string>, planned: ReadonlyMap<string, string>, weights?: WeightSources): ReusePlan {
  const reused = new Map<string, { source: ReuseSource; from: string; reevaluate?: true }>();
  const first = new Map<string, string>();
  const firstWeights = new Map<string, string>();
  for (const run of runs) {
    const hash = evaluationHash(run.config);
    const w = trainingHash(run.config);
    const done = finished.get(hash);
    const later = planned.get(hash);
    if (done !== undefined) reused.set(run.id, { source: 'finished', from: done });
    else if (later !== undefined) reused.set(run.id, { source: 'planned', from: later });
    else if (first.has(hash)) reused.set(run.id, { source: 'twin', from: first.get(hash)! });
    else if (weights?.finished.has(w)) reused.set(run.id, { source: 'finished', from: weights.finished.get(w)!, reevaluate: true });
    else if (weights?.planned.has(w)) reused.set(run.id, { source: 'planned', from: weights.planned.get(w)!, reevaluate: true });
    else if (weights && firstWeights.has(w)) reused.set(run.id, { source: 'twin', from: firstWeights.get(w)!, reevaluate: true });
    if (!first.has(hash)) first.set(hash, run.id);
    if (!firstWeights.has(w)) firstWeights.set(w, run.id);
  }
  return { reused };
}

/** "12 reused: 9 finished in A, 3 twins within the suite" (empty when nothing is reused). */
export function reuseSummary(plan: ReusePlan): string {
  if (plan.reused.size === 0) return '';
  const groups = new Map<string, number>();
  for (const r of plan.reused.values()) {
    const key = r.source === 'twin' ? 'twins of runs within the suite' : r.source === 'finished' ? `finished in ${r.from}` : `planned by ${r.from} (copied once it has trained them)`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const again = [...plan.reused.values()].filter((r) => r.reevaluate).length;
  const note = again ? ` (${again} of them re-evaluated from their final checkpoint: the same weights, other evaluation settings)` : '';
  return `${plan.reused.size} reused, not trained: ${[...groups].map(([k, n]) => `${n} ${k}`).join(', ')}${note}`;
}
