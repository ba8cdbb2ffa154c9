/**
 * `calib eval --metrics LIST`: the opt-in entries of the metric record (metrics/record/opt-in-metrics.ts: PRR, AUARC and
 * the clinical statistics of the top label), added to the table and to --json under their keys. Names of the
 * default list are accepted and change nothing (those metrics are always there); any other name is refused with
 * the list of names.
 */
import { isMetricName, metricDefinition, metricDigits, OPT_IN_METRIC_NAMES, requireOptInNames, type OptInMetricName } from '../../metrics/index.js';
import { jsonNumber } from '../../report/metrics-json.js';
import { invalidArgument } from '../../util/errors.js';
import type { Flag } from '../flag.js';
import type { CliIO } from '../command.js';
import { flag } from '../flag.js';
import { described, optional, string } from '../../util/schema.js';

export const OPT_IN_FLAG = {
  metrics: flag(described(optional(string()), `add opt-in metrics of the top label, comma-separated: ${OPT_IN_METRIC_NAMES.join(', ')}`), { valueName: 'LIST' }),
} as const satisfies Record<string, Flag>;

export const OPT_IN_DESCRIPTION = [
  '--metrics LIST adds opt-in entries of the metric record, computed from the top label (confidence against',
  'correctness) once all rows are read: prr and auarc (accuracy–rejection curve, least confident rejected first);',
  'calibration_in_the_large, calibration_slope, calibration_slope_error (|slope − 1|, the ranked form: best at 0),',
  'calibration_intercept, hosmer_lemeshow and hosmer_lemeshow_p (10 groups, df 8), ici, e50, e90, emax (lowess',
  "span 2/3) and skce, skce_p (1000 draws, seed 0) with the settings of --clinical's defaults. They are not in the",
  'default list (the clinical ones cost up to O(N²) for the lowess curve). Default-list names are accepted and ignored.',
];

/** The opt-in names of `--metrics` (undefined: none), every name checked against the record. */
export function parseMetricsFlag(value: string | undefined): readonly OptInMetricName[] {
  if (value === undefined) return [];
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) invalidArgument('--metrics', `a comma-separated list of metric names among ${OPT_IN_METRIC_NAMES.join(', ')}`, JSON.stringify(value));
  const optIn = names.filter((name) => !isMetricName(name));
  requireOptInNames(optIn, '--metrics');
  return [...new Set(optIn)] as OptInMetricName[];
}

/** The --json fields of the opt-in values (NaN as null). */
export function optInJson(values: Partial<Record<OptInMetricName, number>>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, jsonNumber(v as number)]));
}

/** The table lines of the opt-in values: label and value in the record's unit and decimals. */
export function writeOptInTable(values: Partial<Record<OptInMetricName, number>>, io: CliIO): void {
  const entries = Object.entries(values) as [OptInMetricName, number][];
  if (entries.length === 0) return;
  const width = Math.max(...entries.map(([name]) => metricDefinition(name).label.length));
  const lines = entries.map(([name, v]) => {
    const d = metricDefinition(name);
    const text = Number.isFinite(v) ? (d.percent ? (100 * v).toFixed(metricDigits(d)) : v.toFixed(metricDigits(d))) : Number.isNaN(v) ? 'undefined' : String(v);
    return `  ${d.label.padEnd(width)}  ${text}`;
  });
  io.stdout.write(`\nopt-in metrics of the top label (--metrics):\n${lines.join('\n')}\n`);
}
