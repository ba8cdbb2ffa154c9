/**
 * Whether a committed report.json was produced with its suite's *current* definition (`calib suite readme`): the
 * report's runs are compared with what the suite expands to now at the report's scale (expand-suite.ts), and its
 * verdicts with the suite's claims now (claim-entries.ts):
 *
 *   runs         run ids missing from the report (a seed or sweep value added) or no longer in the suite;
 *   settings     per run present in both, the training settings that differ — each configuration resolved (every
 *                default filled in, the loss options included, so a report written before a key existed compares
 *                equal to one stating its default) without `out` and `threads`, which do not change results;
 *   post-hoc     the calibrators fitted and the bin count;
 *   claims       claims added or removed (by id, or a `compare` string's text), and claims whose test (comparison,
 *                margin) changed — those need only `calib report`, the others a rerun of the suite.
 *
 * A report whose suite is not built in cannot be compared (reported as such, never as current).
 */
import { resolveOptions } from '../../losses/options.js';
import { lossDefinition } from '../../losses/registry.js';
import { BUILTIN_SUITES } from '../builtin-suites.js';
import { scaledSuite } from '../scale-grid.js';
import { expandSuite } from '../expand-suite.js';
import { changedSettings, evaluationSettings } from '../identity/run-identity.js';
import { parseSuite, type Suite, type SuiteScale } from '../suite-schema.js';
import { claimEntries, type ClaimEntry } from './claim-entries.js';

/** The parts of report.json the comparison reads. */
export interface ReportForCurrency {
  readonly suite: string;
  readonly scale: string;
  readonly bins: number;
  readonly runs: readonly {
    readonly id: string;
    readonly config: Readonly<Record<string, unknown>>;
    readonly posthoc?: Readonly<Record<string, unknown>> | null;
    readonly posthoc_failures?: Readonly<Record<string, unknown>> | null;
  }[];
  readonly missing?: readonly string[];
  /** Runs that diverged (training loss NaN or infinite): part of the report as results. */
  readonly diverged?: readonly { readonly id: string }[];
  readonly verdicts: readonly { readonly id?: string | null; readonly claim: string | null; readonly origin?: string; readonly margin?: number | null }[];
}

export interface ReportCurrency {
  /** 'current': produced with the suite's current settings; 'earlier': not (see `differences`); 'unknown': no definition to compare with. */
  readonly state: 'current' | 'earlier' | 'unknown';
  /** What differs, one phrase each (empty when current). */
  readonly differences: readonly string[];
  /** Whether a rerun of the suite (training or post-hoc) is needed, not only `calib report` (claims changed only). */
  readonly rerun: boolean;
}

/**
 * A configuration's training settings: the run identity's (run-identity.ts: resolved, without `out`, `threads` and a
 * non-OOD run's OOD keys), with the loss options' defaults filled.
 */
function settings(config: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const resolved = evaluationSettings(config);
  // The loss options with their defaults filled (a method that now states a default explicitly is unchanged).
  for (const [loss, options] of [
    ['loss', 'lossOptions'],
    ['secondary', 'secondaryOptions'],
  ] as const) {
    if (typeof resolved[loss] !== 'string') continue;
    try {
      resolved[options] = resolveOptions(resolved[loss] as string, lossDefinition(resolved[loss] as string, loss).options, resolved[options]);
    } catch {
      // A loss or option today's registry does not know: compared as written.
    }
  }
  return resolved;
}

/** "a, b, c" with at most `limit` items, then "… (N in all)". */
function listed(items: readonly string[], limit = 6): string {
  return items.length > limit ? `${items.slice(0, limit).join(', ')}, … (${items.length} in all)` : items.join(', ');
}

/** The setting changes over the runs present in both: "key before → now" with the number of runs it applies to. */
function settingChanges(report: ReportForCurrency, now: ReadonlyMap<string, Readonly<Record<string, unknown>>>): string[] {
  const counts = new Map<string, number>();
  for (const r of report.runs) {
    const current = now.get(r.id);
    if (current === undefined) continue;
    for (const change of changedSettings(settings(r.config), settings(current), 'default')) counts.set(change, (counts.get(change) ?? 0) + 1);
  }
  return [...counts].map(([change, n]) => `${change}${n === report.runs.length ? '' : ` (${n} run${n === 1 ? '' : 's'})`}`);
}

/** The key of a claim in both layouts: its id, or the text of a `compare` string. */
function claimKey(id: string | null | undefined, text: string | null): string {
  return id ?? text ?? '';
}

function testText(c: ClaimEntry): string | null {
  return c.test.kind === 'compare' || c.test.kind === 'equivalent' ? c.test.comparison.text : null;
}

function claimChanges(report: ReportForCurrency, suite: Suite): string[] {
  const entries = claimEntries(suite);
  const before = new Map(report.verdicts.map((v) => [claimKey(v.id, v.claim), v] as const));
  const now = new Map(entries.map((c) => [claimKey(c.id, testText(c)), c] as const));
  const out: string[] = [];
  if (report.verdicts.length > 0 && report.verdicts.every((v) => v.origin === undefined) && entries.some((c) => c.id !== null)) {
    return [`written before the claims registry (${entries.filter((c) => c.origin === 'paper').length} claims of the paper registered now)`];
  }
  const added = [...now.keys()].filter((k) => !before.has(k));
  const removed = [...before.keys()].filter((k) => !now.has(k));
  const changed = [...now]
    .filter(([k, c]) => {
      const v = before.get(k);
      if (v === undefined) return false;
      const text = testText(c);
      const marginChanged = c.test.kind === 'equivalent' && typeof v.margin === 'number' && v.margin !== c.test.margin;
      return (text !== null && text !== v.claim) || marginChanged;
    })
    .map(([k]) => k);
  if (added.length) out.push(`claims added: ${listed(added)}`);
  if (removed.length) out.push(`claims removed: ${listed(removed)}`);
  if (changed.length) out.push(`claims whose test changed: ${listed(changed)}`);
  return out;
}

/** Compare `report` with `suite` (the suite's definition now). */
export function compareReport(report: ReportForCurrency, suite: Suite): ReportCurrency {
  let runs: ReturnType<typeof expandSuite>;
  try {
    runs = expandSuite(suite, report.scale as SuiteScale);
  } catch {
    return { state: 'earlier', differences: [`the suite no longer declares the scale ${report.scale}`], rerun: true };
  }
  const now = new Map(runs.map((r) => [r.id, r.config as unknown as Record<string, unknown>] as const));
  const reported = new Set([...report.runs.map((r) => r.id), ...(report.missing ?? []), ...(report.diverged ?? []).map((d) => d.id)]);
  const differences: string[] = [];
  const notRun = runs.map((r) => r.id).filter((id) => !reported.has(id));
  const gone = [...reported].filter((id) => !now.has(id));
  if (notRun.length) differences.push(`${notRun.length} run${notRun.length === 1 ? '' : 's'} of the suite not in the report (${listed(notRun, 4)})`);
  if (gone.length) differences.push(`${gone.length} run${gone.length === 1 ? '' : 's'} no longer in the suite (${listed(gone, 4)})`);
  differences.push(...settingChanges(report, now));
  const fitted = [...new Set(report.runs.flatMap((r) => [...Object.keys(r.posthoc ?? {}), ...Object.keys(r.posthoc_failures ?? {})]))].sort();
  const wanted = [...suite.posthoc].sort();
  if (report.runs.length > 0 && fitted.join() !== wanted.join()) differences.push(`post-hoc calibrators ${fitted.join(', ') || 'none'} → ${wanted.join(', ') || 'none'}`);
  if (report.bins !== suite.bins) differences.push(`bins ${report.bins} → ${suite.bins}`);
  const rerun = differences.length > 0;
  // At a scale with a trimmed grid the claims are the grid's (claims on its dropped methods are not tested there).
  differences.push(...claimChanges(report, scaledSuite(suite, report.scale as SuiteScale)));
  return { state: differences.length ? 'earlier' : 'current', differences, rerun };
}

/** Compare `report` with the built-in suite of its name, if there is one. */
export function reportCurrency(report: ReportForCurrency): ReportCurrency {
  const builtin = BUILTIN_SUITES[report.suite];
  if (builtin === undefined) return { state: 'unknown', differences: [`no built-in suite named ${report.suite} to compare with`], rerun: false };
  return compareReport(report, parseSuite(structuredClone(builtin.suite), `suite ${report.suite}`));
}

/** The README's sentence for a comparison. */
export function currencyText(c: ReportCurrency, name: string, scale: string): string {
  if (c.state === 'current')
    return `produced with the suite's current settings (runs, training settings, post-hoc calibrators, bins and claims as calib suite show ${name} --scale ${scale} gives them)`;
  if (c.state === 'unknown') return `not compared: ${c.differences.join('; ')}`;
  const what = c.rerun ? 'produced with earlier settings; rerun pending' : 'produced before the current claims registry; calib report pending';
  return `${what} — ${c.differences.join('; ')}`;
}
