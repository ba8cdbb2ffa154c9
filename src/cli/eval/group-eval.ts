/**
 * `calib eval --groups FILE`: every calibkit metric per group of rows (the metrics layer's `evaluate` on each
 * group's rows), the worst group, size-weighted mean and spread (max − min) of one metric (`--group-metric`), and
 * the multicalibration error over groups × top-label confidence bins (metrics/multicalibration.ts).
 */
import { DIRECTIONAL_METRIC_NAMES, evaluate, metricDefinition, metricDirection, topLabel, type MetricName } from '../../metrics/index.js';
import { multicalibrationError, type MulticalibrationResult } from '../../metrics/multicalibration.js';
import { multicalibrationOverColumns, type ColumnsMulticalibrationResult } from '../../metrics/multicalibration.js';
import { evaluateWeighted, type WeightedMetrics } from '../../metrics/weighted/weighted-evaluate.js';
import { intersectionGroups, readGroupFile, type GroupColumn, type RowGroups } from './group-columns.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import type { CalibrationMetrics } from '../../metrics/accumulators/calibration-accumulator.js';
import { metricsJson, type EvalSettings } from './metrics-report.js';
import { fixed, formatTable, percent } from '../format-table.js';
import type { CliIO } from '../command.js';
import type { Flag } from '../flag.js';
import { flag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

/**
 * Metrics `--group-metric` can summarise: every metric of the record with a better direction; the worst group is
 * the one on the worse side of that direction (highest ECE, lowest accuracy).
 */
export const GROUP_METRICS: readonly MetricName[] = DIRECTIONAL_METRIC_NAMES;
export type GroupMetric = MetricName;

export const GROUP_FLAGS = {
  groups: flag(
    described(string(), 'group ids per row (.npy N or N × K integers, .json integers, or CSV/text columns of strings; repeat for more columns): every metric per group and multicalibration_error'),
    { repeatable: true, valueName: 'FILE' },
  ),
  'group-intersections': flag(optional(boolean(), false, 'with several group columns: also every intersection cell (a × b) as a group, in the table and in multicalibration_error')),
  'group-metric': flag(optional(string(GROUP_METRICS), 'ece', 'with --groups: the metric of the worst group, size-weighted mean and spread')),
  'min-group-size': flag(optional(number({ integer: true, min: 1 }), 20, 'with --groups: smallest group (and group × bin cell of multicalibration_error) evaluated'), { valueName: 'K' }),
} as const satisfies Record<string, Flag>;

export const GROUP_DESCRIPTION = [
  '--groups FILE: one group id per row of the predictions (.npy / .npz / .safetensors / .json: integers; .csv / .txt:',
  'one string per line, a first line more than N lines holds is the header). Several columns: a .npy of shape N × K,',
  'a CSV with K comma-separated columns (header = column names), or --groups repeated; each column gets its own table',
  "and summary ('groups' / 'group_summary' in --json keyed by column name, 'group_columns' the names), and",
  "multicalibration_error is taken over the union of all columns' groups; --group-intersections adds the crossed",
  "cells ('north × phone') as one more column (cells below K rows shown as too small, counted, and skipped). --weights",
  'W: per group the weighted metrics (as calib eval --weights), sizes Σ w in the mean, weighted cell means in',
  'multicalibration_error (the minimum still counts rows). Every metric per group (evaluate on',
  "that group's rows; 'groups' in --json: id → metrics and n); groups with fewer than --min-group-size K rows (20)",
  'are reported but marked too small and left out of the summary: the worst group, the size-weighted mean and the',
  'spread (max − min) of --group-metric (ece, or any metric with a better direction; worst = highest where lower is',
  'better, lowest where higher is, e.g. accuracy). multicalibration_error: the',
  'largest |mean(confidence − correct)| over groups × top-label confidence bins (--bins equal-width, (l,u]) among',
  'cells of at least K rows (smaller cells skipped and counted) — a top-label, binned, empirical version of',
  'α-multicalibration over a collection of sets (Hébert-Johnson et al. 2018, ICML). Null with a reason when nothing qualifies.',
];

export interface GroupFlags {
  groups?: string | undefined;
  'group-metric': string;
  'min-group-size': number;
  bins: number;
  json?: boolean | undefined;
}

export type { RowGroups } from './group-columns.js';

/** Read one --groups file (or `argName`) as one column: its only column, or the intersection cells of its columns. */
export async function readGroups(path: string, rows: number, predictionsArg: string, argName = '--groups'): Promise<RowGroups> {
  return intersectionGroups(await readGroupFile(path, rows, predictionsArg, argName), argName).groups;
}

export interface GroupResult {
  readonly id: string;
  readonly n: number;
  /** The group's size in the summary's size-weighted mean: n, or Σ w of its rows with sample weights. */
  readonly size: number;
  readonly tooSmall: boolean;
  /** Every metric of the group's rows (unweighted), or null with `weighted`. */
  readonly metrics: CalibrationMetrics | null;
  /** With sample weights: the weighted metrics (null when the group's weights are all 0, which makes it too small). */
  readonly weighted: WeightedMetrics | null;
}

/** A metric of a group (undefined where not computed: a metric that refuses weights, or a zero-weight group). */
export function groupValue(g: GroupResult, metric: MetricName): number | undefined {
  if (g.metrics) return g.metrics[metric];
  return (g.weighted?.values as Partial<Record<MetricName, number>> | undefined)?.[metric];
}

export interface GroupSummary {
  readonly metric: GroupMetric;
  readonly evaluatedGroups: number;
  readonly worst: { id: string; value: number } | null;
  readonly weightedMean: number | null;
  readonly spread: number | null;
  readonly reason: string | null;
}

export interface GroupEvaluation {
  readonly groups: readonly GroupResult[];
  readonly summary: GroupSummary;
  readonly worstEce: { id: string; value: number } | null;
  readonly multicalibration: MulticalibrationResult;
  readonly minGroupSize: number;
}

/** The rows of one group as their own matrix and labels. */
function rowsOf(predictions: Matrix, labels: Int32Array, members: readonly number[]): { m: Matrix; y: Int32Array } {
  const { cols, data } = predictions;
  const out = new Float64Array(members.length * cols);
  const y = new Int32Array(members.length);
  members.forEach((r, i) => {
    for (let k = 0; k < cols; k++) out[i * cols + k] = data[r * cols + k]!;
    y[i] = labels[r]!;
  });
  return { m: matrix(members.length, cols, out), y };
}

/** Worst group, size-weighted mean and spread of `metric` over the groups that are large enough. */
function summarise(groups: readonly GroupResult[], metric: GroupMetric, minGroupSize: number): GroupSummary {
  const usable = groups.filter((g) => !g.tooSmall && Number.isFinite(groupValue(g, metric)));
  if (usable.length === 0) return { metric, evaluatedGroups: 0, worst: null, weightedMean: null, spread: null, reason: `no group has at least ${minGroupSize} rows (--min-group-size)` };
  const worse = metricDirection(metric) === 'lower' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  let worst = usable[0]!;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const g of usable) {
    const v = groupValue(g, metric)!;
    if (worse(v, groupValue(worst, metric)!)) worst = g;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += g.size * v;
    n += g.size;
  }
  return { metric, evaluatedGroups: usable.length, worst: { id: worst.id, value: groupValue(worst, metric)! }, weightedMean: sum / n, spread: max - min, reason: null };
}

export interface GroupOptions {
  readonly metric: GroupMetric;
  readonly minGroupSize: number;
  /** Sample weights per row: weighted metrics per group (evaluateWeighted), sizes Σ w, weighted cell means. */
  readonly weights?: Float64Array | undefined;
}

/**
 * Every metric per group (`evaluate` on its rows, or `evaluateWeighted` with its rows' weights), the summary of
 * `metric` and the ECE's worst group, and the multicalibration error over this column's groups × bins.
 */
export function evaluateGroups(predictions: Matrix, labels: Int32Array, rowGroups: RowGroups, settings: EvalSettings, options: GroupOptions): GroupEvaluation {
  const members: number[][] = rowGroups.ids.map(() => []);
  rowGroups.index.forEach((g, r) => members[g]!.push(r));
  const w = options.weights;
  const groups = rowGroups.ids.map((id, g): GroupResult => {
    const { m, y } = rowsOf(predictions, labels, members[g]!);
    if (w === undefined) return { id, n: m.rows, size: m.rows, tooSmall: m.rows < options.minGroupSize, metrics: evaluate(m, y, settings), weighted: null };
    const wg = Float64Array.from(members[g]!, (r) => w[r]!);
    const total = wg.reduce((a, b) => a + b, 0);
    const weighted = total > 0 ? evaluateWeighted(m, y, wg, settings) : null;
    return { id, n: m.rows, size: total, tooSmall: m.rows < options.minGroupSize || weighted === null, metrics: null, weighted };
  });
  const top = topLabel(predictions, labels, settings.input);
  const multicalibration = multicalibrationError(top.confidence, top.correct, rowGroups.index, rowGroups.ids.length, {
    bins: settings.bins,
    minCellSize: options.minGroupSize,
    ...(w && { weights: w }),
  });
  const eceSummary = summarise(groups, 'ece', options.minGroupSize);
  return { groups, summary: summarise(groups, options.metric, options.minGroupSize), worstEce: eceSummary.worst, multicalibration, minGroupSize: options.minGroupSize };
}

/** The group options of the flags (--group-metric's choices and --min-group-size's range are checked at parsing). */
export function requireGroupFlags(flags: GroupFlags): { metric: GroupMetric; minGroupSize: number } {
  return { metric: flags['group-metric'] as GroupMetric, minGroupSize: flags['min-group-size'] };
}

/** The per-group JSON of one group: its metrics (or weighted metrics with the weights' sum), n and too_small. */
function groupEntry(g: GroupResult, settings: EvalSettings): Record<string, unknown> {
  const metrics = g.metrics ? metricsJson(g.metrics, settings) : { ...(g.weighted?.values ?? {}), weights: { sum: g.size, effective_n: g.weighted?.effectiveN ?? 0 } };
  return { ...metrics, n: g.n, too_small: g.tooSmall };
}

/** The --json keys of the multicalibration error's largest cell and its counts, after the keys naming its group. */
function multicalibrationCellJson(mc: MulticalibrationResult): Record<string, unknown> {
  return {
    bin: mc.bin,
    cell_size: mc.cellSize,
    cells_evaluated: mc.cellsEvaluated,
    cells_skipped: mc.cellsSkipped,
    bins: mc.bins,
    min_cell_size: mc.minCellSize,
    reason: mc.value === null ? `no group × bin cell has at least ${mc.minCellSize} rows (--min-group-size)` : null,
  };
}

/** The --json keys of a group evaluation: `groups`, `group_summary`, `multicalibration_error` (+ its cell). */
export function groupJson(result: GroupEvaluation, settings: EvalSettings): Record<string, unknown> {
  const s = result.summary;
  const mc = result.multicalibration;
  return {
    groups: Object.fromEntries(result.groups.map((g) => [g.id, groupEntry(g, settings)])),
    group_summary: {
      metric: s.metric,
      min_group_size: result.minGroupSize,
      evaluated_groups: s.evaluatedGroups,
      worst_group: s.worst?.id ?? null,
      worst_value: s.worst?.value ?? null,
      weighted_mean: s.weightedMean,
      spread: s.spread,
      worst_ece_group: result.worstEce?.id ?? null,
      worst_ece: result.worstEce?.value ?? null,
      reason: s.reason,
    },
    multicalibration_error: mc.value,
    multicalibration: {
      group: mc.group === null ? null : result.groups[mc.group]!.id,
      ...multicalibrationCellJson(mc),
    },
  };
}

/** The human table: per group n, accuracy, ECE (and --group-metric), then the summary lines. */
export function writeGroupTable(result: GroupEvaluation, io: CliIO): void {
  const metric = result.summary.metric;
  const show = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '—' : metricDefinition(metric).percent ? percent(v) : fixed(v));
  const extra = metric !== 'ece' && metric !== 'accuracy';
  const header = ['group', 'n', 'accuracy', 'ECE', ...(extra ? [metric] : []), ''];
  const pct = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? '—' : percent(v));
  const rows = result.groups.map((g) => [
    g.id,
    g.n.toLocaleString('en-US'),
    pct(groupValue(g, 'accuracy')),
    pct(groupValue(g, 'ece')),
    ...(extra ? [show(groupValue(g, metric))] : []),
    g.tooSmall ? (g.metrics === null && g.weighted === null ? 'weights all 0' : `too small (< ${result.minGroupSize})`) : '',
  ]);
  const s = result.summary;
  const mc = result.multicalibration;
  const lines = [
    '',
    `per group (${result.groups.length} groups, minimum size ${result.minGroupSize}):`,
    formatTable(header, rows).trimEnd(),
    '',
    s.worst === null
      ? `${metric} summary: none — ${s.reason}`
      : `worst group by ECE: ${result.worstEce?.id ?? '—'} (${result.worstEce ? percent(result.worstEce.value) : '—'})${metric === 'ece' ? '' : `; by ${metric}: ${s.worst.id} (${show(s.worst.value)})`}`,
    ...(s.worst === null ? [] : [`${metric} over ${s.evaluatedGroups} groups: size-weighted mean ${show(s.weightedMean)}, spread (max − min) ${show(s.spread)}`]),
    mc.value === null
      ? `multicalibration error: none — no group × bin cell has at least ${mc.minCellSize} rows (${mc.cellsSkipped} cells skipped)`
      : `multicalibration error: ${percent(mc.value)} (group ${result.groups[mc.group!]!.id}, bin ${mc.bin! + 1} of ${mc.bins}, ${mc.cellSize} rows; ` +
        `${mc.cellsEvaluated} cells evaluated, ${mc.cellsSkipped} skipped below ${mc.minCellSize} rows)`,
    '',
  ];
  io.stdout.write(lines.join('\n'));
}

/** Several group columns (and their intersection cells when asked), each evaluated as one column. */
export interface GroupColumnsEvaluation {
  readonly columns: readonly { readonly name: string; readonly intersection: boolean; readonly evaluation: GroupEvaluation }[];
  /** Over the union of every evaluated column's groups (the intersection cells included when asked). */
  readonly multicalibration: ColumnsMulticalibrationResult;
  readonly minGroupSize: number;
}

/**
 * `calib eval` with several group columns: `evaluateGroups` per column; with `intersections`, the cells of all
 * columns crossed ('north × phone', group-columns.ts) as one more column, whose cells below the minimum size are
 * marked too small and counted; the multicalibration error over the union of all these groups × bins.
 */
export function evaluateGroupColumns(
  predictions: Matrix,
  labels: Int32Array,
  columns: readonly GroupColumn[],
  settings: EvalSettings,
  options: GroupOptions & { readonly intersections: boolean },
): GroupColumnsEvaluation {
  const all = options.intersections
    ? [...columns.map((c) => ({ ...c, intersection: false })), { ...intersectionGroups(columns), intersection: true }]
    : columns.map((c) => ({ ...c, intersection: false }));
  const evaluated = all.map((c) => ({ name: c.name, intersection: c.intersection, evaluation: evaluateGroups(predictions, labels, c.groups, settings, options) }));
  const top = topLabel(predictions, labels, settings.input);
  const multicalibration = multicalibrationOverColumns(
    top.confidence,
    top.correct,
    all.map((c) => ({ index: c.groups.index, count: c.groups.ids.length })),
    { bins: settings.bins, minCellSize: options.minGroupSize, ...(options.weights && { weights: options.weights }) },
  );
  return { columns: evaluated, multicalibration, minGroupSize: options.minGroupSize };
}

/** The --json keys with several columns: `group_columns`, `groups` and `group_summary` keyed by column, `multicalibration_error`. */
export function groupColumnsJson(result: GroupColumnsEvaluation, settings: EvalSettings): Record<string, unknown> {
  const mc = result.multicalibration;
  const at = mc.column === null ? null : result.columns[mc.column]!;
  const perColumn = result.columns.map((c) => ({ name: c.name, json: groupJson(c.evaluation, settings) }));
  return {
    group_columns: result.columns.map((c) => c.name),
    groups: Object.fromEntries(perColumn.map((c) => [c.name, c.json['groups']])),
    group_summary: Object.fromEntries(
      result.columns.map((c, j) => [
        c.name,
        {
          ...(perColumn[j]!.json['group_summary'] as object),
          intersection: c.intersection,
          groups: c.evaluation.groups.length,
          too_small_groups: c.evaluation.groups.filter((g) => g.tooSmall).length,
        },
      ]),
    ),
    multicalibration_error: mc.value,
    multicalibration: {
      collection: result.columns.some((c) => c.intersection) ? "the union of every column's groups and their intersection cells" : "the union of every column's groups",
      column: at?.name ?? null,
      group: at === null ? null : at.evaluation.groups[mc.group!]!.id,
      ...multicalibrationCellJson(mc),
    },
  };
}

/** The human tables with several columns: one per column (then the intersection cells), then the union's multicalibration. */
export function writeGroupColumnsTable(result: GroupColumnsEvaluation, io: CliIO): void {
  for (const c of result.columns) {
    const small = c.evaluation.groups.filter((g) => g.tooSmall).length;
    io.stdout.write(
      c.intersection
        ? `\n== intersection cells ${c.name} (${c.evaluation.groups.length} non-empty cells, ${small} below ${result.minGroupSize} rows: shown, left out of the summary) ==\n`
        : `\n== group column ${c.name} ==\n`,
    );
    writeGroupTable(c.evaluation, io);
  }
  const mc = result.multicalibration;
  const at = mc.column === null ? null : result.columns[mc.column]!;
  const over = result.columns.some((c) => c.intersection) ? `every column's groups and their intersection cells` : `every column's groups`;
  io.stdout.write(
    mc.value === null
      ? `\nmulticalibration error over ${over}: none — no group × bin cell has at least ${mc.minCellSize} rows (${mc.cellsSkipped} cells skipped)\n`
      : `\nmulticalibration error over ${over}: ${percent(mc.value)} (${at!.name} = ${at!.evaluation.groups[mc.group!]!.id}, bin ${mc.bin! + 1} of ${mc.bins}, ${mc.cellSize} rows; ` +
          `${mc.cellsEvaluated} cells evaluated, ${mc.cellsSkipped} skipped below ${mc.minCellSize} rows)\n`,
  );
}
