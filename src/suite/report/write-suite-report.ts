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
import { renderHtml } from '../../report/document/render-html.js';
import { renderJson } from '../../report/document/render-json.js';
import { renderMarkdown } from '../../report/document/render-markdown.js';
import { jsonNumber } from '../../report/metrics-json.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { invalidArgument } from '../../util/errors.js';
import { mean } from './statistics.js';
import { suiteFigures } from './suite-figures.js';
import { regulariserHistograms } from './regulariser-histogram.js';
import { methodGroups, readSuiteResults, testMetric, type MethodResults, type SuiteResults } from './suite-results.js';
import { differenceFinding, shiftDifferences, type ShiftDifferenceRow } from './shift-differences.js';
import { corruptionMethods, metricAtSeverity, oodTables, SHIFT_METRIC_INFO, severityTables, shiftOf, shiftVariants } from './shift-tables.js';
import { calibratorShort, fittedTemperature, methodLabel, suiteTables, type SuiteTable } from './suite-table.js';
import { ensembleRows } from './ensemble-table.js';
import { selectionRuleText } from './sweep-selection.js';
import { suiteVerdicts, type Verdict } from './verdicts.js';
import { CALIBKIT_VERSION } from '../../util/version.js';
import { runIdentityJson } from './run-records.js';
import { claimsJson, verdictFinding } from './claims-section.js';
import { settingsLine, suiteDocument, type ShiftTables } from './suite-document.js';
import { computeJson, measureSuite } from '../estimate/suite-measured.js';

export interface WrittenReport {
  readonly paths: readonly string[];
  /** One-paragraph summary (the findings), for the terminal. */
  readonly summary: string;
}

const pct = (v: number, d = 2): string => (Number.isFinite(v) ? `${(v * 100).toFixed(d)}%` : 'n/a');

/** " at margin M = 6 (chosen from 2, 4, 6, 10, 15 by lowest mean validation NLL)" for a swept method; empty otherwise. */
export function sweepChoice(m: Pick<MethodResults, 'sweep'>, rule: SuiteResults['record']['suite']['select']): string {
  if (!m.sweep) return '';
  // A grid trimmed to one value (e.g. the deep scale's) chose nothing: say so instead of "chosen from 1 by …".
  if (m.sweep.values.length === 1 && m.sweep.diverged.length === 0) return ` at ${m.sweep.label} = ${String(m.sweep.chosen)} (the only value run)`;
  return ` at ${m.sweep.label} = ${String(m.sweep.chosen)} (chosen from ${m.sweep.values.map((v) => String(v.value)).join(', ')} by ${selectionRuleText(rule)})`;
}

/** What a fitted temperature says, as the findings print it (to 2 decimals: a T that prints as 1.00 changes nothing visible). */
export function temperatureReading(t: number): string {
  if (t.toFixed(2) === '1.00') return 'T ≈ 1: temperature scaling leaves the model almost unchanged';
  return t > 1 ? 'softening: the model was overconfident' : 'sharpening: the model was underconfident';
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
      ? ` Temperature scaling fitted T = ${t.toFixed(2)} on validation (${temperatureReading(t)}) and moved test ECE to ${pct(mean(m.runs.map((r) => testMetric(r, 'ece', 'temperature'))))}.`
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
      out.push(
        `${methodLabel(m)} under corruption (${SHIFT_METRIC_INFO[metric].name} clean → severity 5, mean over the corruption kinds; calibrators fitted on clean validation): ${parts.join('; ')}.`,
      );
    }
  }
  for (const d of differences) out.push(differenceFinding(d));
  for (const v of verdicts) out.push(verdictFinding(v));
  return out;
}

/** report.json: the data behind the report (every run's settings and metrics, the tables, the verdicts). */
function reportJson(results: SuiteResults, tables: readonly SuiteTable[], verdicts: readonly Verdict[], found: readonly string[], shift: ShiftTables): Record<string, unknown> {
  const s = results.record.suite;
  const tableJson = (t: SuiteTable) => ({
    group: t.group,
    columns: t.columns,
    rows: t.rows.map((r) => ({ method: r.method, label: r.label, seeds: r.seeds, cells: r.cells.map((c) => ({ mean: jsonNumber(c.mean), [s.spread]: jsonNumber(c.spread), best: c.best })) })),
  });
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
      sweep: m.sweep
        ? { key: m.sweep.key, chosen: m.sweep.chosen, values: m.sweep.values.map((v) => ({ value: v.value, runs: v.runs.map((r) => r.run.id), validation: jsonNumber(v.validation) })) }
        : null,
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

/**
 * Write report.md (+ report-figures/), report.html and report.json into the suite directory `dir`; `jobs` (runs side
 * by side) is used for the Compute paragraph's machine-hours when the directory's sessions.json does not record it.
 */
export async function writeSuiteReport(dir: string, jobs?: number): Promise<WrittenReport> {
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
  const compute = await measureSuite(dir, results.record.runs, jobs);
  const data = { ...reportJson(results, tables, verdicts, found, shift), compute: computeJson(compute), ensembles, regulariser_histogram: regulariser };
  const doc = suiteDocument({ results, tables, verdicts, figures, findings: found, ensembles, shift, data, compute });
  await atomicWriteFile(md, renderMarkdown(doc) + '\n');
  await atomicWriteFile(html, renderHtml(doc));
  await atomicWriteFile(json, renderJson(doc));
  return { paths: [md, html, json], summary: found.map((f) => `  ${f}`).join('\n') };
}
