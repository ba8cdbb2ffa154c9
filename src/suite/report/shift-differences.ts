/**
 * Post-hoc calibrator vs temperature scaling under dataset shift (Karandikar et al. 2021, Fig. 2: "TS-SB-ECE reduces
 * ECE more than standard TS, particularly under distribution shift"). For every method with corruption results, every
 * calibrator K ≠ 'temperature' with shift results beside TS, and every severity s = 0…5 (0 = the clean test subset):
 * per seed (run) the value v_K(s) of the suite's `shiftMetric` (mean over the corruption kinds at s, as the severity
 * table), the paired difference d = v_K(s) − v_TS(s), and over seeds mean(d) with its 95 % paired-t interval
 * mean ± t_{0.975, n−1}·sd/√n (statistics.ts tInterval). K is lower than TS at s when the whole interval is below 0,
 * higher when wholly above, inconclusive otherwise (verdicts.ts decide); with fewer than two seeds, not evaluated.
 */
import type { ShiftMetricKey } from '../../train/evaluation/shift-metrics.js';
import { paragraph, type Block } from '../../report/document/document.js';
import { corruptionMethods, metricAtSeverity, SHIFT_METRIC_INFO, SHIFT_SEVERITIES, shiftOf, shiftVariants } from './shift-tables.js';
import { tInterval } from './statistics.js';
import { methodGroups, type SuiteResults } from './suite-results.js';
import { calibratorShort } from './suite-table.js';
import { decide } from './verdicts.js';

/** The calibrator every other one is compared with. */
export const SHIFT_REFERENCE = 'temperature';

export type ShiftDifferenceOutcome = 'lower' | 'higher' | 'inconclusive' | 'not evaluated';

/** K − TS at one severity: mean paired difference over `n` seeds and its 95 % t-interval (NaN below two seeds). */
export interface SeverityDifference {
  readonly severity: number;
  readonly n: number;
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
  readonly outcome: ShiftDifferenceOutcome;
}

/** One method's calibrator − TS differences at severity 0…5. */
export interface ShiftDifferenceRow {
  readonly group: string;
  readonly method: string;
  readonly label: string;
  readonly calibrator: string;
  readonly reference: typeof SHIFT_REFERENCE;
  readonly metric: ShiftMetricKey;
  readonly severities: readonly SeverityDifference[];
}

/** The calibrator − TS difference rows of every group's corruption methods (the suite's `shiftMetric`). */
export function shiftDifferences(results: SuiteResults): ShiftDifferenceRow[] {
  const suite = results.record.suite;
  const metric = suite.shiftMetric;
  const rows: ShiftDifferenceRow[] = [];
  for (const group of methodGroups(results)) {
    for (const m of corruptionMethods(results, group)) {
      const variants = shiftVariants(m, suite.posthoc);
      if (!variants.includes(SHIFT_REFERENCE)) continue;
      for (const k of variants) {
        if (k === undefined || k === SHIFT_REFERENCE) continue;
        // Each run is one seed of m, with both calibrators fitted on its own validation split: a pair per run.
        const runs = m.runs.filter((r) => shiftOf(r, k) !== undefined && shiftOf(r, SHIFT_REFERENCE) !== undefined);
        const severities = SHIFT_SEVERITIES.map((s): SeverityDifference => {
          const d = runs.map((r) => metricAtSeverity(shiftOf(r, k), s, metric) - metricAtSeverity(shiftOf(r, SHIFT_REFERENCE), s, metric)).filter((x) => Number.isFinite(x));
          if (d.length < 2) return { severity: s, n: d.length, difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, outcome: 'not evaluated' };
          const t = tInterval(d);
          const verdict = decide('<', t.lower, t.upper);
          return { severity: s, n: d.length, difference: t.mean, lower: t.lower, upper: t.upper, outcome: verdict === 'holds' ? 'lower' : verdict === 'contradicted' ? 'higher' : 'inconclusive' };
        });
        rows.push({ group, method: m.name, label: m.label, calibrator: k, reference: SHIFT_REFERENCE, metric, severities });
      }
    }
  }
  return rows;
}

/** A difference in the metric's unit: percentage points (2 decimals) for rates, else 4 decimals. */
function fmt(metric: ShiftMetricKey, x: number): string {
  return SHIFT_METRIC_INFO[metric].percent ? (x * 100).toFixed(2) : x.toFixed(4);
}

/** "−0.12 [−0.30, 0.05]" (n/a with fewer than two seeds). */
function differenceText(row: ShiftDifferenceRow, d: SeverityDifference): string {
  if (d.outcome === 'not evaluated') return 'n/a';
  return `${fmt(row.metric, d.difference)} [${fmt(row.metric, d.lower)}, ${fmt(row.metric, d.upper)}]`;
}

/** "TS-SB-ECE − TS". */
function rowName(row: ShiftDifferenceRow): string {
  return `${calibratorShort(row.calibrator)} − ${calibratorShort(row.reference)}`;
}

const HEADERS = SHIFT_SEVERITIES.map((s) => (s === 0 ? 'Clean' : `Severity ${s}`));

/** The note under the difference table. */
function differenceNote(rows: readonly ShiftDifferenceRow[]): string {
  const metric = rows[0]?.metric ?? 'ece';
  const unit = SHIFT_METRIC_INFO[metric].percent ? 'percentage points' : 'nats';
  const n = [...new Set(rows.flatMap((r) => r.severities.map((d) => d.n)))].join('/');
  return `Calibrator − TS, paired by seed: the per-seed ${SHIFT_METRIC_INFO[metric].name} (0 = clean test subset; 1–5 = mean over the corruption kinds) after the calibrator minus after TS (both fitted on clean validation), mean over n = ${n} seed(s) [95% paired-t interval], in ${unit}; bold where the interval excludes 0 (lower or higher than TS).`;
}

/**
 * The difference table of one group and its note as report blocks (none without rows); a cell is marked where the
 * interval excludes 0, with its outcome as the HTML cell's `data-outcome`.
 */
export function differenceBlocks(rows: readonly ShiftDifferenceRow[]): Block[] {
  if (!rows.length) return [];
  return [
    {
      kind: 'table',
      className: 'shift-differences',
      columns: ['Difference', ...HEADERS],
      rows: rows.map((r) => ({
        header: `${r.label}: ${rowName(r)}`,
        attributes: { 'data-method': r.method, 'data-calibrator': r.calibrator },
        cells: r.severities.map((d) => ({ text: differenceText(r, d), ...(d.outcome === 'lower' || d.outcome === 'higher' ? { best: true } : {}), attributes: { 'data-outcome': d.outcome } })),
      })),
    },
    paragraph(differenceNote(rows), 'note'),
  ];
}

/**
 * The findings sentence of one row: "CE: TS-SB-ECE vs TS under shift (ECE ℓ2 equal-mass, paired over 3 seeds): lower
 * at severities 1, 2, higher at 0, inconclusive at 3, 4, 5."
 */
export function differenceFinding(row: ShiftDifferenceRow): string {
  const head = `${row.label}: ${calibratorShort(row.calibrator)} vs ${calibratorShort(row.reference)} under shift (${SHIFT_METRIC_INFO[row.metric].name}, severity 0 = clean`;
  const evaluated = row.severities.filter((d) => d.outcome !== 'not evaluated');
  if (!evaluated.length) return `${head}): not evaluated (fewer than two seeds with both calibrators).`;
  const ns = [...new Set(evaluated.map((d) => d.n))].join('/');
  const parts = (['lower', 'higher', 'inconclusive', 'not evaluated'] as const).flatMap((o) => {
    const at = row.severities.filter((d) => d.outcome === o).map((d) => d.severity);
    return at.length ? [`${o} at ${at.length > 1 ? 'severities' : 'severity'} ${at.join(', ')}`] : [];
  });
  return `${head}; paired over ${ns} seeds, 95% t-intervals): ${parts.join(', ')}.`;
}
