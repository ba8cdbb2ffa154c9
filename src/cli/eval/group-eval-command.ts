/**
 * The `calib eval --groups` branch: read the group columns (one or several, group-columns.ts), evaluate every
 * metric per group of each column (weighted with --weights), optionally the intersection cells, and print the
 * table or the JSON (group-eval.ts).
 */
import { evaluateWeighted } from '../../metrics/weighted/weighted-evaluate.js';
import type { Matrix } from '../../util/matrix.js';
import { UsageError } from '../args.js';
import type { CliIO } from '../command.js';
import { requireFiniteValues } from '../finite-output.js';
import { readGroupColumns } from './group-columns.js';
import { evaluateGroupColumns, evaluateGroups, groupColumnsJson, groupJson, requireGroupFlags, writeGroupColumnsTable, writeGroupTable, type GroupFlags } from './group-eval.js';
import { evaluateChunks, formatMetricsTable, metricsJson, type EvalSettings } from './metrics-report.js';
import { formatWeightedTable, readWeights, refusedMetrics, weightedJson } from './weighted-eval.js';

/** Flags that --groups refuses (each names why) and --group-intersections without --groups. */
export function requireGroupCombination(flags: Record<string, unknown> & { groups: readonly string[]; 'group-intersections'?: boolean | undefined }): void {
  if (flags.groups.length === 0) {
    if (flags['group-intersections']) throw new UsageError('--group-intersections needs at least two group columns (--groups FILE with several columns, or --groups repeated)');
    return;
  }
  for (const name of ['model', 'run', 'confidence', 'bootstrap', 'ignore-index', 'reliability', 'nll-clip', 'classwise-separate-one', 'clinical'] as const)
    if (flags[name] !== undefined && flags[name] !== false) throw new UsageError(`--${name} cannot be combined with --groups (it takes --logits, --probs or --positive-probs)`);
}

export interface GroupEvalFlags extends Omit<GroupFlags, 'groups'> {
  groups: readonly string[];
  'group-intersections'?: boolean | undefined;
  weights?: string | undefined;
  adaptive: string;
}

/** `calib eval --groups G [--groups G2 ...] [--group-intersections] [--weights W]`. */
export async function evalGroupsCommand(
  flags: GroupEvalFlags,
  all: { matrix: Matrix; labels: Int32Array },
  settings: EvalSettings,
  argName: string,
  warning: string | undefined,
  io: CliIO,
): Promise<void> {
  const groupOptions = requireGroupFlags({ ...flags, groups: flags.groups[0] });
  const columns = await readGroupColumns(flags.groups, all.matrix.rows, argName);
  if (flags['group-intersections'] && columns.length < 2)
    throw new UsageError(`--group-intersections needs at least two group columns; ${flags.groups.join(', ')} hold${flags.groups.length === 1 ? 's' : ''} one`);
  const weights = flags.weights === undefined ? undefined : await readWeights(flags.weights, all.matrix.rows, argName);
  const options = { ...groupOptions, weights, intersections: flags['group-intersections'] === true };
  const single = columns.length === 1 ? evaluateGroups(all.matrix, all.labels, columns[0]!.groups, settings, options) : undefined;
  const several = single ? undefined : evaluateGroupColumns(all.matrix, all.labels, columns, settings, options);
  const groupsJson = () => (single ? groupJson(single, settings) : groupColumnsJson(several!, settings));
  const writeGroups = () => (single ? writeGroupTable(single, io) : writeGroupColumnsTable(several!, io));
  if (warning) io.stderr.write(warning);
  const from = columns.length === 1 ? `groups from ${flags.groups[0]}` : `group columns ${columns.map((c) => c.name).join(', ')} from ${flags.groups.join(', ')}`;
  if (weights) {
    const refused = refusedMetrics(settings);
    const overall = evaluateWeighted(all.matrix, all.labels, weights, settings);
    requireFiniteValues(overall.values, argName, 'predictions with finite metrics');
    if (flags.json)
      return void io.stdout.write(`${JSON.stringify({ ...weightedJson(overall, { input: settings.input, adaptive: flags.adaptive, weightsFile: flags.weights! }, refused), ...groupsJson() })}\n`);
    io.stdout.write(
      `${overall.n.toLocaleString('en-US')} samples, ${settings.classes} classes, ${from}; weights from ${flags.weights} (Σ w = ${overall.weightSum.toPrecision(6)}, ` +
        `effective N = ${overall.effectiveN.toPrecision(6)}; per group the weighted metrics, sizes Σ w); ${overall.bins} bins ${overall.convention}\n\n`,
    );
    io.stdout.write(formatWeightedTable(overall));
    io.stdout.write(`\nnot weighted (weights refused): ${Object.keys(refused).join(', ')}\n`);
    writeGroups();
    return;
  }
  const { metrics: overall } = await evaluateChunks([{ offset: 0, ...all }], settings);
  if (flags.json) return void io.stdout.write(`${JSON.stringify({ ...metricsJson(overall, settings), ...groupsJson() })}\n`);
  io.stdout.write(`${overall.n.toLocaleString('en-US')} samples, ${settings.classes} classes, ${from}; ${overall.bins} bins ${overall.convention}\n\n`);
  io.stdout.write(formatMetricsTable(overall));
  writeGroups();
}
