/**
 * The paper-style table of a suite: one row per method (at its chosen sweep value), each test metric as mean ± std (or SEM)
 * over seeds, before and after each post-hoc calibrator, and the fitted temperature; the best mean per column is
 * marked (highest accuracy, lowest everything else; the temperature has no best).
 */
import { metricShortName } from '../../metrics/record/metric-display.js';
import { metricDefinition, type RecordMetricName } from '../../metrics/record/metric-registry.js';
import { mean, spreadOf, type Spread } from './statistics.js';
import { foregroundMetric, methodGroups, testMetric, trainMetric, type MethodResults, type SuiteResults } from './suite-results.js';

export interface TableColumn {
  readonly key: string;
  readonly label: string;
  readonly metric: string;
  readonly after?: string;
  /**
   * 'train': the metric of the training split (runs with `evaluateTrain`), not of the test split; 'foreground': the
   * test pixels without background (segmentation runs).
   */
  readonly split?: 'train' | 'foreground';
  readonly percent: boolean;
  readonly better?: 'higher' | 'lower';
}

export interface TableCell {
  readonly mean: number;
  /** Spread over seeds: std or SEM (the suite's `spread`). */
  readonly spread: number;
  readonly text: string;
  readonly best: boolean;
}

export interface SuiteTable {
  readonly group: string;
  readonly columns: readonly TableColumn[];
  readonly rows: readonly { readonly method: string; readonly label: string; readonly seeds: number; readonly cells: readonly TableCell[] }[];
}

const SHORT: Record<string, string> = { temperature: 'TS', 'ts-sb-ece': 'TS-SB-ECE', 'ts-hb-ece': 'TS-HB-ECE', 'ts-grid-ece': 'TS (grid ECE)', 'ensemble-temperature': 'ETS' };

/** Short name of a calibrator for column labels. */
export function calibratorShort(kind: string): string {
  return SHORT[kind] ?? kind;
}

/**
 * The columns for a suite with post-hoc calibrators `posthoc`; `withTrain` adds the training split's accuracy and
 * ECE (train-vs-test calibration, Karandikar et al. 2021 Table 3); `withForeground` (segmentation suites) the test
 * pixels' accuracy, ECE and mean confidence without background, and the ECE after each calibrator (MbLS Table 5);
 * `metrics` (the suite's `metrics:`) adds each named metric of the record, before and after each calibrator, last.
 */
export function tableColumns(posthoc: readonly string[], withTrain = false, withForeground = false, metrics: readonly RecordMetricName[] = []): TableColumn[] {
  const cols: TableColumn[] = [metricColumn('accuracy'), metricColumn('ece'), metricColumn('adaece'), metricColumn('nll'), metricColumn('mean_confidence')];
  for (const kind of posthoc) {
    cols.push(metricColumn('ece', { after: kind }));
    cols.push(metricColumn('nll', { after: kind }));
  }
  if (withTrain) {
    cols.push(metricColumn('accuracy', { split: 'train' }));
    cols.push(metricColumn('ece', { split: 'train' }));
  }
  if (withForeground) {
    cols.push(metricColumn('accuracy', { split: 'foreground' }));
    cols.push(metricColumn('ece', { split: 'foreground' }));
    cols.push(metricColumn('mean_confidence', { split: 'foreground' }));
    for (const kind of posthoc) cols.push(metricColumn('ece', { after: kind, split: 'foreground' }));
  }
  if (posthoc.includes('temperature')) cols.push({ key: 'T', label: 'T', metric: 'temperature', after: 'temperature', percent: false });
  for (const metric of metrics) {
    cols.push(metricColumn(metric));
    for (const kind of posthoc) cols.push(metricColumn(metric, { after: kind }));
  }
  return cols;
}

/** A name inside a phrase: lower-case first letter unless it is an acronym ("Acc." → "acc.", "ECE" stays). */
function inPhrase(name: string): string {
  return /^[A-Z][a-z]/.test(name) ? name[0]!.toLowerCase() + name.slice(1) : name;
}

/**
 * The column of metric `metric` (its name, unit and better direction from the metric record,
 * metrics/record/metric-definition.ts): of the test split, of the training split ("Train acc. (%)"), of the foreground pixels
 * ("ECE w/o bg (%)"), and after calibrator `after` ("ECE after TS (%)").
 */
export function metricColumn(metric: RecordMetricName, where: { readonly after?: string; readonly split?: 'train' | 'foreground' } = {}): TableColumn {
  const definition = metricDefinition(metric);
  const short = metricShortName(definition);
  const name = where.split === 'train' ? `Train ${inPhrase(short)}` : where.split === 'foreground' ? `${short} w/o bg` : short;
  const label = `${name}${where.after === undefined ? '' : ` after ${calibratorShort(where.after)}`}${definition.percent ? ' (%)' : ''}`;
  const prefix = where.split === 'train' ? 'train:' : where.split === 'foreground' ? 'fg:' : '';
  const key = `${prefix}${metric}${where.after === undefined ? '' : `@${where.after}`}`;
  return {
    key,
    label,
    metric,
    ...(where.after === undefined ? {} : { after: where.after }),
    ...(where.split === undefined ? {} : { split: where.split }),
    percent: definition.percent,
    ...(definition.better === 'none' ? {} : { better: definition.better }),
  };
}

/** The fitted temperature of a run's temperature-scaling calibrator. */
export function fittedTemperature(r: MethodResults['runs'][number]): number {
  const t = r.posthoc.calibrators['temperature']?.calibrator['temperature'];
  return typeof t === 'number' ? t : Number.NaN;
}

export function formatMeanStd(m: number, s: number, percent: boolean): string {
  if (!Number.isFinite(m)) return 'n/a';
  const scale = percent ? 100 : 1;
  const d = percent ? 2 : 3;
  return Number.isFinite(s) ? `${(m * scale).toFixed(d)} ± ${(s * scale).toFixed(d)}` : (m * scale).toFixed(d);
}

/**
 * A table of `columns` whose rows hold, per column, the values over seeds: each cell is their mean ± spread
 * (std or SEM), the best mean per column (with `better`, and at least two rows) marked.
 */
export function buildTable(
  group: string,
  columns: readonly TableColumn[],
  rows: readonly { readonly method: string; readonly label: string; readonly seeds: number; readonly values: readonly (readonly number[])[] }[],
  spread: Spread,
): SuiteTable {
  const values = rows.map((row) => row.values.map((v) => ({ mean: mean(v), spread: spreadOf(v, spread) })));
  const best = columns.map((c, j) => {
    if (!c.better || rows.length < 2) return Number.NaN;
    const ms = values.map((row) => row[j]!.mean).filter(Number.isFinite);
    return c.better === 'higher' ? Math.max(...ms) : Math.min(...ms);
  });
  return {
    group,
    columns,
    rows: rows.map((r, i) => ({
      method: r.method,
      label: r.label,
      seeds: r.seeds,
      cells: values[i]!.map((v, j) => ({ ...v, text: formatMeanStd(v.mean, v.spread, columns[j]!.percent), best: Number.isFinite(best[j]!) && Math.abs(v.mean - best[j]!) <= 1e-12 })),
    })),
  };
}

/** A method's row label: its label, with the swept value it was chosen at ("MbLS (margin = 6)"). */
export function methodLabel(m: MethodResults): string {
  return m.sweep ? `${m.label} (${m.sweep.label} = ${String(m.sweep.chosen)})` : m.label;
}

/** One table per "dataset · model" group. */
export function suiteTables(results: SuiteResults): SuiteTable[] {
  const columns = tableColumns(
    results.record.suite.posthoc,
    results.runs.some((r) => r.summary['train'] !== undefined),
    results.runs.some((r) => r.posthoc.foreground !== undefined),
    results.record.suite.metrics ?? [],
  );
  return methodGroups(results).map((group) => {
    const methods = results.methods.filter((m) => m.group === group);
    const rows = methods.map((m) => ({
      method: m.name,
      label: methodLabel(m),
      seeds: m.runs.length,
      values: columns.map((c) =>
        m.runs.map((r) =>
          c.metric === 'temperature'
            ? fittedTemperature(r)
            : c.split === 'train'
              ? trainMetric(r, c.metric)
              : c.split === 'foreground'
                ? foregroundMetric(r, c.metric, c.after)
                : testMetric(r, c.metric, c.after),
        ),
      ),
    }));
    return buildTable(group, columns, rows, results.record.suite.spread);
  });
}
