/**
 * The suite report as one document (report/document/document.ts), rendered to report.md and report.html by the
 * shared renderers: the title and settings, the warnings a reader needs first (settings as the runs recorded them,
 * a partial suite, diverged runs, post-hoc fits without a result), what the suite found, the results table per
 * dataset · model, the ensembles, the claims and the suite's own checks, then the figure sections (the OOD section
 * with its OOD, severity and calibrator-difference tables).
 */
import { heading, paragraph, type Block, type DataDocument, type Figure, type ReportData, type Table } from '../../report/document/document.js';
import { COLORS, FONT_FAMILY } from '../../report/theme.js';
import { CLAIMS_CSS, claimsBlocks } from './claims-section.js';
import { ensembleBlocks, type EnsembleRow } from './ensemble-table.js';
import { differenceBlocks, type ShiftDifferenceRow } from './shift-differences.js';
import { cleanEceNote, SHIFT_METRIC_INFO, shiftMetricLabel } from './shift-tables.js';
import { spreadName } from './statistics.js';
import type { ReportFigure } from './suite-figures.js';
import { sweepsAwaitingRuns, type SuiteResults } from './suite-results.js';
import { calibratorShort, type SuiteTable } from './suite-table.js';
import { selectionRuleText } from './sweep-selection.js';
import type { Verdict } from './verdicts.js';
import { computeText, type SuiteMeasurement } from '../estimate/suite-measured.js';

/**
 * The OOD section's tables: per group the OOD table and the ECE-vs-corruption-severity table (shift-tables.ts), and
 * each calibrator's difference to TS per severity (shift-differences.ts).
 */
export interface ShiftTables {
  readonly ood: readonly SuiteTable[];
  readonly severity: readonly SuiteTable[];
  readonly differences: readonly ShiftDifferenceRow[];
}

/** "ECE vs corruption severity", "ECE ℓ2 equal-mass vs corruption severity", … */
function severityHeading(results: SuiteResults): string {
  return `${SHIFT_METRIC_INFO[results.record.suite.shiftMetric].name} vs corruption severity`;
}

/** Caption lines of the OOD section's tables. */
function shiftTableNotes(results: SuiteResults): { ood: string; severity: string } {
  const s = results.record.suite;
  const calibrated = s.posthoc.length ? ` Rows "+ ${s.posthoc.map(calibratorShort).join(' / ')}": the calibrator fitted on the clean validation split, applied to every OOD and corrupted set.` : '';
  const clean = cleanEceNote(results);
  const cleanNote = clean ? ` ${clean}` : '';
  return {
    ood: `OOD and shift, mean ± ${spreadName(s.spread)} over seeds: AUROC of the max-softmax confidence, test subset (in distribution) vs Gaussian noise / the second dataset; mean confidence on those sets; clean ECE of the test subset; accuracy and ECE under corruption (mean over every corruption × severity).${cleanNote}${calibrated}`,
    severity: `Test ${shiftMetricLabel(s.shiftMetric)} against corruption severity: 0 = the clean test subset, 1–5 = mean over the corruption kinds at that severity; mean ± ${spreadName(s.spread)} over seeds; best per column in bold.${s.shiftMetric === 'ece' ? cleanNote : ''}${calibrated}`,
  };
}

/** The report's figure sections, in order, with their headings. */
const FIGURE_SECTIONS: readonly [ReportFigure['section'], string][] = [
  ['reliability', 'Reliability diagrams'],
  ['sweeps', 'Hyper-parameter sweeps'],
  ['epochs', 'Training curves'],
  ['density', 'Accuracy–confidence density per epoch'],
  ['ood', 'Out-of-distribution detection'],
  ['regulariser', 'Per-sample regulariser'],
];

/** "kind on run-a, run-b: reason" for each calibrator that could not be fitted on some runs (reasons of the first). */
function posthocFailures(results: SuiteResults): string[] {
  const byKind = new Map<string, { runs: string[]; reason: string }>();
  for (const r of results.runs) {
    for (const [kind, reason] of Object.entries(r.posthoc.failures ?? {})) {
      const e = byKind.get(kind) ?? { runs: [], reason };
      e.runs.push(r.run.id);
      byKind.set(kind, e);
    }
  }
  return [...byKind].map(([kind, e]) => `${kind} on ${e.runs.join(', ')}: ${e.reason}`);
}

/** The sentence explaining the training-split columns, when the table has them. */
function trainNote(t: SuiteTable): string {
  const train = t.columns.some((c) => c.split === 'train') ? ' Train columns: the training split (no augmentation) with the same weights.' : '';
  const fg = t.columns.some((c) => c.split === 'foreground')
    ? ' Segmentation: metrics over the labelled pixels of the test images whose logits the run kept (ignore label excluded); "w/o bg" columns also exclude the background pixels.'
    : '';
  return train + fg;
}

/** What a report of an unfinished suite says first: how many runs it rests on, and what that means for its claims. */
function partialText(results: SuiteResults): string {
  const waiting = sweepsAwaitingRuns(results);
  const left = waiting.length ? ` Swept methods with unfinished runs are left out of the tables and figures (their value is chosen over every value and seed): ${waiting.join(', ')}.` : '';
  return `${results.runs.length} of ${results.record.runs.length} runs finished; a claim reading a method with an unfinished run is not evaluated (its verdict waits for every seed and swept value of that method).${left}`;
}

/** The runs whose training loss became NaN or infinite, with the first error, and what the report does with them. */
function divergedText(results: SuiteResults): string {
  const first = results.diverged[0]!.error.replace(/; the run stopped there.*$/, '');
  return (
    `${results.diverged.length} run(s) stopped because the training loss became NaN or infinite (${first} in ${results.diverged[0]!.run.id}): ${results.diverged.map((d) => d.run.id).join(', ')}. ` +
    'They are results, not missing runs: a swept value with a diverged seed is no candidate for the choice, an unswept method with one is left out of the tables, and the claims that need them say so.'
  );
}

export function settingsLine(results: SuiteResults): string {
  const s = results.record.suite;
  const c = results.runs[0]?.run.config;
  const parts = [`scale ${results.record.scale}`, `${results.record.runs.length} runs (${results.runs.length} finished)`, `seeds ${s.seeds.join(', ')}`];
  if (c)
    parts.push(
      `${c.dataset}${c.subset ? ` (subset ${c.subset}${c.validation ? `, validation ${c.validation}` : ''})` : ''}, ${c.model}, ${c.epochs} epochs, batch ${c.batch}, lr ${c.lr}, ${c.schedule}, weight decay ${c.weightDecay}, epoch selected by ${c.select}`,
    );
  parts.push(`ECE with ${s.bins} equal-width bins, convention (l,u] (a confidence on a bin edge belongs to the lower bin)`);
  if (s.posthoc.length) parts.push(`post-hoc: ${s.posthoc.join(', ')} fitted on each run's validation split, applied to its test split`);
  if (s.sweeps.length) parts.push(`swept values chosen by ${selectionRuleText(s.select)}`);
  return parts.join('; ');
}

/** The page's stylesheet. */
const STYLES = [
  `body{font-family:${FONT_FAMILY};color:${COLORS.text};max-width:1240px;margin:1.5em auto;padding:0 1.2em;line-height:1.45}`,
  'h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}',
  '.settings{color:#555;font-size:.92em}.table-wrap{overflow-x:auto}',
  'table{border-collapse:collapse;margin:.8em 0;font-size:.92em}th,td{padding:4px 9px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}',
  'thead th{border-bottom:2px solid #333;vertical-align:bottom;white-space:normal}tbody th{text-align:left;font-weight:normal}',
  '.note{color:#666;font-size:.88em}figure{margin:1em 0}figure svg{max-width:100%;height:auto;display:block}',
  'figcaption{color:#555;font-size:.88em;margin-top:.3em;max-width:900px}.charts{display:flex;flex-wrap:wrap;gap:1em}.charts figure{flex:1 1 540px;max-width:620px}',
  CLAIMS_CSS,
  '.warning{background:#fff5e0;border:1px solid #e6c27a;padding:.5em .8em}',
];

/** A suite table as a document table (one row per method, the best mean per column marked) with HTML class `className`. */
function suiteTable(t: SuiteTable, className: string): Table {
  return {
    kind: 'table',
    className,
    columns: ['Method', ...t.columns.map((c) => c.label)],
    rows: t.rows.map((r) => ({ header: r.label, attributes: { 'data-method': r.method }, cells: r.cells.map((c) => ({ text: c.text, ...(c.best ? { best: true } : {}) })) })),
  };
}

/** A suite figure, written as report-figures/<name>.svg, captioned (the caption is its alt text too). */
function suiteFigure(f: ReportFigure): Figure {
  return { kind: 'figure', id: `fig-${f.name}`, path: `report-figures/${f.name}.svg`, svg: f.svg, alt: f.caption, caption: f.caption };
}

/** Everything the suite report shows, computed by write-suite-report.ts. */
export interface SuiteReportParts {
  readonly results: SuiteResults;
  readonly tables: readonly SuiteTable[];
  readonly verdicts: readonly Verdict[];
  readonly figures: readonly ReportFigure[];
  readonly findings: readonly string[];
  readonly ensembles: readonly EnsembleRow[];
  readonly shift: ShiftTables;
  /** report.json: the data behind the page (write-suite-report.ts). */
  readonly data: ReportData;
  /** The suite directory's measured machine time (suite-measured.ts), for the Compute paragraph. */
  readonly compute?: SuiteMeasurement;
}

/** The suite report as a document. */
export function suiteDocument(parts: SuiteReportParts): DataDocument {
  const { results, tables, verdicts, figures, findings, ensembles, shift } = parts;
  const s = results.record.suite;
  const blocks: Block[] = [heading(1, `Suite ${s.name}`)];
  if (s.description) blocks.push(paragraph(s.description));
  blocks.push(paragraph(settingsLine(results), 'settings'));
  if (parts.compute) blocks.push({ kind: 'paragraph', className: 'settings', content: [{ strong: 'Compute:' }, ` ${computeText(parts.compute)}`] });
  if (results.notes?.length) blocks.push({ kind: 'paragraph', className: 'warning', content: [{ strong: 'Settings as the runs recorded them:' }, ` ${results.notes.join('; ')}.`] });
  if (results.missing.length)
    blocks.push({ kind: 'paragraph', className: 'warning', content: [{ strong: 'Partial report:' }, ` ${partialText(results)} Not finished: ${results.missing.join(', ')}.`] });
  if (results.diverged.length) blocks.push({ kind: 'paragraph', className: 'warning', content: [{ strong: 'Diverged runs:' }, ` ${divergedText(results)}`] });
  blocks.push(heading(2, 'What this suite found', 'findings'), { kind: 'list', className: 'findings', items: findings.map((f) => [f]) });
  const failed = posthocFailures(results);
  if (failed.length) blocks.push({ kind: 'paragraph', className: 'warning', content: [{ strong: 'Post-hoc fits without a result' }, ` (n/a in the tables): ${failed.join('; ')}.`] });
  for (const t of tables) {
    blocks.push(heading(2, `Results: ${t.group}`), suiteTable(t, 'results'));
    blocks.push(
      paragraph(
        `Test-set metrics, mean ± ${spreadName(s.spread)} over seeds (n = ${[...new Set(t.rows.map((r) => r.seeds))].join('/')}); best mean per column in bold; T = fitted temperature. ECE and AdaECE: ${s.bins} bins (ECE: equal-width, convention (l,u]; AdaECE: equal-mass).${trainNote(t)}`,
        'note',
      ),
    );
  }
  blocks.push(...ensembleBlocks(ensembles));
  blocks.push(...claimsBlocks(results, verdicts));
  for (const [section, title] of FIGURE_SECTIONS) {
    const fs = figures.filter((f) => f.section === section);
    const shiftTables = section === 'ood' ? [...shift.ood, ...shift.severity] : [];
    if (!fs.length && !shiftTables.length) continue;
    blocks.push(heading(2, title, section));
    if (section === 'ood') {
      const notes = shiftTableNotes(results);
      for (const t of shift.ood) blocks.push(heading(3, `OOD and shift: ${t.group}`), suiteTable(t, 'ood-table'), paragraph(notes.ood, 'note'));
      for (const t of shift.severity) {
        blocks.push(heading(3, `${severityHeading(results)}: ${t.group}`), suiteTable(t, 'shift-severity'), paragraph(notes.severity, 'note'));
        blocks.push(...differenceBlocks(shift.differences.filter((d) => d.group === t.group)));
      }
    }
    // Reliability diagrams one under another; the other charts side by side in HTML.
    blocks.push({ kind: 'figure-group', figures: fs.map(suiteFigure), ...(section === 'reliability' ? {} : { className: 'charts' }) });
  }
  return { title: `Suite ${s.name} — calibkit report`, styles: STYLES, blocks, data: parts.data };
}
