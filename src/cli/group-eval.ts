/**
 * `calib eval --groups FILE`: every calibkit metric per group of rows (the metrics layer's `evaluate` on each
 * group's rows), the worst group, size-weighted mean and spread (max − min) of one metric (`--group-metric`), and
 * the multicalibration error over groups × top-label confidence bins (metrics/multicalibration.ts).
 */
import { extname } from 'node:path';
import { DIRECTIONAL_METRIC_NAMES, evaluate, metricDefinition, metricDirection, topLabel, type MetricName } from '../metrics/index.js';
import { multicalibrationError, type MulticalibrationResult } from '../metrics/multicalibration.js';
import { readVectorFile } from '../io/read-vector.js';
import { readInputText } from '../io/input-file.js';
import { splitMember } from '../io/read-predictions.js';
import { invalidArgument, requireNumber } from '../util/errors.js';
import { matrix, type Matrix } from '../util/matrix.js';
import type { CalibrationMetrics } from '../metrics/calibration-accumulator.js';
import { metricsJson, type EvalSettings } from './metrics-report.js';
import { fixed, formatTable, percent } from './format-table.js';
import type { CliIO } from './command.js';
import type { FlagSpec } from './args.js';

/**
 * Metrics `--group-metric` can summarise: every metric of the record with a better direction; the worst group is
 * the one on the worse side of that direction (highest ECE, lowest accuracy).
 */
export const GROUP_METRICS: readonly MetricName[] = DIRECTIONAL_METRIC_NAMES;
export type GroupMetric = MetricName;

export const GROUP_FLAGS = {
  groups: { type: 'string', valueName: 'FILE', description: 'one group id per row (.npy/.json integers, or a CSV/text column of strings): every metric per group and multicalibration_error' },
  'group-metric': { type: 'string', choices: GROUP_METRICS, default: 'ece', description: 'with --groups: the metric of the worst group, size-weighted mean and spread' },
  'min-group-size': { type: 'integer', default: 20, valueName: 'K', description: 'with --groups: smallest group (and group × bin cell of multicalibration_error) evaluated' },
} as const satisfies Record<string, FlagSpec>;

export const GROUP_DESCRIPTION = [
  '--groups FILE: one group id per row of the predictions (.npy / .npz / .safetensors / .json: integers; .csv / .txt:',
  'one string per line, a first line more than N lines holds is the header). Every metric per group (evaluate on',
  "that group's rows; 'groups' in --json: id → metrics and n); groups with fewer than --min-group-size K rows (20)",
  "are reported but marked too small and left out of the summary: the worst group, the size-weighted mean and the",
  'spread (max − min) of --group-metric (ece, or any metric with a better direction; worst = highest where lower is',
  'better, lowest where higher is, e.g. accuracy). multicalibration_error: the',
  'largest |mean(confidence − correct)| over groups × top-label confidence bins (--bins equal-width, (l,u]) among',
  'cells of at least K rows (smaller cells skipped and counted) — a top-label, binned, empirical version of',
  "α-multicalibration over a collection of sets (Hébert-Johnson et al. 2018, ICML). Null with a reason when nothing qualifies.",
];

export interface GroupFlags {
  groups?: string | undefined;
  'group-metric': string;
  'min-group-size': number;
  bins: number;
  json?: boolean | undefined;
}

export interface RowGroups {
  /** Group ids in display order (integers ascending, or strings in order of first appearance). */
  readonly ids: readonly string[];
  /** Index into `ids` per row. */
  readonly index: Int32Array;
}

/** Read --groups (or `argName`): integers from numeric formats, one string per line from CSV / text, N entries. */
export async function readGroups(path: string, rows: number, predictionsArg: string, argName = '--groups'): Promise<RowGroups> {
  const ext = extname(splitMember(path).file).toLowerCase();
  const expected = `${rows} group ids, one per row of ${predictionsArg} (${rows} rows)`;
  let raw: string[];
  let numeric = false;
  if (ext === '.npy' || ext === '.npz' || ext === '.safetensors' || ext === '.json') {
    const values = await readVectorFile(path, argName, { names: ['groups', 'group'] });
    if (values.length !== rows) invalidArgument(argName, expected, `${values.length} entries`);
    values.forEach((v, i) => {
      if (!Number.isInteger(v)) invalidArgument(argName, 'integer group ids', `${v} at row ${i}`);
    });
    raw = Array.from(values, String);
    numeric = true;
  } else {
    const lines = (await readInputText({ argName, path })).replace(/^\uFEFF/, '').split(/\r?\n/);
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    if (lines.length === rows + 1) lines.shift(); // header
    if (lines.length !== rows) invalidArgument(argName, expected, `${lines.length} lines`);
    raw = lines.map((line, i) => {
      const id = line.trim().replace(/^"(.*)"$/, '$1');
      if (id === '') invalidArgument(argName, 'a group id on every line', `an empty line ${i + 1}`);
      if (id.includes(',')) invalidArgument(argName, 'one column of group ids', `"${id}" on line ${i + 1}`);
      return id;
    });
  }
  const ids = [...new Set(raw)];
  if (numeric) ids.sort((a, b) => Number(a) - Number(b));
  const position = new Map(ids.map((id, k) => [id, k]));
  return { ids, index: Int32Array.from(raw, (id) => position.get(id)!) };
}

export interface GroupResult {
  readonly id: string;
  readonly n: number;
  readonly tooSmall: boolean;
  readonly metrics: CalibrationMetrics;
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
  const usable = groups.filter((g) => !g.tooSmall && Number.isFinite(g.metrics[metric]));
  if (usable.length === 0)
    return { metric, evaluatedGroups: 0, worst: null, weightedMean: null, spread: null, reason: `no group has at least ${minGroupSize} rows (--min-group-size)` };
  const worse = metricDirection(metric) === 'lower' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
  let worst = usable[0]!;
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let n = 0;
  for (const g of usable) {
    const v = g.metrics[metric];
    if (worse(v, worst.metrics[metric])) worst = g;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += g.n * v;
    n += g.n;
  }
  return { metric, evaluatedGroups: usable.length, worst: { id: worst.id, value: worst.metrics[metric] }, weightedMean: sum / n, spread: max - min, reason: null };
}

/** Every metric per group, the summary of `metric` and the ECE's worst group, and the multicalibration error. */
export function evaluateGroups(
  predictions: Matrix,
  labels: Int32Array,
  rowGroups: RowGroups,
  settings: EvalSettings,
  options: { metric: GroupMetric; minGroupSize: number },
): GroupEvaluation {
  const members: number[][] = rowGroups.ids.map(() => []);
  rowGroups.index.forEach((g, r) => members[g]!.push(r));
  const groups = rowGroups.ids.map((id, g) => {
    const { m, y } = rowsOf(predictions, labels, members[g]!);
    return { id, n: m.rows, tooSmall: m.rows < options.minGroupSize, metrics: evaluate(m, y, settings) };
  });
  const top = topLabel(predictions, labels, settings.input);
  const multicalibration = multicalibrationError(top.confidence, top.correct, rowGroups.index, rowGroups.ids.length, {
    bins: settings.bins,
    minCellSize: options.minGroupSize,
  });
  const eceSummary = summarise(groups, 'ece', options.minGroupSize);
  return { groups, summary: summarise(groups, options.metric, options.minGroupSize), worstEce: eceSummary.worst, multicalibration, minGroupSize: options.minGroupSize };
}

/** Validate --group-metric and --min-group-size. */
export function requireGroupFlags(flags: GroupFlags): { metric: GroupMetric; minGroupSize: number } {
  requireNumber('--min-group-size', flags['min-group-size'], { integer: true, min: 1 });
  return { metric: flags['group-metric'] as GroupMetric, minGroupSize: flags['min-group-size'] };
}

/** The --json keys of a group evaluation: `groups`, `group_summary`, `multicalibration_error` (+ its cell). */
export function groupJson(result: GroupEvaluation, settings: EvalSettings): Record<string, unknown> {
  const s = result.summary;
  const mc = result.multicalibration;
  return {
    groups: Object.fromEntries(result.groups.map((g) => [g.id, { ...metricsJson(g.metrics, settings), n: g.n, too_small: g.tooSmall }])),
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
      bin: mc.bin,
      cell_size: mc.cellSize,
      cells_evaluated: mc.cellsEvaluated,
      cells_skipped: mc.cellsSkipped,
      bins: mc.bins,
      min_cell_size: mc.minCellSize,
      reason: mc.value === null ? `no group × bin cell has at least ${mc.minCellSize} rows (--min-group-size)` : null,
    },
  };
}

/** The human table: per group n, accuracy, ECE (and --group-metric), then the summary lines. */
export function writeGroupTable(result: GroupEvaluation, io: CliIO): void {
  const metric = result.summary.metric;
  const show = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '—' : metricDefinition(metric).percent ? percent(v) : fixed(v));
  const extra = metric !== 'ece' && metric !== 'accuracy';
  const header = ['group', 'n', 'accuracy', 'ECE', ...(extra ? [metric] : []), ''];
  const rows = result.groups.map((g) => [
    g.id,
    g.n.toLocaleString('en-US'),
    percent(g.metrics.accuracy),
    percent(g.metrics.ece),
    ...(extra ? [show(g.metrics[metric])] : []),
    g.tooSmall ? `too small (< ${result.minGroupSize})` : '',
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
      : `worst group by ECE: ${result.worstEce?.id ?? '—'} (${result.worstEce ? percent(result.worstEce.value) : '—'}); by ${metric}: ${s.worst.id} (${show(s.worst.value)})`,
    ...(s.worst === null ? [] : [`${metric} over ${s.evaluatedGroups} groups: size-weighted mean ${show(s.weightedMean)}, spread (max − min) ${show(s.spread)}`]),
    mc.value === null
      ? `multicalibration error: none — no group × bin cell has at least ${mc.minCellSize} rows (${mc.cellsSkipped} cells skipped)`
      : `multicalibration error: ${percent(mc.value)} (group ${result.groups[mc.group!]!.id}, bin ${mc.bin! + 1} of ${mc.bins}, ${mc.cellSize} rows; ` +
        `${mc.cellsEvaluated} cells evaluated, ${mc.cellsSkipped} skipped below ${mc.minCellSize} rows)`,
    '',
  ];
  io.stdout.write(lines.join('\n'));
}
