/**
 * `calib report DIR`: the comparison report of a suite directory, as
 *   report.md            Markdown with the figures as SVG files in report-figures/
 *   report.html          one self-contained page (inline SVG, inline CSS, no scripts, nothing fetched)
 *   report.json          the data behind it: every run's settings and metrics (under `calib eval --json` keys),
 *                        the table, the sweeps' chosen values, the verdicts (with coverage and the vocabulary's
 *                        definitions), the regulariser histogram's counts
 * Sections: what the suite found (generated from the numbers), the table per dataset · model, the paper's claims and
 * the suite's own checks with their verdicts (claims-section.ts), reliability diagrams, sweeps, training curves, OOD
 * (the OOD table and the ECE-vs-corruption-severity table and figure — or the suite's `shiftMetric` — raw and after
 * each post-hoc calibrator, with each calibrator's paired difference to TS per severity: shift-differences.ts), the
 * per-sample regulariser histogram.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeMarkdown } from '../../report/markdown.js';
import { escapeXml } from '../../report/svg.js';
import { COLORS, FONT_FAMILY } from '../../report/theme.js';
import { jsonNumber } from '../../report/metrics-json.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { mean, spreadName } from './statistics.js';
import { suiteFigures, type ReportFigure } from './suite-figures.js';
import { regulariserHistograms } from './regulariser-histogram.js';
import { methodGroups, readSuiteResults, sweepsAwaitingRuns, testMetric, type MethodResults, type SuiteResults } from './suite-results.js';
import { differenceFinding, differenceHtml, differenceMarkdown, shiftDifferences, type ShiftDifferenceRow } from './shift-differences.js';
import { cleanEceNote, corruptionMethods, metricAtSeverity, oodTables, SHIFT_METRIC_INFO, severityTables, shiftMetricLabel, shiftOf, shiftVariants } from './shift-tables.js';
import { calibratorShort, fittedTemperature, methodLabel, suiteTables, type SuiteTable } from './suite-table.js';
import { ensembleHtml, ensembleMarkdown, ensembleRows, type EnsembleRow } from './ensemble-table.js';
import { selectionRuleText } from './sweep-selection.js';
import { suiteVerdicts, type Verdict } from './verdicts.js';
import { CALIBKIT_VERSION } from '../../util/version.js';
import { runIdentityJson } from './run-records.js';
import { CLAIMS_CSS, claimsHtml, claimsJson, claimsMarkdown, verdictFinding } from './claims-section.js';

/**
 * The OOD section's tables: per group the OOD table and the ECE-vs-corruption-severity table (shift-tables.ts), and
 * each calibrator's difference to TS per severity (shift-differences.ts).
 */
interface ShiftTables {
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

export interface WrittenReport {
  readonly paths: readonly string[];
  /** One-paragraph summary (the findings), for the terminal. */
  readonly summary: string;
}

/** The report's figure sections, in order, with their headings. */
const FIGURE_SECTIONS: readonly [ReportFigure['section'], string][] = [['reliability', 'Reliability diagrams'], ['sweeps', 'Hyper-parameter sweeps'], ['epochs', 'Training curves'], ['density', 'Accuracy–confidence density per epoch'], ['ood', 'Out-of-distribution detection'], ['regulariser', 'Per-sample regulariser']];

const pct = (v: number, d = 2): string => (Number.isFinite(v) ? `${(v * 100).toFixed(d)}%` : 'n/a');

/** " at margin M = 6 (chosen from 2, 4, 6, 10, 15 by lowest mean validation NLL)" for a swept method; empty otherwise. */
function sweepChoice(m: MethodResults, rule: SuiteResults['record']['suite']['select']): string {
  if (!m.sweep) return '';
  return ` at ${m.sweep.label} = ${String(m.sweep.chosen)} (chosen from ${m.sweep.values.map((v) => String(v.value)).join(', ')} by ${selectionRuleText(rule)})`;
}

/** Sentences stating what the suite found, computed from the table's numbers. */
export function findings(results: SuiteResults, verdicts: readonly Verdict[], differences: readonly ShiftDifferenceRow[] = []): string[] {
  const out: string[] = [];
  const suite = results.record.suite;
  for (const m of results.methods) {
    const acc = mean(m.runs.map((r) => testMetric(r, 'accuracy')));
    const conf = mean(m.runs.map((r) => testMetric(r, 'mean_confidence')));
    const ece = mean(m.runs.map((r) => testMetric(r, 'ece')));
    const gap = conf - acc;
    const kind = Math.abs(gap) < 0.005 ? 'close to calibrated on average' : gap > 0 ? `overconfident by ${(gap * 100).toFixed(1)} points` : `underconfident by ${(-gap * 100).toFixed(1)} points`;
    const t = mean(m.runs.map(fittedTemperature));
    const ts = suite.posthoc.includes('temperature')
      ? ` Temperature scaling fitted T = ${t.toFixed(2)} on validation (${t > 1 ? 'softening: the model was overconfident' : 'sharpening: the model was underconfident'}) and moved test ECE to ${pct(mean(m.runs.map((r) => testMetric(r, 'ece', 'temperature'))))}.`
      : '';
    out.push(`${m.label}${sweepChoice(m, suite.select)}: test accuracy ${pct(acc)}, mean confidence ${pct(conf)} — ${kind}; ECE ${pct(ece)}.${ts}`);
  }
  if (results.methods.length > 1) {
    const best = (after?: string): string => {
      const ranked = [...results.methods].sort((a, b) => mean(a.runs.map((r) => testMetric(r, 'ece', after))) - mean(b.runs.map((r) => testMetric(r, 'ece', after))));
      return `${methodLabel(ranked[0]!)} (${pct(mean(ranked[0]!.runs.map((r) => testMetric(r, 'ece', after))))})`;
    };
    out.push(`Lowest test ECE: ${best()}${suite.posthoc.length ? `; after ${calibratorShort(suite.posthoc[0]!)}: ${best(suite.posthoc[0])}` : ''}.`);
  }
  // Calibration under shift: the shift metric (default ECE) at clean and the highest severity, raw and after each
  // calibrator; then each calibrator against TS per severity.
  const metric = suite.shiftMetric;
  const shiftValue = (v: number): string => (SHIFT_METRIC_INFO[metric].percent ? pct(v) : Number.isFinite(v) ? v.toFixed(3) : 'n/a');
  for (const group of methodGroups(results)) {
    for (const m of corruptionMethods(results, group)) {
      const parts = shiftVariants(m, suite.posthoc).map((after) => {
        const at = (sev: number) => mean(m.runs.filter((r) => shiftOf(r, after) !== undefined).map((r) => metricAtSeverity(shiftOf(r, after), sev, metric)));
        return `${after === undefined ? 'raw' : `after ${calibratorShort(after)}`} ${shiftValue(at(0))} → ${shiftValue(at(5))}`;
      });
      out.push(`${methodLabel(m)} under corruption (${SHIFT_METRIC_INFO[metric].name} clean → severity 5, mean over the corruption kinds; calibrators fitted on clean validation): ${parts.join('; ')}.`);
    }
  }
  for (const d of differences) out.push(differenceFinding(d));
  for (const v of verdicts) out.push(verdictFinding(v));
  return out;
}

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
  const fg = t.columns.some((c) => c.split === 'foreground') ? ' Segmentation: metrics over the labelled pixels of the test images whose logits the run kept (ignore label excluded); "w/o bg" columns also exclude the background pixels.' : '';
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
  return `${results.diverged.length} run(s) stopped because the training loss became NaN or infinite (${first} in ${results.diverged[0]!.run.id}): ${results.diverged.map((d) => d.run.id).join(', ')}. ` +
    'They are results, not missing runs: a swept value with a diverged seed is no candidate for the choice, an unswept method with one is left out of the tables, and the claims that need them say so.';
}

function settingsLine(results: SuiteResults): string {
  const s = results.record.suite;
  const c = results.runs[0]?.run.config;
  const parts = [`scale ${results.record.scale}`, `${results.record.runs.length} runs (${results.runs.length} finished)`, `seeds ${s.seeds.join(', ')}`];
  if (c) parts.push(`${c.dataset}${c.subset ? ` (subset ${c.subset}${c.validation ? `, validation ${c.validation}` : ''})` : ''}, ${c.model}, ${c.epochs} epochs, batch ${c.batch}, lr ${c.lr}, ${c.schedule}, weight decay ${c.weightDecay}, epoch selected by ${c.select}`);
  parts.push(`ECE with ${s.bins} equal-width bins, convention (l,u] (a confidence on a bin edge belongs to the lower bin)`);
  if (s.posthoc.length) parts.push(`post-hoc: ${s.posthoc.join(', ')} fitted on each run's validation split, applied to its test split`);
  if (s.sweeps.length) parts.push(`swept values chosen by ${selectionRuleText(s.select)}`);
  return parts.join('; ');
}

function markdownTable(t: SuiteTable): string[] {
  const lines = [`| Method | ${t.columns.map((c) => escapeMarkdown(c.label)).join(' | ')} |`, `| --- | ${t.columns.map(() => '---:').join(' | ')} |`];
  for (const r of t.rows) lines.push(`| ${escapeMarkdown(r.label)} | ${r.cells.map((c) => (c.best ? `**${c.text}**` : c.text)).join(' | ')} |`);
  return lines;
}

function renderMarkdown(results: SuiteResults, tables: readonly SuiteTable[], verdicts: readonly Verdict[], figures: readonly ReportFigure[], found: readonly string[], ensembles: readonly EnsembleRow[], shift: ShiftTables): string {
  const s = results.record.suite;
  const lines = [`# Suite ${escapeMarkdown(s.name)}`, ''];
  if (s.description) lines.push(escapeMarkdown(s.description), '');
  lines.push(escapeMarkdown(settingsLine(results)), '');
  if (results.notes?.length) lines.push(`**Settings as the runs recorded them:** ${results.notes.map(escapeMarkdown).join('; ')}.`, '');
  if (results.missing.length) lines.push(`**Partial report:** ${partialText(results)} Not finished: ${results.missing.map(escapeMarkdown).join(', ')}.`, '');
  if (results.diverged.length) lines.push(`**Diverged runs:** ${escapeMarkdown(divergedText(results))}`, '');
  lines.push('## What this suite found', '', ...found.map((f) => `- ${escapeMarkdown(f)}`), '');
  const failed = posthocFailures(results);
  if (failed.length) lines.push(`**Post-hoc fits without a result** (n/a in the tables): ${failed.map(escapeMarkdown).join('; ')}.`, '');
  for (const t of tables) {
    lines.push(`## Results: ${escapeMarkdown(t.group)}`, '', ...markdownTable(t), '');
    lines.push(`Test-set metrics, mean ± ${spreadName(s.spread)} over seeds (n = ${[...new Set(t.rows.map((r) => r.seeds))].join('/')}); best mean per column in bold; T = fitted temperature. ECE: ${s.bins} bins, (l,u].${trainNote(t)}`, '');
  }
  lines.push(...ensembleMarkdown(ensembles));
  lines.push(...claimsMarkdown(results, verdicts));
  for (const [section, title] of FIGURE_SECTIONS) {
    const fs = figures.filter((f) => f.section === section);
    const shiftTables = section === 'ood' ? [...shift.ood, ...shift.severity] : [];
    if (!fs.length && !shiftTables.length) continue;
    lines.push(`## ${title}`, '');
    if (section === 'ood') {
      const notes = shiftTableNotes(results);
      for (const t of shift.ood) lines.push(`### OOD and shift: ${escapeMarkdown(t.group)}`, '', ...markdownTable(t), '', escapeMarkdown(notes.ood), '');
      for (const t of shift.severity) {
        lines.push(`### ${severityHeading(results)}: ${escapeMarkdown(t.group)}`, '', ...markdownTable(t), '', escapeMarkdown(notes.severity), '');
        lines.push(...differenceMarkdown(shift.differences.filter((d) => d.group === t.group)));
      }
    }
    for (const f of fs) lines.push(`![${escapeMarkdown(f.caption)}](report-figures/${f.name}.svg)`, '', `*${escapeMarkdown(f.caption)}*`, '');
  }
  return lines.join('\n');
}

/** A table as HTML (a scrolling wrapper, one row per method, best cells in bold). */
function htmlTable(t: SuiteTable, cls: string): string[] {
  const h = escapeXml;
  const out = [`<div class="table-wrap"><table class="${cls}">`, `<thead><tr><th>Method</th>${t.columns.map((c) => `<th>${h(c.label)}</th>`).join('')}</tr></thead><tbody>`];
  for (const r of t.rows) out.push(`<tr data-method="${h(r.method)}"><th scope="row">${h(r.label)}</th>${r.cells.map((c) => `<td>${c.best ? `<b>${h(c.text)}</b>` : h(c.text)}</td>`).join('')}</tr>`);
  out.push('</tbody></table></div>');
  return out;
}

function renderHtml(results: SuiteResults, tables: readonly SuiteTable[], verdicts: readonly Verdict[], figures: readonly ReportFigure[], found: readonly string[], ensembles: readonly EnsembleRow[], shift: ShiftTables): string {
  const s = results.record.suite;
  const h = escapeXml;
  const parts: string[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Suite ${h(s.name)} — calibkit report</title>`,
    '<style>',
    `body{font-family:${FONT_FAMILY};color:${COLORS.text};max-width:1240px;margin:1.5em auto;padding:0 1.2em;line-height:1.45}`,
    'h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ddd;padding-bottom:.2em}',
    '.settings{color:#555;font-size:.92em}.table-wrap{overflow-x:auto}',
    'table{border-collapse:collapse;margin:.8em 0;font-size:.92em}th,td{padding:4px 9px;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}',
    'thead th{border-bottom:2px solid #333;vertical-align:bottom;white-space:normal}tbody th{text-align:left;font-weight:normal}',
    '.note{color:#666;font-size:.88em}figure{margin:1em 0}figure svg{max-width:100%;height:auto;display:block}',
    'figcaption{color:#555;font-size:.88em;margin-top:.3em;max-width:900px}.charts{display:flex;flex-wrap:wrap;gap:1em}.charts figure{flex:1 1 540px;max-width:620px}',
    CLAIMS_CSS,
    '.warning{background:#fff5e0;border:1px solid #e6c27a;padding:.5em .8em}',
    '</style></head><body>',
    `<h1>Suite ${h(s.name)}</h1>`,
  ];
  if (s.description) parts.push(`<p>${h(s.description)}</p>`);
  parts.push(`<p class="settings">${h(settingsLine(results))}</p>`);
  if (results.notes?.length) parts.push(`<p class="warning">Settings as the runs recorded them: ${h(results.notes.join('; '))}.</p>`);
  if (results.missing.length) parts.push(`<p class="warning"><b>Partial report:</b> ${h(partialText(results))} Not finished: ${h(results.missing.join(', '))}.</p>`);
  if (results.diverged.length) parts.push(`<p class="warning"><b>Diverged runs:</b> ${h(divergedText(results))}</p>`);
  const failedFits = posthocFailures(results);
  if (failedFits.length) parts.push(`<p class="warning">Post-hoc fits without a result (n/a in the tables): ${h(failedFits.join('; '))}.</p>`);
  parts.push('<h2 id="findings">What this suite found</h2>', `<ul class="findings">${found.map((f) => `<li>${h(f)}</li>`).join('')}</ul>`);
  for (const t of tables) {
    parts.push(`<h2>Results: ${h(t.group)}</h2>`, ...htmlTable(t, 'results'));
    parts.push(`<p class="note">Test-set metrics, mean ± ${spreadName(s.spread)} over seeds (n = ${[...new Set(t.rows.map((r) => r.seeds))].join('/')}); best mean per column in bold; T = fitted temperature. ECE and AdaECE: ${s.bins} bins, equal-width bins with convention (l,u] for ECE.${trainNote(t)}</p>`);
  }
  parts.push(...ensembleHtml(ensembles, h));
  parts.push(...claimsHtml(results, verdicts, h));
  for (const [section, title] of FIGURE_SECTIONS) {
    const fs = figures.filter((f) => f.section === section);
    const shiftTables = section === 'ood' ? [...shift.ood, ...shift.severity] : [];
    if (!fs.length && !shiftTables.length) continue;
    parts.push(`<h2 id="${section}">${title}</h2>`);
    if (section === 'ood') {
      const notes = shiftTableNotes(results);
      for (const t of shift.ood) parts.push(`<h3>OOD and shift: ${h(t.group)}</h3>`, ...htmlTable(t, 'ood-table'), `<p class="note">${h(notes.ood)}</p>`);
      for (const t of shift.severity) {
        parts.push(`<h3>${h(severityHeading(results))}: ${h(t.group)}</h3>`, ...htmlTable(t, 'shift-severity'), `<p class="note">${h(notes.severity)}</p>`);
        parts.push(...differenceHtml(shift.differences.filter((d) => d.group === t.group), h));
      }
    }
    const wrap = section !== 'reliability';
    if (wrap) parts.push('<div class="charts">');
    for (const f of fs) parts.push(`<figure id="fig-${h(f.name)}">${f.svg.replace(/^<\?xml[^>]*>\s*/, '').trim()}<figcaption>${h(f.caption)}</figcaption></figure>`);
    if (wrap) parts.push('</div>');
  }
  parts.push('</body></html>', '');
  return parts.join('\n');
}

function renderJson(results: SuiteResults, tables: readonly SuiteTable[], verdicts: readonly Verdict[], found: readonly string[], shift: ShiftTables): Record<string, unknown> {
  const s = results.record.suite;
  const tableJson = (t: SuiteTable) => ({ group: t.group, columns: t.columns, rows: t.rows.map((r) => ({ method: r.method, label: r.label, seeds: r.seeds, cells: r.cells.map((c) => ({ mean: jsonNumber(c.mean), [s.spread]: jsonNumber(c.spread), best: c.best })) })) });
  return {
    suite: s.name,
    scale: results.record.scale,
    calibkit: CALIBKIT_VERSION,
    description: s.description ?? null,
    settings: settingsLine(results),
    bins: s.bins,
    convention: '(l,u]',
    select: s.select,
    findings: found,
    missing: results.missing,
    diverged: results.diverged.map((d) => ({ id: d.run.id, method: d.run.method, sweep: d.run.sweep ?? null, seed: d.run.seed, error: d.error })),
    // Where suite.json disagrees with the runs' own records (the report shows the runs').
    notes: results.notes ?? [],
    runs: results.runs.map((r) => ({
      id: r.run.id,
      method: r.run.method,
      sweep: r.run.sweep ?? null,
      seed: r.run.seed,
      config: r.run.config,
      // What the run's files were computed from (run-identity.ts): its training hash and posthoc.json's identity.
      identity: runIdentityJson(r),
      best_epoch: r.summary['best_epoch'],
      validation: r.posthoc.validation,
      test: r.posthoc.test,
      posthoc: r.posthoc.calibrators,
      posthoc_failures: r.posthoc.failures ?? {},
      ood: r.ood ?? null,
      epochs: r.log.map((e) => ({ epoch: e.epoch, train_loss: e.train_loss, val_accuracy: e.val_accuracy, val_nll: e.val_nll, val_ece: e.val_ece, val_adaece: e.val_adaece })),
    })),
    methods: results.methods.map((m) => ({
      name: m.name,
      label: m.label,
      group: m.group,
      runs: m.runs.map((r) => r.run.id),
      sweep: m.sweep ? { key: m.sweep.key, chosen: m.sweep.chosen, values: m.sweep.values.map((v) => ({ value: v.value, runs: v.runs.map((r) => r.run.id), validation: jsonNumber(v.validation) })) } : null,
    })),
    tables: tables.map(tableJson),
    // The OOD section's tables (raw and per post-hoc calibrator): OOD / shift summary, ECE per corruption severity.
    ood_tables: shift.ood.map(tableJson),
    shift_metric: s.shiftMetric,
    shift_severity_tables: shift.severity.map(tableJson),
    // Each post-hoc calibrator − TS per severity, paired over seeds (95 % t-interval; NaN → null).
    shift_differences: shift.differences,
    ...claimsJson(results, verdicts),
  };
}

/** Write report.md (+ report-figures/), report.html and report.json into the suite directory `dir`. */
export async function writeSuiteReport(dir: string): Promise<WrittenReport> {
  const results = await readSuiteResults(dir);
  if (results.runs.length === 0) invalidArgument('DIR', 'a suite directory with at least one finished run', `none finished in ${dir}`);
  const tables = suiteTables(results);
  const verdicts = await suiteVerdicts(results);
  const regulariser = await regulariserHistograms(results);
  const figures = await suiteFigures(results, regulariser);
  const shift: ShiftTables = { ood: oodTables(results), severity: severityTables(results), differences: shiftDifferences(results) };
  const found = findings(results, verdicts, shift.differences);
  const ensembles = await ensembleRows(results);
  const figDir = join(dir, 'report-figures');
  await mkdir(figDir, { recursive: true });
  for (const f of figures) await atomicWriteFile(join(figDir, `${f.name}.svg`), f.svg);
  const md = join(dir, 'report.md');
  const html = join(dir, 'report.html');
  const json = join(dir, 'report.json');
  await atomicWriteFile(md, renderMarkdown(results, tables, verdicts, figures, found, ensembles, shift) + '\n');
  await atomicWriteFile(html, renderHtml(results, tables, verdicts, figures, found, ensembles, shift));
  await atomicWriteFile(json, `${JSON.stringify({ ...renderJson(results, tables, verdicts, found, shift), ensembles, regulariser_histogram: regulariser }, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2)}\n`);
  return { paths: [md, html, json], summary: found.map((f) => `  ${f}`).join('\n') };
}
