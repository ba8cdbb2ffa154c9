/**
 * `--groups` of `calib fit` and `calib apply`: group-wise (Mondrian) calibrators (posthoc/composite/groupwise-calibrator.ts).
 * Group ids are read exactly as `calib eval --groups` reads them (group-eval.ts `readGroups`).
 */
import { evaluate } from '../metrics/index.js';
import { writeMatrixFile } from '../io/write-predictions.js';
import { readInputText } from '../io/input-file.js';
import { requirePredictionShape } from '../io/validate.js';
import { DEFAULT_MIN_GROUP_SIZE, fitGroupwise, groupwiseFromJSON, isGroupwiseJSON, requireWeightedMethod, type CalibratorKind, type GroupwiseCalibrator, type Predictions } from '../posthoc/index.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { InvalidArgumentError, invalidArgument, requireNumber } from '../util/errors.js';
import { matrix } from '../util/matrix.js';
import type { Flag } from './flag.js';
import type { CliIO } from './command.js';
import { requireFiniteValues } from './finite-output.js';
import { formatTable, percent } from './format-table.js';
import { idsPerRow, intersectionGroups, readGroupColumns, type GroupColumn } from './eval/group-columns.js';
import { weightsFromFlags } from './fit-selection.js';
import { logitsWarning, openPredictions, openPredictionsAndLabels, readAll, validatedChunks, validatedPredictionChunks } from './inputs.js';
import { requireOutputPath, writingOutput } from './output-path.js';
import { flag } from './flag.js';
import { described, number, optional, string } from '../util/schema.js';

export const GROUP_FIT_FLAGS = {
  groups: flag(
    described(
      string(),
      'group ids per row (as calib eval --groups reads them; several columns: their intersection cells): fit --method per group plus a pooled calibrator (group-wise / Mondrian calibration)',
    ),
    { repeatable: true, valueName: 'FILE' },
  ),
  'min-group-size': flag(
    described(
      optional(number({ integer: true })),
      `with --groups: smallest group (cell) fitted on its own (default ${DEFAULT_MIN_GROUP_SIZE}); smaller ones, and those whose own fit fails, use the pooled calibrator`,
    ),
    { valueName: 'K' },
  ),
} as const satisfies Record<string, Flag>;

export const GROUP_APPLY_FLAG = {
  groups: flag(described(string(), 'group ids per row, the same columns as at fit time: required by a group-wise calibrator (calib fit --groups), refused otherwise'), {
    repeatable: true,
    valueName: 'FILE',
  }),
} as const satisfies Record<string, Flag>;

export const GROUP_FIT_DESCRIPTION =
  '--groups FILE (group-wise / Mondrian calibration): one group id per row, read as calib eval --groups reads it (.npy/.npz/.safetensors/.json\n' +
  'integers, or one string per line of a .csv/.txt with an optional header). Several columns (a .npy N × K, a CSV with K columns, or --groups\n' +
  "repeated): the groups are their intersection cells ('north × phone'). --method is fitted on each group with at least --min-group-size K\n" +
  `rows (default ${DEFAULT_MIN_GROUP_SIZE}) alone, and once on all rows (the pooled calibrator). A group below K rows, or whose own fit fails (e.g.\n` +
  'temperature scaling on rows that are all correct: the NLL has no minimum) or gives non-finite parameters, falls back to the pooled\n' +
  'calibrator; the JSON records each fallback and its reason (groups[].fallback), and the summary names them. calib apply --groups (the same\n' +
  "columns) calibrates each row by its group's calibrator, and rows of fallen-back groups or of groups unseen at fit time by the pooled one\n" +
  "(counted, with a warning for unseen groups). --weights FILE / --class-weight balanced: every fit (each group's and the pooled one) is\n" +
  'weighted by its rows\' weights (methods without a weighted form refused). One JSON (kind "groupwise"); calib export refuses it (group ids are\n' +
  'not an input of the ONNX model). Not with --method auto, --cv, --multilabel or --lm-eval.\n';

/** The groups of the --groups columns: the only column, or the intersection cells of several. */
async function readCells(paths: readonly string[], rows: number, predictionsArg: string): Promise<{ columns: GroupColumn[]; cells: GroupColumn }> {
  const columns = await readGroupColumns(paths, rows, predictionsArg);
  return { columns, cells: intersectionGroups(columns) };
}

interface GroupFitFlags {
  method: string;
  logits?: string | undefined;
  probs?: string | undefined;
  labels?: string | undefined;
  'label-column'?: string | undefined;
  groups: readonly string[];
  'min-group-size'?: number | undefined;
  out: string;
  'cv-seed'?: number | undefined;
  'cv-ensemble'?: boolean | undefined;
  metric?: string | undefined;
  candidates?: string | undefined;
  options: Record<string, unknown>;
  bins: number;
  json?: boolean | undefined;
  cv?: number | undefined;
  weights?: string | undefined;
  'class-weight'?: string | undefined;
  multilabel?: boolean | undefined;
  'lm-eval'?: string | undefined;
}

/** `calib fit --groups G --method M`: one calibrator per group plus the pooled one, saved as one JSON. */
export async function fitGroupwiseCommand(flags: GroupFitFlags, io: CliIO): Promise<void> {
  const others: [string, unknown][] = [
    ['--lm-eval', flags['lm-eval']],
    ['--multilabel', flags.multilabel || undefined],
    ['--cv', flags.cv],
    ['--cv-seed', flags['cv-seed']],
    ['--cv-ensemble', flags['cv-ensemble'] || undefined],
    ['--metric', flags.metric],
    ['--candidates', flags.candidates],
  ];
  for (const [name, value] of others) if (value !== undefined) invalidArgument(name, 'no such flag with --groups (a group-wise fit is a plain fit per group)', String(value));
  if (flags.weights !== undefined || flags['class-weight'] !== undefined) requireWeightedMethod(flags.method, flags.weights !== undefined ? '--weights' : '--class-weight');
  if (flags.method === 'auto') invalidArgument('--method', 'a calibration method with --groups (auto selection per group is not implemented)', "'auto'");
  if (flags.labels === undefined) invalidArgument('--labels', 'the labels of the fitting rows (with --groups)', 'none');
  const minGroupSize = requireNumber('--min-group-size', flags['min-group-size'] ?? DEFAULT_MIN_GROUP_SIZE, { integer: true, min: 1 });
  await requireOutputPath(flags.out, '--out', [
    { argName: '--logits', path: flags.logits },
    { argName: '--probs', path: flags.probs },
    { argName: '--labels', path: flags.labels },
    ...flags.groups.map((path) => ({ argName: '--groups', path })),
  ]);
  const { predictions, labels } = await openPredictionsAndLabels({ ...flags, labels: flags.labels });
  const { rows, cols } = predictions.source;
  const all = await readAll(validatedChunks(predictions, labels), rows, cols);
  const warning = logitsWarning(predictions);
  if (warning) io.stderr.write(warning);
  const { columns, cells } = await readCells(flags.groups, rows, predictions.argName);
  const groups = cells.groups;
  const weights = await weightsFromFlags(flags, all.labels, cols, predictions.argName);
  const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
  const calibrator = fitGroupwise(flags.method as CalibratorKind, input, all.labels, idsPerRow(groups), flags.options as never, {
    minGroupSize,
    argName: '--groups',
    ...(weights && { sampleWeights: weights.values }),
    ...(columns.length > 1 && { columns: columns.map((c) => c.name) }),
  });
  requireFiniteValues(calibrator.toJSON(), predictions.argName, 'predictions on which the fitted parameters are finite');
  const calibrated = calibrator.apply(input, idsPerRow(groups), '--groups');
  const perGroup = groups.ids.map((id, g) => {
    const members: number[] = [];
    groups.index.forEach((k, i) => k === g && members.push(i));
    const pick = (m: { cols: number; data: ArrayLike<number> }) =>
      matrix(members.length, cols, Float64Array.from(members.flatMap((i) => Array.from({ length: cols }, (_, k) => m.data[i * cols + k]!))));
    const y = Int32Array.from(members, (i) => all.labels[i]!);
    const before = evaluate(pick(all.matrix), y, { input: predictions.kind, bins: flags.bins });
    const after = evaluate(pick(calibrated), y, { input: 'probabilities', bins: flags.bins });
    const member = calibrator.groups.find((m) => m.id === id)!;
    const fallback = member.fallback;
    return {
      id,
      rows: members.length,
      calibrator: fallback ? 'pooled' : 'own',
      ...(fallback && { fallback }),
      nll_before: before.nll,
      nll_after: after.nll,
      ece_before: before.ece,
      ece_after: after.ece,
    };
  });
  await writingOutput(flags.out, '--out', () => atomicWriteFile(flags.out, `${JSON.stringify(calibrator.toJSON(), null, 2)}\n`));
  const fitted = perGroup.filter((g) => g.calibrator === 'own').length;
  const failed = perGroup.filter((g) => g.fallback?.reason === 'fit_failed');
  const weighting = weights && { kind: weights.kind, sum: weights.values.reduce((a, b) => a + b, 0) };
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ method: flags.method, kind: calibrator.kind, out: flags.out, rows, classes: cols, bins: flags.bins, min_group_size: minGroupSize, ...(columns.length > 1 && { group_columns: columns.map((c) => c.name) }), ...(weighting && { weights: weighting }), groups: perGroup }, null, 2)}\n`,
    );
    return;
  }
  const what = columns.length > 1 ? `intersection cells of ${columns.map((c) => c.name).join(' × ')}` : 'groups';
  const weightNote = weighting ? ` with ${weighting.kind === 'balanced' ? 'class-balanced' : 'sample'} weights (sum ${+weighting.sum.toPrecision(6)})` : '';
  io.stdout.write(
    `fitted ${flags.method}${weightNote} on each of ${fitted} of ${groups.ids.length} ${what} (≥ ${minGroupSize} rows) and on all ${rows.toLocaleString('en-US')} rows (pooled), ${cols} classes -> ${flags.out}\n` +
      (failed.length > 0
        ? `${failed.length} group${failed.length === 1 ? '' : 's'} fell back to the pooled calibrator because ${failed.length === 1 ? 'its' : 'their'} own fit failed: ${failed.map((g) => `${JSON.stringify(g.id)} (${g.fallback!.detail})`).join('; ')}\n`
        : '') +
      `on the fitting data, per group (${flags.bins} bins):\n` +
      formatTable(
        ['group', 'n', 'calibrator', 'NLL before', 'NLL after', 'ECE before (%)', 'ECE after (%)'],
        perGroup.map((g) => [
          g.id,
          g.rows.toLocaleString('en-US'),
          g.fallback === undefined ? 'own' : g.fallback.reason === 'too_small' ? `pooled (< ${minGroupSize} rows)` : 'pooled (own fit failed)',
          g.nll_before.toFixed(4),
          g.nll_after.toFixed(4),
          percent(g.ece_before),
          percent(g.ece_after),
        ]),
      ),
  );
}

/** A group-wise calibrator from --calibrator, or undefined for any other calibrator JSON (read by readCalibratorFile). */
export async function readGroupwiseCalibrator(path: string): Promise<GroupwiseCalibrator | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readInputText({ argName: '--calibrator', path }));
  } catch {
    return undefined; // unreadable or not JSON: readCalibratorFile reports it
  }
  if (!isGroupwiseJSON(json)) return undefined;
  try {
    return groupwiseFromJSON(json);
  } catch (error) {
    if (error instanceof InvalidArgumentError) invalidArgument('--calibrator', 'a group-wise calibrator JSON file (from calib fit --groups)', `${JSON.stringify(path)} with ${error.message}`);
    throw error;
  }
}

/** `calib apply --calibrator GROUPWISE.json --groups G`: each row calibrated by its group's calibrator. */
export async function applyGroupwise(
  calibrator: GroupwiseCalibrator,
  flags: { calibrator: string; logits?: string | undefined; probs?: string | undefined; groups: readonly string[]; out: string; dtype: string; output: string },
  io: CliIO,
): Promise<void> {
  if (flags.groups.length === 0) {
    invalidArgument(
      '--groups',
      `a group id per row: ${JSON.stringify(flags.calibrator)} is a group-wise calibrator (calib fit --groups) and calibrates each row by its group's calibrator`,
      'no --groups',
    );
  }
  const wantLogits = flags.output === 'logits';
  if (wantLogits && !calibrator.hasLogits) invalidArgument('--output', `'probs' for a group-wise ${calibrator.method} calibrator (it has no calibrated logits)`, "'logits'");
  await requireOutputPath(
    flags.out,
    '--out',
    flags.groups.map((path) => ({ argName: '--groups', path })),
  );
  const predictions = await openPredictions(flags);
  const { rows, cols } = predictions.source;
  requirePredictionShape(predictions.argName, rows, cols);
  if (cols !== calibrator.classes) invalidArgument(predictions.argName, `${calibrator.classes} columns (the calibrator was fitted for ${calibrator.classes} classes)`, `${cols}`);
  const all = await readAll(validatedPredictionChunks(predictions), rows, cols);
  const { columns, cells } = await readCells(flags.groups, rows, predictions.argName);
  const fitted = calibrator.columns ?? ['one column'];
  if (columns.length !== fitted.length)
    invalidArgument(
      '--groups',
      `${fitted.length} group column${fitted.length === 1 ? '' : 's'}, as at fit time (${calibrator.columns ? calibrator.columns.join(', ') : 'one column'})`,
      `${columns.length} (${columns.map((c) => c.name).join(', ')})`,
    );
  const ids = idsPerRow(cells.groups);
  const routing = calibrator.route(ids, '--groups');
  const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
  const out = wantLogits ? calibrator.applyLogits(input, ids, '--groups') : calibrator.apply(input, ids, '--groups');
  const dtype = flags.dtype as 'float32' | 'float64';
  for (let i = 0; i < out.data.length; i++) {
    const v = out.data[i]!;
    if (!Number.isFinite(v) || (dtype === 'float32' && !Number.isFinite(Math.fround(v))))
      invalidArgument(
        Number.isFinite(v) ? '--dtype' : '--calibrator',
        Number.isFinite(v) ? "float64 for values beyond float32's range (±3.4e38)" : 'a calibrator that gives finite outputs on these inputs',
        `${v} at row ${Math.floor(i / cols)}, column ${i % cols}`,
      );
  }
  await writingOutput(flags.out, '--out', () => writeMatrixFile(flags.out, out, { dtype, key: wantLogits ? 'logits' : 'probs', argName: '--out' }));
  const warning = logitsWarning(predictions);
  if (warning) io.stderr.write(warning);
  if (routing.unseenRows > 0) {
    const shown = routing.unseenGroups
      .slice(0, 5)
      .map((id) => JSON.stringify(id))
      .join(', ');
    const more = routing.unseenGroups.length > 5 ? `, … (${routing.unseenGroups.length} in all)` : '';
    io.stderr.write(
      `calib: warning: ${routing.unseenRows.toLocaleString('en-US')} row${routing.unseenRows === 1 ? '' : 's'} of ${routing.unseenGroups.length} group${routing.unseenGroups.length === 1 ? '' : 's'} not seen at fit time (${shown}${more}) ` +
        'calibrated by the pooled calibrator\n',
    );
  }
  io.stdout.write(
    `applied group-wise ${calibrator.method} to ${rows.toLocaleString('en-US')} × ${cols} ${predictions.kind} -> ${flags.out} (calibrated ${wantLogits ? 'logits' : 'probabilities'}, ${dtype}); ` +
      `${routing.ownRows.toLocaleString('en-US')} rows by their group's calibrator, ${routing.smallGroupRows.toLocaleString('en-US')} of groups below ${calibrator.minGroupSize} fitting rows` +
      `${routing.failedGroupRows > 0 ? `, ${routing.failedGroupRows.toLocaleString('en-US')} of groups whose own fit failed` : ''} and ${routing.unseenRows.toLocaleString('en-US')} of unseen groups by the pooled one\n`,
  );
}
