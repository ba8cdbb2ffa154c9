import type { MetricDefinition } from '../metrics/record/metric-definition.js';
import { metricDigits, metricHeader } from '../metrics/record/metric-display.js';
import { METRICS } from '../metrics/record/metric-registry.js';
import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { describe, invalidArgument } from '../util/errors.js';
import { checkReliabilityData } from './check-reliability-data.js';

/**
 * The metric table of the comparison report (comparison-document.ts): one row per method, one column per metric,
 * values formatted once, and the best value of each column marked (lowest for errors, highest for accuracy).
 */

/** One method's results: metric values (fractions for %-metrics, e.g. ece = 0.0421) and optional plot data. */
export interface MethodResult {
  readonly name: string;
  readonly metrics: Readonly<Record<string, number>>;
  readonly reliability?: ReliabilityData;
}

/** How a metric column is labelled and printed. `percent` multiplies by 100. */
export interface MetricColumn {
  readonly key: string;
  readonly label: string;
  readonly format: 'percent' | 'number';
  readonly decimals: number;
  /** Which direction is better ('lower' for errors); undefined: no best value is marked. */
  readonly better?: 'lower' | 'higher';
}

/**
 * Defaults for the names the toolkit produces: every metric of the record under its `calib eval --json` key
 * (header, % or plain number, decimals and better direction from its declaration, metrics/record/metric-definition.ts), and
 * the fitted temperature `temperature`; other keys print as plain numbers without a best mark.
 */
export const KNOWN_COLUMNS: Readonly<Record<string, Omit<MetricColumn, 'key'>>> = Object.freeze({
  ...Object.fromEntries(
    METRICS.map((m: MetricDefinition) => [
      m.key,
      { label: metricHeader(m), format: m.percent ? 'percent' : 'number', decimals: metricDigits(m), ...(m.better === 'none' ? {} : { better: m.better }) },
    ]),
  ),
  temperature: { label: 'T', format: 'number', decimals: 3 },
});

export interface TableCell {
  readonly text: string;
  readonly best: boolean;
}

export interface MetricTable {
  readonly columns: readonly MetricColumn[];
  readonly rows: readonly { readonly name: string; readonly cells: readonly TableCell[] }[];
}

/** Validate results (non-empty names, finite or NaN numbers, valid reliability data). */
export function checkResults(results: readonly MethodResult[]): void {
  if (!Array.isArray(results) || results.length === 0) invalidArgument('results', 'a non-empty array of method results', describe(results));
  results.forEach((r, i) => {
    if (r === null || typeof r !== 'object') invalidArgument(`results[${i}]`, 'an object', describe(r));
    if (typeof r.name !== 'string' || r.name.trim() === '') invalidArgument(`results[${i}].name`, 'a non-empty string', describe(r.name));
    if (r.metrics === null || typeof r.metrics !== 'object') invalidArgument(`results[${i}].metrics`, 'an object of numbers', describe(r.metrics));
    for (const [k, v] of Object.entries(r.metrics)) {
      if (typeof v !== 'number' || v === Infinity || v === -Infinity) invalidArgument(`results[${i}].metrics.${k}`, 'a finite number (or NaN for missing)', describe(v));
    }
    if (r.reliability !== undefined) checkReliabilityData(r.reliability, `results[${i}].reliability`);
  });
}

/** Columns: the given ones, or every metric key in first-seen order with KNOWN_COLUMNS defaults. */
export function resolveColumns(results: readonly MethodResult[], columns?: readonly (string | MetricColumn)[]): MetricColumn[] {
  const keys: (string | MetricColumn)[] = [];
  if (columns !== undefined) keys.push(...columns);
  else {
    const seen = new Set<string>();
    for (const r of results) for (const k of Object.keys(r.metrics)) if (!seen.has(k)) (seen.add(k), keys.push(k));
  }
  return keys.map((k, i) => {
    if (typeof k !== 'string') {
      if (k === null || typeof k !== 'object' || typeof k.key !== 'string') invalidArgument(`columns[${i}]`, 'a metric name or a MetricColumn', describe(k));
      return k;
    }
    const known = Object.hasOwn(KNOWN_COLUMNS, k) ? KNOWN_COLUMNS[k] : undefined;
    return known ? { key: k, ...known } : { key: k, label: k, format: 'number', decimals: 4 };
  });
}

/** Format one value for a column; missing or NaN → '—'. */
export function formatMetric(value: number | undefined, column: MetricColumn): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  const v = column.format === 'percent' ? value * 100 : value;
  const s = v.toFixed(column.decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/**
 * Build the table; in each column with a `better` direction, every row whose *printed* value equals the best
 * printed value is marked best (ties are all marked; comparing printed values avoids marking a difference the
 * reader cannot see).
 */
export function metricTable(results: readonly MethodResult[], columns?: readonly (string | MetricColumn)[]): MetricTable {
  checkResults(results);
  const cols = resolveColumns(results, columns);
  const text = results.map((r) => cols.map((c) => formatMetric(r.metrics[c.key], c)));
  const best = cols.map((c, j) => {
    if (c.better === undefined) return null;
    let bestValue: number | null = null;
    for (const row of text) {
      const t = row[j]!;
      if (t === '—') continue;
      const v = Number(t);
      if (bestValue === null || (c.better === 'lower' ? v < bestValue : v > bestValue)) bestValue = v;
    }
    return bestValue;
  });
  return {
    columns: cols,
    rows: results.map((r, i) => ({
      name: r.name,
      cells: cols.map((_, j) => ({
        text: text[i]![j]!,
        best: best[j] !== null && text[i]![j] !== '—' && Number(text[i]![j]) === best[j] && results.length > 1,
      })),
    })),
  };
}

/** File-name-safe slug of a method name, unique within `taken` (which it extends). */
export function uniqueSlug(name: string, taken: Set<string>): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'method';
  let slug = base;
  for (let k = 2; taken.has(slug); k++) slug = `${base}-${k}`;
  taken.add(slug);
  return slug;
}

/** One line recording how the reliability data were binned, e.g. "15 equal-width bins, convention (l,u]". */
export function binningNote(results: readonly MethodResult[]): string | null {
  const notes = new Set<string>();
  for (const r of results) {
    const d = r.reliability;
    if (!d) continue;
    const m = d.bins.length;
    const equal = d.bins.every((b, i) => Math.abs(b.lower - i / m) < 1e-9 && Math.abs(b.upper - (i + 1) / m) < 1e-9);
    notes.add(`${m} ${equal ? 'equal-width' : 'custom-edge'} bin${m === 1 ? '' : 's'}, convention ${d.convention}`);
  }
  return notes.size === 0 ? null : [...notes].join('; ');
}
