/**
 * The OOD / dataset-shift part of a suite report, raw and after each post-hoc calibrator (the calibrator fitted on the
 * clean validation split, applied to the shift sets: posthoc.json's `calibrators[kind].shift`, the same shape as
 * ood.json):
 *
 * - the OOD table: per method, then per method + calibrator, the AUROC and mean confidence on Gaussian noise and on
 *   the second dataset, the clean (test subset) ECE and the accuracy and ECE under corruption (mean over every
 *   corruption × severity);
 * - a metric against corruption severity (Karandikar et al. 2021, Fig. 2 on CIFAR-10-C; Ovadia et al. 2019): at
 *   severity s = 1…5 the mean of the suite's `shiftMetric` (default ECE) over the corruption kinds, at s = 0 the clean
 *   test subset's; one table row and one figure line per calibrator, mean ± std (or SEM) over seeds.
 */
import { metricShortName } from '../../metrics/record/metric-display.js';
import { metricDefinition, type MetricName } from '../../metrics/record/metric-registry.js';
import { SHIFT_METRIC_KEYS, type ShiftMetricKey, type ShiftMetrics, type ShiftReport } from '../../train/evaluation/shift-metrics.js';
import { mean } from './statistics.js';
import { methodGroups, type MethodResults, type RunResult, type SuiteResults } from './suite-results.js';
import { buildTable, calibratorShort, methodLabel, type SuiteTable, type TableColumn } from './suite-table.js';

/** Severities of the ECE-vs-severity table and figure (0 = the clean test subset). */
export const SHIFT_SEVERITIES = [0, 1, 2, 3, 4, 5] as const;

/** The shift report of a run: the model's own (ood.json) or after post-hoc calibrator `after` (posthoc.json). */
export function shiftOf(r: RunResult, after?: string): ShiftReport | undefined {
  const report = after === undefined ? r.ood : r.posthoc.calibrators[after]?.shift;
  return report && typeof report === 'object' && 'in_distribution' in report ? (report as unknown as ShiftReport) : undefined;
}

/**
 * How the report names each plottable shift metric, whether it shows as %, and which direction is better — read from
 * the metric record (metrics/record/metric-definition.ts: short name, percent, better).
 */
export const SHIFT_METRIC_INFO: Readonly<Record<ShiftMetricKey, { readonly name: string; readonly percent: boolean; readonly better: 'lower' | 'higher' }>> = Object.freeze(
  Object.fromEntries(
    SHIFT_METRIC_KEYS.map((key) => {
      const definition = metricDefinition(key);
      if (definition.better === 'none') throw new Error(`shift metric ${key} has no better direction in the metric record`);
      return [key, { name: metricShortName(definition), percent: definition.percent, better: definition.better }];
    }),
  ) as Record<ShiftMetricKey, { name: string; percent: boolean; better: 'lower' | 'higher' }>,
);

/** A column's percent flag and better direction (absent for 'none'), from the metric record. */
function traitsOf(metric: MetricName): { readonly percent: boolean; readonly better?: 'lower' | 'higher' } {
  const { percent, better } = metricDefinition(metric);
  return better === 'none' ? { percent } : { percent, better };
}

/** The metric's name with its unit, for axis labels: "ECE ℓ2 equal-mass (%)", "NLL". */
export function shiftMetricLabel(metric: ShiftMetricKey): string {
  const info = SHIFT_METRIC_INFO[metric];
  return info.percent ? `${info.name} (%)` : info.name;
}

/** A number of a report's set, NaN where the key is missing (files written before it existed) or not a number. */
function numberOf(v: unknown): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/** Mean `metric` over the corruptions of `report` at `severity` (all severities when undefined); NaN without any. */
export function corruptionMean(report: ShiftReport | undefined, metric: Exclude<keyof ShiftMetrics, 'n'>, severity?: number): number {
  const at = (report?.corruptions ?? []).filter((c) => severity === undefined || c.severity === severity);
  return mean(at.map((c) => numberOf(c[metric])));
}

/** `metric` at corruption severity `s` (0: the clean test subset's, else the mean over the corruption kinds). */
export function metricAtSeverity(report: ShiftReport | undefined, s: number, metric: ShiftMetricKey): number {
  if (s === 0) return numberOf(report?.in_distribution?.[metric]);
  return corruptionMean(report, metric, s);
}

/** "raw" (undefined) and each post-hoc calibrator some run of `m` has shift results for. */
export function shiftVariants(m: MethodResults, posthoc: readonly string[]): (string | undefined)[] {
  return [undefined, ...posthoc.filter((k) => m.runs.some((r) => shiftOf(r, k) !== undefined))];
}

/**
 * The rows of method `m` in a shift table: raw, then one per calibrator with shift results (shiftVariants); each
 * holds, per column, `valueOf` of the shift report of every run that has one.
 */
function variantRows(m: MethodResults, posthoc: readonly string[], columns: number, valueOf: (s: ShiftReport | undefined, column: number) => number) {
  return shiftVariants(m, posthoc).map((after) => {
    const have = m.runs.filter((r) => shiftOf(r, after) !== undefined);
    const label = after === undefined ? methodLabel(m) : `${methodLabel(m)} + ${calibratorShort(after)}`;
    return {
      method: after === undefined ? m.name : `${m.name}+${after}`,
      label,
      seeds: have.length,
      values: Array.from({ length: columns }, (_, j) => have.map((r) => valueOf(shiftOf(r, after), j))),
    };
  });
}

/** Methods of `group` whose runs have OOD results (ood.json). */
function oodMethods(results: SuiteResults, group: string): MethodResults[] {
  return results.methods.filter((m) => m.group === group && m.runs.some((r) => shiftOf(r) !== undefined));
}

/**
 * One OOD table per "dataset · model" group with OOD results: a row per method, then one per method + calibrator.
 * Columns present only where some run has them (noise, a second dataset, corruptions).
 */
export function oodTables(results: SuiteResults): SuiteTable[] {
  const suite = results.record.suite;
  const tables: SuiteTable[] = [];
  for (const group of methodGroups(results)) {
    const methods = oodMethods(results, group);
    if (!methods.length) continue;
    const runs = methods.flatMap((m) => m.runs);
    const dataset = runs.map((r) => shiftOf(r)?.ood_dataset?.dataset).find((d) => d !== undefined);
    type Column = TableColumn & { readonly of: (s: ShiftReport | undefined) => number };
    const columns: Column[] = [];
    if (runs.some((r) => shiftOf(r)?.noise)) {
      columns.push({ key: 'noise:auroc', label: 'Noise AUROC', metric: 'auroc', percent: false, better: 'higher', of: (s) => numberOf(s?.noise?.auroc) });
      columns.push({ key: 'noise:mean_confidence', label: 'Noise mean conf. (%)', metric: 'mean_confidence', ...traitsOf('mean_confidence'), of: (s) => numberOf(s?.noise?.mean_confidence) });
    }
    if (dataset !== undefined) {
      columns.push({ key: 'ood_dataset:auroc', label: `${dataset} AUROC`, metric: 'auroc', percent: false, better: 'higher', of: (s) => numberOf(s?.ood_dataset?.auroc) });
      columns.push({
        key: 'ood_dataset:mean_confidence',
        label: `${dataset} mean conf. (%)`,
        metric: 'mean_confidence',
        ...traitsOf('mean_confidence'),
        of: (s) => numberOf(s?.ood_dataset?.mean_confidence),
      });
    }
    columns.push({ key: 'in_distribution:ece', label: 'Clean ECE, OOD test rows (%)', metric: 'ece', ...traitsOf('ece'), of: (s) => numberOf(s?.in_distribution?.ece) });
    if (runs.some((r) => (shiftOf(r)?.corruptions.length ?? 0) > 0)) {
      columns.push({ key: 'corruptions:accuracy', label: 'Corrupted acc. (%)', metric: 'accuracy', ...traitsOf('accuracy'), of: (s) => corruptionMean(s, 'accuracy') });
      columns.push({ key: 'corruptions:ece', label: 'Corrupted ECE (%)', metric: 'ece', ...traitsOf('ece'), of: (s) => corruptionMean(s, 'ece') });
    }
    const rows = methods.flatMap((m) => variantRows(m, suite.posthoc, columns.length, (s, j) => columns[j]!.of(s)));
    tables.push(
      buildTable(
        group,
        columns.map(({ of: _of, ...c }) => c),
        rows,
        suite.spread,
      ),
    );
  }
  return tables;
}

/** Methods of `group` whose runs have corruption results. */
export function corruptionMethods(results: SuiteResults, group: string): MethodResults[] {
  return oodMethods(results, group).filter((m) => m.runs.some((r) => (shiftOf(r)?.corruptions.length ?? 0) > 0));
}

/**
 * One metric-vs-severity table per group with corruption results (the suite's `shiftMetric`): rows method
 * (+ calibrator), columns severity 0–5 ("Clean ECE (%)", "ECE severity 1 (%)", …).
 */
export function severityTables(results: SuiteResults): SuiteTable[] {
  const suite = results.record.suite;
  const metric = suite.shiftMetric;
  const { name, percent, better } = SHIFT_METRIC_INFO[metric];
  const unit = percent ? ' (%)' : '';
  const columns: TableColumn[] = SHIFT_SEVERITIES.map((s) => ({ key: `${metric}@severity${s}`, label: s === 0 ? `Clean ${name}${unit}` : `${name} severity ${s}${unit}`, metric, percent, better }));
  const tables: SuiteTable[] = [];
  for (const group of methodGroups(results)) {
    const methods = corruptionMethods(results, group);
    if (!methods.length) continue;
    const rows = methods.flatMap((m) => variantRows(m, suite.posthoc, SHIFT_SEVERITIES.length, (s, j) => metricAtSeverity(s, SHIFT_SEVERITIES[j]!, metric)));
    tables.push(buildTable(group, columns, rows, suite.spread));
  }
  return tables;
}

const count = (n: number): string => n.toLocaleString('en-US');
const listOf = (values: ReadonlySet<number>): string =>
  [...values]
    .sort((a, b) => a - b)
    .map(count)
    .join(' / ');

/**
 * Why the OOD section's clean ECE differs from the results table's ECE of the same model, read from the runs' files:
 * ood.json evaluates the test rows the OOD evaluation drew (`oodSubset`: a seeded sample; in_distribution.n) with the
 * training run's bins (settings.bins), the results table all test rows (posthoc.json's test n) with the suite's bins.
 * Empty when no run has OOD results; says the two agree when rows and bins are the same.
 */
export function cleanEceNote(results: SuiteResults): string {
  const runs = results.methods.flatMap((m) => m.runs).filter((r) => shiftOf(r) !== undefined);
  if (!runs.length) return '';
  const oodRows = new Set(runs.map((r) => shiftOf(r)!.in_distribution.n));
  const oodBins = new Set(runs.map((r) => shiftOf(r)!.settings.bins));
  const testRows = new Set(runs.map((r) => r.posthoc.test?.['n']).filter((n): n is number => typeof n === 'number'));
  const suiteBins = results.record.suite.bins;
  const sameRows = testRows.size === 1 && oodRows.size === 1 && [...testRows][0] === [...oodRows][0];
  const sameBins = oodBins.size === 1 && oodBins.has(suiteBins);
  if (sameRows && sameBins) return `Clean ECE is the results table's test ECE (the same ${listOf(oodRows)} test rows and ${suiteBins} bins).`;
  const why = [
    ...(sameRows ? [] : [`the OOD evaluation's ${listOf(oodRows)} test rows (a seeded sample, oodSubset) instead of all ${testRows.size ? `${listOf(testRows)} ` : ''}test rows`]),
    ...(sameBins ? [] : [`the training run's ${listOf(oodBins)} bins instead of the suite's ${suiteBins}`]),
  ];
  return `Clean ECE differs from the results table's ECE of the same model because it is measured on ${why.join(' and with ')}.`;
}
