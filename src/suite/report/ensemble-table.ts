/**
 * Deep ensembles of a suite's seeds (Lakshminarayanan et al. 2017): for each method with at least two finished
 * runs, the average of its runs' test probabilities, evaluated like one model and set beside the mean of its
 * members. An ensemble of K independently trained networks is the papers' strongest uncertainty baseline.
 */
import { ensembleProbabilities } from '../../metrics/ensemble-average.js';
import { evaluate } from '../../metrics/evaluate.js';
import { metricHeader } from '../../metrics/metric-display.js';
import { metricDefinition } from '../../metrics/metric-registry.js';
import { escapeMarkdown } from '../../report/markdown.js';
import { readRunPredictions } from '../posthoc-step.js';
import { mean } from './statistics.js';
import { testMetric, type SuiteResults } from './suite-results.js';

const METRICS = ['accuracy', 'ece', 'nll', 'brier'] as const;
type EnsembleMetric = (typeof METRICS)[number];

/** One method's ensemble: K members, the members' mean metrics and the ensemble's. */
export interface EnsembleRow {
  readonly method: string;
  readonly label: string;
  readonly members: number;
  readonly single: Record<EnsembleMetric, number>;
  readonly ensemble: Record<EnsembleMetric, number>;
}

/** Ensembles of every method with ≥ 2 runs evaluated on the same test samples. */
export async function ensembleRows(results: SuiteResults): Promise<EnsembleRow[]> {
  const rows: EnsembleRow[] = [];
  const bins = results.record.suite.bins;
  for (const m of results.methods) {
    if (m.runs.length < 2) continue;
    const preds = await Promise.all(m.runs.map((r) => readRunPredictions(r.dir)));
    const labels = preds[0]!.testLabels;
    if (preds.some((p) => p.testLabels.length !== labels.length || p.testLabels.some((y, i) => y !== labels[i]))) continue;
    const avg = ensembleProbabilities(preds.map((p) => p.test), 'logits');
    const e = evaluate(avg, labels, { input: 'probabilities', bins, convention: '(l,u]' });
    const single = Object.fromEntries(METRICS.map((k) => [k, mean(m.runs.map((r) => testMetric(r, k)))])) as Record<EnsembleMetric, number>;
    rows.push({ method: m.name, label: m.label, members: m.runs.length, single, ensemble: { accuracy: e.accuracy, ece: e.ece, nll: e.nll, brier: e.brier } });
  }
  return rows;
}

const cell = (k: EnsembleMetric, v: number): string => (!Number.isFinite(v) ? 'n/a' : metricDefinition(k).percent ? (100 * v).toFixed(2) : v.toFixed(3));
const HEAD = METRICS.map((k) => metricHeader(metricDefinition(k)));
const NOTE = 'Deep ensembles: the average of the seeds\' test probabilities (Lakshminarayanan et al. 2017), evaluated as one model; "members" is the mean of the individual runs.';

/** The section in Markdown (empty when there is no ensemble). */
export function ensembleMarkdown(rows: readonly EnsembleRow[]): string[] {
  if (!rows.length) return [];
  const lines = ['## Ensembles of the seeds', '', `| Method | K | ${HEAD.map((h) => `${h} members → ensemble`).join(' | ')} |`, `| --- | ---: | ${HEAD.map(() => '---:').join(' | ')} |`];
  for (const r of rows) lines.push(`| ${escapeMarkdown(r.label)} | ${r.members} | ${METRICS.map((k) => `${cell(k, r.single[k])} → ${cell(k, r.ensemble[k])}`).join(' | ')} |`);
  lines.push('', NOTE, '');
  return lines;
}

/** The section in HTML (`h` escapes text); empty when there is no ensemble. */
export function ensembleHtml(rows: readonly EnsembleRow[], h: (s: string) => string): string[] {
  if (!rows.length) return [];
  const parts = ['<h2 id="ensembles">Ensembles of the seeds</h2>', '<div class="table-wrap"><table class="ensembles">'];
  parts.push(`<thead><tr><th>Method</th><th>K</th>${HEAD.map((x) => `<th>${h(x)} members → ensemble</th>`).join('')}</tr></thead><tbody>`);
  for (const r of rows) parts.push(`<tr data-method="${h(r.method)}"><th scope="row">${h(r.label)}</th><td>${r.members}</td>${METRICS.map((k) => `<td>${cell(k, r.single[k])} → ${cell(k, r.ensemble[k])}</td>`).join('')}</tr>`);
  parts.push('</tbody></table></div>', `<p class="note">${h(NOTE)}</p>`);
  return parts;
}
