/**
 * A scale's trimmed grid (`grids.<scale>` of a suite file): the suite a scale runs when the full grid costs too much
 * there (the `deep` scale of the paper suites, issue #23: ≤ 20 machine-hours for all five papers). A grid drops
 * methods, gives each method its own seeds and keeps a subset of a method's sweep values; everything else (run names,
 * training settings) is the full suite's, so every run of the trimmed grid is the same run — same identity,
 * run-identity.ts — as the full grid's run of that name.
 *
 * `scaledSuite(suite, scale)` applies it and returns an ordinary suite (no grids left: it is one scale's suite) whose claims say
 * what the trimming costs, computed from the claims themselves, never typed:
 *   - a claim reading a dropped method → not tested, "not tested at <scale> scale: method M is not in its grid (reason)";
 *   - a shape claim whose sweep lost the values it reads (argmin / argmax expecting only removed values, a U with
 *     fewer than 3 values, a trend with fewer than 2) → not tested, with the values;
 *   - an argmin / argmax claim keeps the expected values still swept.
 * `gridChanges` lists what was trimmed relative to the full grid (for the suite's description, the report and the
 * budget table).
 */
import { describe, invalidArgument } from '../util/errors.js';
import { claimAtScale } from './claims/claim-at-scale.js';
import type { SuiteClaim } from './claims/claim-schema.js';
import { parseComparison, parseEquivalence } from './claims/comparison.js';
import type { Suite, SuiteGrid, SuiteScale, SuiteSweep } from './suite-schema.js';

/** The methods a claim of `suite` reads (none for an untested claim). */
export function methodsOfClaim(claim: SuiteClaim, suite: Pick<Suite, 'methods' | 'posthoc'>): string[] {
  const names = suite.methods.map((m) => m.name);
  if (claim.compare !== undefined) {
    const c = parseComparison(claim.compare, names, suite.posthoc, 'claim');
    return [c.left, c.right];
  }
  if (claim.equivalent !== undefined) {
    const c = parseEquivalence(claim.equivalent, names, suite.posthoc, 'claim');
    return [c.left, c.right];
  }
  const q = claim.qualitative;
  if (q === undefined) return [];
  return q.kind === 'order' ? [...q.methods] : [q.method];
}

/** The values of `method`'s sweep in `suite` (the first sweep that applies to it), or undefined without one. */
function sweepOf(suite: Pick<Suite, 'sweeps'>, method: string): SuiteSweep | undefined {
  return suite.sweeps.find((s) => s.methods === undefined || s.methods.includes(method));
}

/** Check a grid against its suite: known methods, distinct seeds, sweep values among the method's own. */
export function checkGrid(grid: SuiteGrid, suite: Pick<Suite, 'methods' | 'sweeps'>, path: string): void {
  const names = suite.methods.map((m) => m.name);
  const distinct = (seeds: readonly number[] | undefined, at: string): void => {
    if (seeds !== undefined && new Set(seeds).size !== seeds.length) invalidArgument(at, 'distinct seeds', JSON.stringify(seeds));
  };
  distinct(grid.seeds, `${path}.seeds`);
  grid.drop.forEach((m, i) => {
    if (!names.includes(m)) invalidArgument(`${path}.drop[${i}]`, `a method of the suite (${names.join(', ')})`, describe(m));
  });
  if (grid.drop.length >= names.length) invalidArgument(`${path}.drop`, 'at least one method left to run', JSON.stringify(grid.drop));
  for (const [method, g] of Object.entries(grid.methods)) {
    const at = `${path}.methods.${method}`;
    if (!names.includes(method)) invalidArgument(at, `a method of the suite (${names.join(', ')})`, describe(method));
    if (grid.drop.includes(method)) invalidArgument(at, 'a method the grid runs (it is in drop)', describe(method));
    distinct(g.seeds, `${at}.seeds`);
    if (g.values !== undefined) {
      const sweep = sweepOf(suite, method);
      if (sweep === undefined) invalidArgument(`${at}.values`, `no values (method ${method} has no sweep)`, JSON.stringify(g.values));
      g.values.forEach((v, i) => {
        if (!sweep.values.includes(v)) invalidArgument(`${at}.values[${i}]`, `a value of the sweep ${sweep.key} (${sweep.values.map(String).join(', ')})`, describe(v));
      });
      if (new Set(g.values.map((v) => JSON.stringify(v))).size !== g.values.length) invalidArgument(`${at}.values`, 'distinct values', JSON.stringify(g.values));
    }
  }
}

/** Seeds and sweep values of each kept method under `grid`. */
function plan(suite: Suite, grid: SuiteGrid): Map<string, { seeds: number[]; values?: (number | string | boolean)[] }> {
  const out = new Map<string, { seeds: number[]; values?: (number | string | boolean)[] }>();
  for (const m of suite.methods) {
    if (grid.drop.includes(m.name)) continue;
    const g = grid.methods[m.name];
    const seeds = g?.seeds ?? grid.seeds ?? m.seeds ?? suite.seeds;
    const sweep = sweepOf(suite, m.name);
    out.set(m.name, { seeds: [...seeds], ...(sweep ? { values: [...(g?.values ?? sweep.values)] } : {}) });
  }
  return out;
}

function list(values: readonly unknown[]): string {
  return values.map(String).join(', ');
}

/** What `grid` trims relative to the full suite, one phrase per change (method order). */
export function gridChanges(suite: Suite, grid: SuiteGrid): string[] {
  const kept = plan(suite, grid);
  const out: string[] = [];
  if (grid.drop.length) out.push(`not run: ${grid.drop.join(', ')}`);
  for (const m of suite.methods) {
    const k = kept.get(m.name);
    if (k === undefined) continue;
    const full = m.seeds ?? suite.seeds;
    const sweep = sweepOf(suite, m.name);
    const parts: string[] = [];
    if (k.seeds.join() !== full.join()) parts.push(`${k.seeds.length} seed${k.seeds.length === 1 ? '' : 's'} (of ${full.length})`);
    if (sweep && k.values && k.values.length !== sweep.values.length) parts.push(`${sweep.label ?? sweep.key.split('.').pop()} ∈ {${list(k.values)}} (of {${list(sweep.values)}})`);
    if (parts.length) out.push(`${m.name}: ${parts.join(', ')}`);
  }
  return out;
}

/** A claim made untested at `scale`, keeping its statement, source and paper value. */
function untested(claim: SuiteClaim, reason: string): SuiteClaim {
  return { ...claim, compare: undefined, equivalent: undefined, margin: undefined, qualitative: undefined, notTested: reason };
}

/** `claim` under the trimmed grid: unchanged, narrowed (argmin / argmax expectations) or not tested, with the reason. */
function trimClaim(claim: SuiteClaim, suite: Suite, scale: SuiteScale, grid: SuiteGrid, kept: ReturnType<typeof plan>): SuiteClaim {
  if (claim.notTested !== undefined) return claim;
  const dropped = methodsOfClaim(claim, suite).filter((m) => !kept.has(m));
  if (dropped.length) {
    return untested(
      claim,
      `not tested at ${scale} scale: ${dropped.length === 1 ? 'method' : 'methods'} ${[...new Set(dropped)].join(', ')} ${dropped.length === 1 ? 'is' : 'are'} not in its grid (${grid.reason})`,
    );
  }
  const q = claim.qualitative as (Record<string, unknown> & { kind: string; method?: string; expect?: unknown[] }) | undefined;
  if (q === undefined || q.kind === 'order' || q.method === undefined) return claim;
  const values = kept.get(q.method)?.values ?? [];
  if ((q.kind === 'argmin' || q.kind === 'argmax') && q.expect) {
    const expect = q.expect.filter((v) => values.includes(v as number | string | boolean));
    if (expect.length === 0)
      return untested(claim, `not tested at ${scale} scale: its grid sweeps ${q.method} over {${list(values)}}, without the expected value(s) {${list(q.expect)}} (${grid.reason})`);
    if (expect.length !== q.expect.length) return { ...claim, qualitative: { ...claim.qualitative!, expect } as SuiteClaim['qualitative'] };
  }
  if (q.kind === 'u-shape' && values.length < 3) return untested(claim, `not tested at ${scale} scale: its grid sweeps ${q.method} over ${values.length} value(s), a U needs 3 (${grid.reason})`);
  if (q.kind === 'monotone' && values.length < 2) return untested(claim, `not tested at ${scale} scale: its grid sweeps ${q.method} over ${values.length} value(s), a trend needs 2 (${grid.reason})`);
  return claim;
}

/**
 * The suite `suite` runs at `scale`: each claim as tested at that scale (its `atScale` test, claim-at-scale.ts), then
 * its grid for that scale applied (methods dropped, per-method seeds, sweeps cut to the kept values — a sweep whose
 * methods keep different values is split, one sweep per set of values), its claims trimmed (see the module comment)
 * and the trimming stated at the end of its description. Without a grid for `scale` the suite with its claims as
 * tested at that scale.
 */
export function scaledSuite(full: Suite, scale: SuiteScale): Suite {
  const suite = { ...full, claims: full.claims.map((c) => claimAtScale(c, scale)) };
  const grid = suite.grids[scale];
  if (grid === undefined) return suite;
  const kept = plan(suite, grid);
  const methods = suite.methods.filter((m) => kept.has(m.name)).map((m) => ({ ...m, seeds: kept.get(m.name)!.seeds }));
  const sweeps: SuiteSweep[] = [];
  for (const s of suite.sweeps) {
    const applies = (s.methods ?? suite.methods.map((m) => m.name)).filter((m) => kept.has(m));
    const groups = new Map<string, string[]>();
    for (const m of applies) {
      const key = JSON.stringify(kept.get(m)!.values ?? s.values);
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    for (const [values, ms] of groups) sweeps.push({ ...s, values: JSON.parse(values) as SuiteSweep['values'], methods: ms });
  }
  const changes = gridChanges(suite, grid);
  const description = `${suite.description ?? ''}${suite.description ? ' ' : ''}${scale} grid, trimmed from the full grid (${grid.reason}): ${changes.join('; ') || 'nothing trimmed'}.`;
  return {
    ...suite,
    description,
    methods,
    sweeps,
    // The result is the suite of one scale: the other scales' grids trim the full suite (they may name methods this
    // grid drops, which the scaled suite's own schema would refuse when its suite.json is read back).
    grids: { quick: undefined, machine: undefined, deep: undefined, paper: undefined },
    claims: suite.claims.map((c) => trimClaim(c, suite, scale, grid, kept)),
    // The suite's own `compare` checks that read a dropped method are not run at this scale.
    compare: suite.compare.filter((text) => {
      const c = parseComparison(
        text,
        suite.methods.map((m) => m.name),
        suite.posthoc,
        'compare',
      );
      return kept.has(c.left) && kept.has(c.right);
    }),
  };
}
