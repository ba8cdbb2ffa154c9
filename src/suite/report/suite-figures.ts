/**
 * The figures of a suite report, as SVG documents: reliability diagrams per method as small multiples in rows of at
 * most six (before, and after each post-hoc calibrator: one figure each, same bins), metric-versus-hyper-parameter
 * curves with error bars (± std over seeds) per sweep, validation ECE and accuracy per epoch per method (mean over
 * seeds), the accuracy–confidence joint density per epoch (density-figure.ts), where the suite evaluated OOD / shift
 * the AUROC, the in-vs-out confidence histograms and ECE (or the suite's `shiftMetric`) against corruption severity
 * (raw and after each calibrator), and the per-sample regulariser histogram where the suite asks for one
 * (regulariser-histogram.ts).
 */
import { CalibrationAccumulator } from '../../metrics/accumulators/calibration-accumulator.js';
import type { ReliabilityData } from '../../metrics/binned/reliability-types.js';
import { calibratorFromJSON } from '../../posthoc/registry.js';
import { barChartSvg, lineChartSvg, type LineSeries } from '../../report/line-chart.js';
import { smallMultiplesSvg } from '../../report/small-multiples.js';
import { readRunPredictions } from '../posthoc-step.js';
import { mean, spreadName, spreadOf, type Spread } from './statistics.js';
import { densityFigureSvg } from './density-figure.js';
import type { RegulariserHistogramData } from './regulariser-histogram.js';
import type { ShiftMetricKey } from '../../train/evaluation/shift-metrics.js';
import { corruptionMethods, metricAtSeverity, SHIFT_METRIC_INFO, SHIFT_SEVERITIES, shiftMetricLabel, shiftOf, shiftVariants } from './shift-tables.js';
import { selectionRuleText } from './sweep-selection.js';
import { calibratorShort } from './suite-table.js';
import { methodGroups, testMetric, type MethodResults, type RunResult, type SuiteResults } from './suite-results.js';

export interface ReportFigure {
  /** File-name stem (report-figures/<name>.svg) and HTML id. */
  readonly name: string;
  readonly caption: string;
  readonly svg: string;
  /** Which section it belongs to. */
  readonly section: 'reliability' | 'sweeps' | 'epochs' | 'density' | 'ood' | 'regulariser';
}

/** Reliability data of a method's first-seed run (with the calibrator fitted), before (`after` undefined) or after a calibrator; null when no run has it. */
async function reliabilityOf(m: MethodResults, bins: number, after?: string): Promise<ReliabilityData | null> {
  const r = [...m.runs].sort((a, b) => a.run.seed - b.run.seed).find((x) => after === undefined || x.posthoc.calibrators[after] !== undefined);
  if (!r) return null;
  const p = await readRunPredictions(r.dir);
  const acc = new CalibrationAccumulator({ input: after === undefined ? 'logits' : 'probabilities', bins, convention: '(l,u]', classes: p.test.cols });
  if (after === undefined) acc.update(p.test, p.testLabels);
  else acc.update(calibratorFromJSON(r.posthoc.calibrators[after]!.calibrator).apply({ logits: p.test }), p.testLabels);
  return acc.reliability();
}

export { MAX_PANELS_PER_ROW, smallMultiplesSvg } from '../../report/small-multiples.js';

/** The figures; `histograms`: the suite's regulariser histograms (regulariser-histogram.ts; null: none asked for). */
export async function suiteFigures(results: SuiteResults, histograms: RegulariserHistogramData | null): Promise<ReportFigure[]> {
  const suite = results.record.suite;
  const figures: ReportFigure[] = [];
  const groups = methodGroups(results);
  for (const [gi, group] of groups.entries()) {
    const methods = results.methods.filter((m) => m.group === group);
    const suffix = groups.length > 1 ? `-${gi + 1}` : '';
    const rows: { after?: string; title: string }[] = [{ title: `Before post-hoc calibration (test set, ${suite.bins} bins (l,u])` }];
    for (const kind of suite.posthoc) rows.push({ after: kind, title: `After ${calibratorShort(kind)} fitted on validation (test set)` });
    for (const [ri, row] of rows.entries()) {
      const panels = [];
      for (const m of methods) {
        const data = await reliabilityOf(m, suite.bins, row.after);
        if (data) panels.push({ title: m.label, data });
      }
      if (!panels.length) continue;
      const name = `reliability-${row.after ?? 'before'}${suffix}`;
      figures.push({
        name,
        section: 'reliability',
        caption: `${group}: ${row.title}. Blue bars: accuracy per confidence bin; red hatching: the gap to the bin's mean confidence; counts above; ECE in each title. First seed of each method.`,
        svg: smallMultiplesSvg(panels, `${group} — ${row.title}`, `rel${gi}-${ri}`),
      });
    }
    // Validation ECE and accuracy per epoch (mean over seeds).
    for (const [key, label, inCaption] of [
      ['val_ece', 'Validation ECE (%)', 'validation ECE (%)'],
      ['val_accuracy', 'Validation accuracy (%)', 'validation accuracy (%)'],
    ] as const) {
      const series: LineSeries[] = methods
        .map((m) => {
          const epochs = Math.max(...m.runs.map((r) => r.log.length));
          const points = [];
          for (let e = 0; e < epochs; e++) {
            const v = m.runs.map((r) => r.log[e]?.[key]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
            if (v.length) points.push({ x: e + 1, y: mean(v) * 100 });
          }
          return { name: m.label, points };
        })
        .filter((s) => s.points.length > 0);
      if (series.length)
        figures.push({
          name: `epochs-${key}${suffix}`,
          section: 'epochs',
          caption: `${group}: ${inCaption} after every epoch, per method (mean over seeds).`,
          svg: lineChartSvg(series, { title: `${label} per epoch — ${group}`, xLabel: 'Epoch', yLabel: label, width: 600, height: 340 }),
        });
    }
    // Sweeps: test metrics against the swept value, ± std (or SEM) over seeds.
    for (const m of methods.filter((x) => x.sweep)) {
      const sw = m.sweep!;
      const numeric = sw.values.every((v) => typeof v.value === 'number');
      if (!numeric) continue;
      for (const [metric, label, isPct] of [
        ['ece', 'Test ECE (%)', true],
        ['accuracy', 'Test accuracy (%)', true],
        ['nll', 'Test NLL', false],
      ] as const) {
        const series: LineSeries[] = [{ name: `${m.label}`, points: sweepPoints(sw.values, (r) => testMetric(r, metric), isPct, suite.spread) }];
        for (const kind of suite.posthoc) series.push({ name: `${m.label} after ${calibratorShort(kind)}`, points: sweepPoints(sw.values, (r) => testMetric(r, metric, kind), isPct, suite.spread) });
        if (series.every((x) => x.points.length === 0)) continue;
        figures.push({
          name: `sweep-${m.name}-${metric}${suffix}`,
          section: 'sweeps',
          caption: `${m.label}: ${label} against ${sw.label} (mean ± ${spreadName(suite.spread)} over ${Math.max(...sw.values.map((v) => v.runs.length))} seed(s)); chosen by ${selectionRuleText(suite.select)}: ${sw.label} = ${String(sw.chosen)}.`,
          svg: lineChartSvg(series, { title: `${m.label}: ${label} vs ${sw.label}`, xLabel: sw.label, yLabel: label, width: 600, height: 340 }),
        });
      }
    }
    // Accuracy–confidence joint density per epoch (runs with epochLogits).
    const density = await densityFigureSvg(methods, group);
    if (density)
      figures.push({
        name: `density${suffix}`,
        section: 'density',
        caption: `${group}: each panel is the density of (mean confidence, accuracy) over 300 random groups of 100 validation samples after that epoch (Thulasidasan et al. 2019, Fig. 1); the dashed diagonal is perfect calibration, density below it is overconfidence. First seed of each method.`,
        svg: density,
      });
    // OOD AUROC.
    const ood = methods.flatMap((m) => {
      const withOod = m.runs.filter((r) => r.ood);
      if (!withOod.length) return [];
      const bars = [];
      const noise = withOod.map((r) => (r.ood!['noise'] as { auroc?: number } | null)?.auroc).filter((v): v is number => typeof v === 'number');
      if (noise.length) bars.push({ label: `${m.label} · noise`, value: mean(noise), group: 'noise' });
      const other = withOod.map((r) => r.ood!['ood_dataset'] as { auroc?: number; dataset?: string } | null).filter((v) => v && typeof v.auroc === 'number');
      if (other.length) bars.push({ label: `${m.label} · ${other[0]!.dataset}`, value: mean(other.map((v) => v!.auroc!)), group: 'dataset' });
      return bars;
    });
    if (ood.length)
      figures.push({
        name: `ood-auroc${suffix}`,
        section: 'ood',
        caption: `${group}: OOD detection AUROC of the maximum softmax probability (in-distribution test set vs Gaussian noise and a second dataset; mean over seeds).`,
        svg: barChartSvg(ood, { title: `OOD AUROC — ${group}`, xLabel: 'AUROC', max: 1, width: 600 }),
      });
    // The suite's shiftMetric (default ECE) against corruption severity, raw and after each calibrator (fitted on
    // clean validation), per method.
    const shiftMetric = suite.shiftMetric;
    const shiftLabel = shiftMetricLabel(shiftMetric);
    for (const m of corruptionMethods(results, group)) {
      const series = severitySeries(m, suite.posthoc, suite.spread, shiftMetric);
      if (!series.length) continue;
      const seeds = m.runs.filter((r) => shiftOf(r) !== undefined).length;
      const stem = shiftMetric === 'ece' ? 'shift-ece' : `shift-${shiftMetric.replace(/_/g, '-')}`;
      figures.push({
        name: `${stem}-${m.name}${suffix}`,
        section: 'ood',
        caption: `${m.label}: test ${shiftLabel} against corruption severity (0 = clean test images; 1–5 = mean over the corruption kinds at that severity), the trained model and after each post-hoc calibrator fitted on the clean validation split; mean ± ${spreadName(suite.spread)} over ${seeds} seed(s).`,
        svg: lineChartSvg(series, {
          title: `${m.label}: ${SHIFT_METRIC_INFO[shiftMetric].name} vs corruption severity — ${group}`,
          xLabel: 'Corruption severity (0 = clean)',
          yLabel: `Test ${shiftLabel}`,
          width: 600,
          height: 340,
        }),
      });
    }
    // In-vs-out confidence histograms, one figure per method (counts summed over its seeds).
    for (const m of methods) {
      const series = confidenceHistogramSeries(m.runs);
      if (series.length < 2) continue;
      figures.push({
        name: `ood-confidence-${m.name}${suffix}`,
        section: 'ood',
        caption: `${m.label}: the share of samples per confidence (max softmax) bin, in distribution (test set) and out of distribution, summed over seeds; a model that separates them puts the OOD mass at low confidence.`,
        svg: lineChartSvg(series, { title: `${m.label}: confidence in vs out — ${group}`, xLabel: 'Confidence (bin centre)', yLabel: 'Samples (%)', width: 600, height: 300 }),
      });
    }
    // Per-sample regulariser histogram (ACLS Fig. 3), one curve per method.
    const inGroup = histograms?.methods.filter((h) => h.group === group) ?? [];
    if (histograms && inGroup.length) {
      const h = histograms;
      const what = h.quantity === 'regulariser' ? `${h.loss} regulariser` : h.quantity === 'loss' ? `${h.loss} loss` : `${h.loss} term '${h.quantity}'`;
      const opts = Object.entries(h.options)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ');
      figures.push({
        name: `regulariser-histogram${suffix}`,
        section: 'regulariser',
        caption: `${group}: the ${what}${opts ? ` (${opts})` : ''} per sample, evaluated on each method's test logits, pooled over seeds: % of samples per bin (${h.bins} bins over [${fmtValue(h.min)}, ${fmtValue(h.max)}], values outside counted in the end bins; ACLS paper Fig. 3). In the legend: the share of samples where it is exactly 0 (inactive).`,
        svg: regulariserHistogramSvg(h, inGroup, `Per-sample ${what} (test) — ${group}`),
      });
    }
  }
  return figures;
}

function fmtValue(v: number): string {
  return Number(v.toPrecision(4)).toString();
}

/** One curve per method: % of its samples per bin centre, named with its inactive share. */
function regulariserHistogramSvg(h: RegulariserHistogramData, methods: RegulariserHistogramData['methods'], title: string): string {
  const width = (h.max - h.min) / h.bins;
  const series: LineSeries[] = methods.map((m) => ({
    name: `${m.label} (${(100 * m.inactive).toFixed(1)}% at 0)`,
    points: m.counts.map((c, i) => ({ x: h.min + (i + 0.5) * width, y: (100 * c) / Math.max(m.samples, 1) })),
  }));
  return lineChartSvg(series, {
    title,
    xLabel: `${h.quantity === 'regulariser' ? `${h.loss} regulariser` : h.quantity} (bin centre)`,
    yLabel: 'Samples (%)',
    width: 720,
    height: 360,
    xFormat: fmtValue,
  });
}

/**
 * The in-distribution, noise and OOD-dataset confidence histograms of ood.json's `confidence_histogram`, summed over
 * `runs` and shown as % of samples per bin centre (runs without the histogram, e.g. written before it existed, are
 * skipped).
 */
export function confidenceHistogramSeries(runs: readonly RunResult[]): LineSeries[] {
  type Histogram = { bins: number; in_distribution: number[]; noise: number[] | null; ood_dataset: number[] | null };
  const histograms = runs.map((r) => r.ood?.['confidence_histogram'] as Histogram | undefined).filter((h): h is Histogram => h !== undefined && Array.isArray(h.in_distribution));
  if (histograms.length === 0) return [];
  const bins = histograms[0]!.bins;
  const dataset = (runs.find((r) => r.ood?.['ood_dataset'])?.ood?.['ood_dataset'] as { dataset?: string } | undefined)?.dataset ?? 'OOD dataset';
  const series: LineSeries[] = [];
  for (const [key, name] of [
    ['in_distribution', 'in distribution (test)'],
    ['noise', 'Gaussian noise'],
    ['ood_dataset', dataset],
  ] as const) {
    const parts = histograms.map((h) => h[key]).filter((c): c is number[] => Array.isArray(c) && c.length === bins);
    if (parts.length === 0) continue;
    const counts = parts.reduce((sum, c) => sum.map((v, i) => v + c[i]!), new Array<number>(bins).fill(0));
    const total = counts.reduce((a, b) => a + b, 0);
    if (total === 0) continue;
    series.push({ name, points: counts.map((c, i) => ({ x: (i + 0.5) / bins, y: (100 * c) / total })) });
  }
  return series;
}

/**
 * The points of one sweep curve: at each swept value, the statistic over the seeds that have the metric (a run
 * whose post-hoc fit failed has none, so it is left out rather than turning the mean into NaN); a value no seed has
 * is not drawn. (The table marks such cells n/a.)
 */
export function sweepPoints(
  values: readonly { readonly value: unknown; readonly runs: readonly RunResult[] }[],
  metricOf: (r: RunResult) => number,
  isPct: boolean,
  spread: Spread,
): { x: number; y: number; err?: number }[] {
  return values.flatMap((v) => {
    const finite = v.runs.map(metricOf).filter((x) => Number.isFinite(x));
    return finite.length === 0 ? [] : [{ x: v.value as number, ...stat(finite, isPct, spread) }];
  });
}

function stat(values: readonly number[], isPct: boolean, spread: Spread): { y: number; err?: number } {
  const k = isPct ? 100 : 1;
  const s = spreadOf(values, spread);
  return { y: mean(values) * k, ...(Number.isFinite(s) ? { err: s * k } : {}) };
}

/**
 * The lines of method `m`'s metric-vs-severity figure: the raw model and each calibrator, `metric` (the suite's shiftMetric; in %
 * where it is a rate) ± spread over seeds.
 */
function severitySeries(m: MethodResults, posthoc: readonly string[], spread: Spread, metric: ShiftMetricKey): LineSeries[] {
  const isPct = SHIFT_METRIC_INFO[metric].percent;
  return shiftVariants(m, posthoc)
    .map((after) => {
      const runs = m.runs.filter((r) => shiftOf(r, after) !== undefined);
      const points = SHIFT_SEVERITIES.flatMap((s) => sweepPoints([{ value: s, runs }], (r) => metricAtSeverity(shiftOf(r, after), s, metric), isPct, spread));
      return { name: after === undefined ? `${m.label} (raw)` : `${m.label} + ${calibratorShort(after)}`, points };
    })
    .filter((s) => s.points.length > 0);
}
