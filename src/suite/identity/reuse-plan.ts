/**
 * Which runs of a suite will not train because a run of the same evaluation identity (run-identity.ts) supplies them
 * (run-reuse.ts), for the estimate before a suite starts (`calib suite run --dry-run --reuse-from`, `calib suite
 * budget`): a finished run of a `--reuse-from` directory now, a run such a directory plans but has not finished
 * (copied once it finishes: its suite runs first), or a twin earlier in the same suite.
 */
import type { SuiteRun } from '../expand-suite.js';
import { evaluationHash } from './run-identity.js';

export type ReuseSource = 'finished' | 'planned' | 'twin';

export interface ReusePlan {
  /** Run id → where its files come from ('finished' / 'planned': the directory or suite named in `from`). */
  readonly reused: ReadonlyMap<string, { readonly source: ReuseSource; readonly from: string }>;
}

/**
 * The reuse plan of `runs`: `finished` and `planned` map evaluation hashes to the directory (or suite) that holds or
 * will hold such a run; runs of `runs` with an earlier twin in `runs` are reused from it.
 */
export function planReuse(runs: readonly SuiteRun[], finished: ReadonlyMap<string, string>, planned: ReadonlyMap<string, string>): ReusePlan {
  const reused = new Map<string, { source: ReuseSource; from: string }>();
  const first = new Map<string, string>();
  for (const run of runs) {
    const hash = evaluationHash(run.config);
    const done = finished.get(hash);
    const later = planned.get(hash);
    if (done !== undefined) reused.set(run.id, { source: 'finished', from: done });
    else if (later !== undefined) reused.set(run.id, { source: 'planned', from: later });
    else if (first.has(hash)) reused.set(run.id, { source: 'twin', from: first.get(hash)! });
    if (!first.has(hash)) first.set(hash, run.id);
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
  return `${plan.reused.size} reused, not trained: ${[...groups].map(([k, n]) => `${n} ${k}`).join(', ')}`;
}
