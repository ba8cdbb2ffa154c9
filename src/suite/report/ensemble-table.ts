/**
 * Deep ensembles of a suite's seeds (Lakshminarayanan et al. 2017): for each method with at least two finished
 * runs, the average of its runs' test probabilities, evaluated like one model and set beside the mean of its
 * members. An ensemble of K independently trained networks is the papers' strongest uncertainty baseline.
 */
import { ensembleProbabilities } from '../../metrics/ensemble-average.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { metricHeader } from '../../metrics/record/metric-display.js';
import { metricDefinition } from '../../metrics/record/metric-registry.js';
import { heading, paragraph, type Block } from '../../report/document/document.js';
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
    const avg = ensembleProbabilities(
      preds.map((p) => p.test),
      'logits',
    );
    const e = evaluate(avg, labels, { input: 'probabilities', bins, convention: '(l,u]' });
    const single = Object.fromEntries(METRICS.map((k) => [k, mean(m.runs.map((r) => testMetric(r, k)))])) as Record<EnsembleMetric, number>;
    rows.push({ method: m.name, label: m.label, members: m.runs.length, single, ensemble: { accuracy: e.accuracy, ece: e.ece, nll: e.nll, brier: e.brier } });
  }
  return rows;
}

const cell = (k: EnsembleMetric, v: number): string => (!Number.isFinite(v) ? 'n/a' : metricDefinition(k).percent ? (100 * v).toFixed(2) : v.toFixed(3));
const HEAD = METRICS.map((k) => metricHeader(metricDefinition(k)));
const NOTE = 'Deep ensembles: the average of the seeds\' test probabilities (Lakshminarayanan et al. 2017), evaluated as one model; "members" is the mean of the individual runs.';

/** The section as report blocks (none when there is no ensemble). */
export function ensembleBlocks(rows: readonly EnsembleRow[]): Block[] {
  if (!rows.length) return [];
  return [
    heading(2, 'Ensembles of the seeds', 'ensembles'),
    {
      kind: 'table',
      className: 'ensembles',
      columns: ['Method', 'K', ...HEAD.map((h) => `${h} members → ensemble`)],
      rows: rows.map((r) => ({
        header: r.label,
        attributes: { 'data-method': r.method },
        cells: [{ text: String(r.members) }, ...METRICS.map((k) => ({ text: `${cell(k, r.single[k])} → ${cell(k, r.ensemble[k])}` }))],
      })),
    },
    paragraph(NOTE, 'note'),
  ];
}
