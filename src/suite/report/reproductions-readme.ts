/**
 * `calib suite readme DIR`: the README of a folder of committed suite reports (docs/reproductions/), generated from
 * their report.json files — per suite its scale and settings, whether the report was produced with the suite's current
 * definition (report-currency.ts: "produced with earlier settings; rerun pending" and what differs, when not), coverage (the paper's claims tested / listed), a table
 * whose rows are the paper's claims (id and test, source, statement, the paper's number, ours with its interval, the
 * outcome, the Holm-adjusted outcome) and the suite's own checks apart — so the page can only say what the reports say.
 *
 * Hand-written text survives regeneration only inside blocks
 *
 *   <!-- prose:NAME -->
 *   …
 *   <!-- /prose:NAME -->
 *
 * where NAME is `intro` (after the title) or a suite's directory name (after that suite's tables); a block whose name
 * has no place any more is kept at the end under "Notes without a report".
 *
 * Deep scale (issue #23 item 5): when `NAME-deep/report.json` sits beside `NAME/report.json`, NAME's section leads
 * with the deep-scale report's verdicts, gives the machine scale's second, and ends with the two scales' flip table
 * (scale-comparison.ts, flips first); a suite with a deep scale but no deep report yet says "deep-scale report not yet
 * produced (runs in progress)". Reports written before the claims registry
 * (their verdicts have no `origin`) are shown with every comparison as the suite's own check and the old outcome
 * "does not hold" read as "contradicted".
 *
 * The page is a report document (report/document/document.ts) rendered by the one Markdown renderer; the prose blocks
 * are its `prose` blocks, kept verbatim.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { heading, paragraph, type Block, type Inline, type Prose, type ReportDocument, type TableCell } from '../../report/document/document.js';
import { renderMarkdown } from '../../report/document/render-markdown.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { pathExists } from '../../util/path-exists.js';
import { BUILTIN_SUITES } from '../builtin-suites.js';
import { claimMetricPercent } from '../claims/claim-metric.js';
import { definitionsBlocks } from './claims-section.js';
import { currencyText, reportCurrency, type ReportCurrency, type ReportForCurrency } from './report-currency.js';
import { scaleComparisonBlocks, type ScaleReport } from './scale-comparison.js';
import { deepScaleLead, type LeadReport } from './deep-scale-lead.js';

export const README_FILE = 'README.md';

/** A verdict entry of report.json (the claims layout; older reports have only claim/outcome/difference/…/note). */
interface VerdictEntry {
  readonly id?: string | null;
  readonly statement?: string;
  readonly source?: string | null;
  readonly origin?: 'paper' | 'suite';
  readonly headline?: boolean;
  readonly paper_text?: string | null;
  readonly paper_value?: number | null;
  readonly claim: string | null;
  readonly metric?: string | null;
  readonly outcome: string;
  readonly reason?: string | null;
  readonly difference: number | null;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly interval_level?: number | null;
  readonly test: string;
  readonly n: number;
  readonly mde?: number | null;
  readonly p?: number | null;
  readonly p_holm?: number | null;
  readonly outcome_holm?: string | null;
  readonly holm_note?: string | null;
  readonly criterion?: { readonly result: string } | null;
  readonly note: string | null;
}

interface ReportJson extends ReportForCurrency {
  readonly description: string | null;
  readonly settings?: string;
  readonly runs: readonly { readonly id: string; readonly seed: number; readonly config: Record<string, unknown> }[];
  readonly missing: readonly string[];
  readonly verdicts: readonly VerdictEntry[];
}

/** Whether a report is current: the suite's definition now against what the report recorded (report-currency.ts). */
export type CurrencyOf = (report: ReportForCurrency) => ReportCurrency;

const OPEN = /^<!-- prose:([a-z0-9][a-z0-9-]*) -->$/;
const CLOSE = (name: string): string => `<!-- /prose:${name} -->`;

/** The prose blocks of an existing README, by name (their lines between the markers); errors name the README. */
export function proseBlocks(text: string, path = README_FILE): Map<string, string> {
  const blocks = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = OPEN.exec(lines[i]!.trim());
    if (!m) continue;
    const name = m[1]!;
    const end = lines.findIndex((l, j) => j > i && l.trim() === CLOSE(name));
    if (end < 0) invalidArgument(path, `a closing ${CLOSE(name)} for the block opened on line ${i + 1}`, 'none');
    if (blocks.has(name)) invalidArgument(path, `one prose block named ${name}`, 'two');
    blocks.set(name, lines.slice(i + 1, end).join('\n'));
    i = end;
  }
  return blocks;
}

/** The prose block `name` as the existing README has it (empty when it has none yet). */
function block(name: string, blocks: ReadonlyMap<string, string>): Prose {
  return { kind: 'prose', name, markdown: blocks.get(name) ?? '' };
}

/** The metric of an entry: its `metric`, or the "… on METRIC" of an older entry's text. */
function metricOf(v: VerdictEntry): string | undefined {
  if (v.metric) return v.metric;
  return / on ([a-z_0-9]+)/.exec(v.claim ?? '')?.[1];
}

function unit(metric: string | undefined, x: number | null | undefined): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) return 'n/a';
  return metric !== undefined && claimMetricPercent(metric) ? `${(x * 100).toFixed(2)}` : x.toFixed(4);
}

/** One vocabulary: the older reports' "does not hold" is "contradicted". */
function outcomeOf(v: VerdictEntry): string {
  return v.outcome === 'does not hold' ? 'contradicted' : v.outcome;
}

function oursText(v: VerdictEntry): string {
  if (v.outcome === 'not tested') return v.reason ?? '—';
  if (v.outcome === 'not evaluated' && v.note) return v.note;
  if (v.criterion) return v.criterion.result;
  const metric = metricOf(v);
  if (typeof v.difference !== 'number') return v.note ?? '—';
  const pt = metric !== undefined && claimMetricPercent(metric) ? ' pt' : '';
  const level = typeof v.interval_level === 'number' ? `${Math.round(v.interval_level * 100)} %` : '95 %';
  const how = v.test === 'paired t over seeds' ? `paired t, n = ${v.n}` : v.test === 'paired bootstrap over test samples' ? 'bootstrap' : v.test;
  const mde = typeof v.mde === 'number' ? `; MDE ${unit(metric, v.mde)}${pt}` : '';
  const p = typeof v.p === 'number' ? `; p = ${v.p < 1e-4 ? v.p.toExponential(1) : v.p.toFixed(4)}` : '';
  return `${unit(metric, v.difference)}${pt} [${unit(metric, v.lower)}, ${unit(metric, v.upper)}] (${level}, ${how}${mde}${p})`;
}

function holmText(v: VerdictEntry): string {
  if (v.outcome_holm === undefined) return 'n/a (older report)';
  if (v.outcome_holm === null) return v.holm_note ?? '—';
  const p = typeof v.p_holm === 'number' ? (v.p_holm < 1e-4 ? v.p_holm.toExponential(1) : v.p_holm.toFixed(4)) : 'n/a';
  return `${v.outcome_holm} (p = ${p})`;
}

function paperText(v: VerdictEntry): string {
  if (!v.paper_text) return '—';
  const metric = metricOf(v);
  return typeof v.paper_value === 'number'
    ? `${v.paper_text} (difference ${metric !== undefined && claimMetricPercent(metric) ? `${v.paper_value.toFixed(2)} pt` : v.paper_value.toFixed(4)})`
    : v.paper_text;
}

/** The settings of a report: its `settings` line, or (older reports) what its runs' configurations say. */
function settingsOf(r: ReportJson): string {
  if (r.settings) return r.settings;
  const c = r.runs[0]?.config ?? {};
  const seeds = [...new Set(r.runs.map((x) => x.seed))].sort((a, b) => a - b);
  const data = `${String(c['dataset'])}${c['subset'] !== undefined ? ` (subset ${String(c['subset'])}, validation ${String(c['validation'])})` : ''}`;
  return `scale ${r.scale}; ${r.runs.length} runs; seeds ${seeds.join(', ')}; ${data}, ${String(c['model'])}, ${String(c['epochs'])} epochs, batch ${String(c['batch'])}, lr ${String(c['lr'])}, epoch selected by ${String(c['select'])}`;
}

/** The suffix of a deep-scale report's folder beside its machine-scale one (docs/reproductions/mbls-deep). */
export const DEEP_SUFFIX = '-deep';

/** Whether built-in suite `name` has a deep scale (a `grids.deep`): its README section awaits a deep report. */
export function builtinHasDeepScale(name: string): boolean {
  const grids = BUILTIN_SUITES[name]?.suite['grids'] as Record<string, unknown> | undefined;
  return grids?.['deep'] !== undefined;
}

function suiteSection(
  name: string,
  r: ReportJson,
  currency: ReportCurrency,
  blocks: ReadonlyMap<string, string>,
  deep?: { readonly name: string; readonly report: ReportJson | null; readonly currency: ReportCurrency | null },
): Block[] {
  const out: Block[] = [heading(2, [{ code: name }])];
  if (r.description) out.push(paragraph(r.description));
  if (deep === undefined) return [...out, ...scaleBody(name, r, currency, 3), block(name, blocks)];
  if (deep.report === null || deep.currency === null) {
    out.push({ kind: 'paragraph', content: [{ strong: 'Deep scale:' }, ' deep-scale report not yet produced (runs in progress).'] }, heading(3, 'Machine scale'));
    return [...out, ...scaleBody(name, r, currency, 4), block(name, blocks)];
  }
  out.push(heading(3, ['Deep scale (', { code: deep.name }, ')']), ...scaleBody(deep.name, deep.report, deep.currency, 4), block(deep.name, blocks));
  out.push(heading(3, 'Machine scale'), ...scaleBody(name, r, currency, 4), block(name, blocks));
  // The flip table of `calib suite compare-scales NAME NAME-deep`, under this section's own heading.
  const [, ...flips] = scaleComparisonBlocks(r as unknown as ScaleReport, deep.report as unknown as ScaleReport, 'deep');
  out.push(
    heading(3, `Verdicts at ${r.scale} vs ${deep.report.scale} scale`),
    { kind: 'paragraph', content: ['(', { code: `calib suite compare-scales ${name} ${deep.name}` }, '; flips first.)'] },
    ...flips,
  );
  return out;
}

/** The alignment of a table of `columns` columns, all left (every table of the README is). */
const leftAligned = (columns: number): ('left' | 'right')[] => Array.from({ length: columns }, () => 'left');

/** The outcome cell: bold in Markdown, its verdict class in HTML (as in the suite report's claims table). */
function outcomeCell(v: VerdictEntry): TableCell {
  const outcome = outcomeOf(v);
  return { text: outcome, highlight: `verdict-${outcome.replace(/ /g, '-')}` };
}

/** One report's settings, currency, coverage, link and claims tables, under headings of level `level`. */
function scaleBody(name: string, r: ReportJson, currency: ReportCurrency, level: 3 | 4): Block[] {
  const layout = r.verdicts.every((v) => v.origin !== undefined);
  const paper = layout ? r.verdicts.filter((v) => v.origin === 'paper') : [];
  const ordered = [...paper.filter((v) => v.headline), ...paper.filter((v) => !v.headline)];
  const checks = layout ? r.verdicts.filter((v) => v.origin === 'suite') : r.verdicts;
  const tested = paper.filter((v) => v.outcome !== 'not tested' && v.outcome !== 'not evaluated').length;
  const diverged = r.diverged?.length ? ` ${r.diverged.length} run(s) diverged (training loss NaN or infinite): ${r.diverged.map((d) => d.id).join(', ')}.` : '';
  const incomplete: Inline[] = r.missing.length ? [' ', { strong: 'Incomplete:' }, ` ${r.missing.length} run(s) not finished.`] : [];
  const out: Block[] = [
    { kind: 'paragraph', content: [{ strong: 'Settings:' }, ` ${settingsOf(r)}.`, ...incomplete, diverged] },
    { kind: 'paragraph', content: [{ strong: `${currency.state === 'current' ? 'Current' : 'Not current'}:` }, ` ${currencyText(currency, r.suite, r.scale)}.`] },
    {
      kind: 'paragraph',
      content: [
        { strong: 'Coverage:' },
        layout
          ? ` ${tested} of the ${paper.length} claims of the paper listed are tested (${paper.filter((v) => v.outcome === 'not tested').length} not tested on this machine, ${paper.filter((v) => v.outcome === 'not evaluated').length} not evaluated); ${checks.length} checks of the suite's own.`
          : ` this report was written before the claims registry: it lists no claims of the paper, and its ${checks.length} comparisons are shown as the suite's own checks (the older outcome "does not hold" reads "contradicted"). Rerunning the suite with its registry replaces them.`,
      ],
    },
    { kind: 'paragraph', content: ['Report: ', { link: `${name}/report.md`, href: `${name}/report.md` }, ' · ', { link: 'html', href: `${name}/report.html` }] },
  ];
  if (ordered.length) {
    out.push(heading(level, "The paper's claims"), {
      kind: 'table',
      columns: ['Claim (test)', 'Source', 'Statement', 'Paper', 'Ours [interval]', 'Outcome', 'Holm'],
      align: leftAligned(7),
      rows: ordered.map((v) => ({
        header: `${v.id ?? ''}${v.headline ? ' (headline)' : ''}: ${v.claim ?? '—'}`,
        cells: [{ text: v.source ?? '—' }, { text: v.statement ?? '' }, { text: paperText(v) }, { text: oursText(v) }, outcomeCell(v), { text: holmText(v) }],
      })),
    });
  }
  if (checks.length) {
    out.push(heading(level, "The suite's own checks"), {
      kind: 'table',
      columns: ['Check', 'Ours [interval]', 'Outcome', 'Holm'],
      align: leftAligned(4),
      rows: checks.map((v) => ({ header: v.id ? `${v.id}: ${v.statement ?? v.claim ?? ''}` : (v.claim ?? v.statement ?? ''), cells: [{ text: oursText(v) }, outcomeCell(v), { text: holmText(v) }] })),
    });
  }
  return out;
}

/** A report's state in the overview table. */
function currencyCell(c: ReportCurrency): string {
  return c.state === 'current' ? 'yes' : c.state === 'unknown' ? 'not compared' : c.rerun ? 'no: rerun pending' : 'no: calib report pending';
}

/**
 * The README of `dir` for its reports (`dir/NAME/report.json`), keeping the prose blocks of `existing`; each report
 * is compared with its suite's current definition by `currency` (default: the built-in suite of its name).
 */
export async function reproductionsReadme(dir: string, existing = '', currency: CurrencyOf = reportCurrency, hasDeepScale: (name: string) => boolean = builtinHasDeepScale): Promise<string> {
  if (!(await pathExists(dir))) invalidArgument('DIR', 'a folder of suite reports (DIR/NAME/report.json)', `${JSON.stringify(dir)} (not found)`);
  const names: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory() && (await pathExists(join(dir, entry.name, 'report.json')))) names.push(entry.name);
  names.sort();
  if (names.length === 0) invalidArgument('DIR', 'a folder whose subfolders hold report.json files (calib report)', `none in ${dir}`);
  const reports = new Map<string, ReportJson>();
  for (const n of names) reports.set(n, JSON.parse(await readFile(join(dir, n, 'report.json'), 'utf8')) as ReportJson);
  return renderMarkdown(readmeDocument(reports, proseBlocks(existing, join(dir, README_FILE)), currency, hasDeepScale));
}

/** The README as a document: title, overview table, the verdicts' definitions, one section per paper, orphaned notes. */
function readmeDocument(reports: ReadonlyMap<string, ReportJson>, blocks: ReadonlyMap<string, string>, currency: CurrencyOf, hasDeepScale: (name: string) => boolean): ReportDocument {
  // Once a deep-scale report exists the page leads with that scale (deep-scale-lead.ts): title, lead table, overview rows.
  const deepReports = [...reports].filter(([, r]) => r.scale === 'deep');
  const leads = deepReports.length > 0;
  const title = leads ? 'Reproductions of the papers: the deep scale first, then this machine’s scale' : 'Reproductions of the papers at this machine’s scale';
  const states = new Map([...reports].map(([n, r]) => [n, currency(r)] as const));
  const machineOf = (n: string): ReportJson | null => (n.endsWith(DEEP_SUFFIX) ? (reports.get(n.slice(0, -DEEP_SUFFIX.length)) ?? null) : null);
  const lead = leads ? deepScaleLead(deepReports.map(([name, r]) => ({ name, report: r as unknown as LeadReport, machine: machineOf(name) as unknown as LeadReport | null }))) : [];
  const overview = leads ? [...deepReports, ...[...reports].filter(([, r]) => r.scale !== 'deep')] : [...reports];
  const out: Block[] = [
    heading(1, title),
    {
      kind: 'comment',
      text: 'Generated by `calib suite readme DIR` (DIR = this folder; `npm run docs` runs it) from the report.json files below. Edit only inside the prose blocks, which regeneration keeps.',
    },
    ...lead,
    block('intro', blocks),
    {
      kind: 'table',
      columns: ['suite', 'scale', 'runs', 'seeds', 'claims of the paper tested / listed', 'suite checks', 'current settings', 'report'],
      align: leftAligned(8),
      rows: overview.map(([n, r]) => {
        const layout = r.verdicts.every((v) => v.origin !== undefined);
        const paper = r.verdicts.filter((v) => v.origin === 'paper');
        const tested = paper.filter((v) => v.outcome !== 'not tested' && v.outcome !== 'not evaluated').length;
        const diverged = r.diverged?.length ?? 0;
        const runs = r.missing.length || diverged ? `${r.runs.length} of ${r.runs.length + r.missing.length + diverged}${diverged ? ` (${diverged} diverged)` : ''}` : String(r.runs.length);
        return {
          header: [{ code: n }],
          cells: [
            { text: r.scale },
            { text: runs },
            { text: String(new Set(r.runs.map((x) => x.seed)).size) },
            { text: layout ? `${tested} / ${paper.length}` : 'no registry (older report)' },
            { text: String(layout ? r.verdicts.length - paper.length : r.verdicts.length) },
            { text: currencyCell(states.get(n)!) },
            { text: [{ link: 'md', href: `${n}/report.md` }, ' · ', { link: 'html', href: `${n}/report.html` }] },
          ],
        };
      }),
    },
    ...definitionsBlocks(2),
  ];
  // A deep report beside its machine report goes into that paper's section (first); alone, it has a section of its own.
  const companion = (n: string): boolean => n.endsWith(DEEP_SUFFIX) && reports.has(n.slice(0, -DEEP_SUFFIX.length));
  // Papers with a deep-scale report first (in name order), then the rest.
  const withDeep = (n: string): boolean => reports.has(`${n}${DEEP_SUFFIX}`);
  const sections = leads ? [...[...reports].filter(([n]) => withDeep(n)), ...[...reports].filter(([n]) => !withDeep(n))] : [...reports];
  for (const [n, r] of sections) {
    if (companion(n)) continue;
    const deepName = `${n}${DEEP_SUFFIX}`;
    const deepReport = reports.get(deepName) ?? null;
    const deep = deepReport !== null || hasDeepScale(n) ? { name: deepName, report: deepReport, currency: deepReport ? states.get(deepName)! : null } : undefined;
    out.push(...suiteSection(n, r, states.get(n)!, blocks, deep));
  }
  const orphans = [...blocks.keys()].filter((k) => k !== 'intro' && !reports.has(k));
  if (orphans.length) out.push(heading(2, 'Notes without a report'), ...orphans.map((k) => block(k, blocks)));
  return { title, styles: [], blocks: out };
}

/** Write `dir`/README.md from its reports, keeping the existing README's prose blocks; whether it changed. */
export async function writeReproductionsReadme(
  dir: string,
  currency: CurrencyOf = reportCurrency,
  hasDeepScale: (name: string) => boolean = builtinHasDeepScale,
): Promise<{ readonly path: string; readonly changed: boolean }> {
  const path = join(dir, README_FILE);
  const existing = (await pathExists(path)) ? await readFile(path, 'utf8') : '';
  const text = await reproductionsReadme(dir, existing, currency, hasDeepScale);
  if (text !== existing) await atomicWriteFile(path, text);
  return { path, changed: text !== existing };
}
