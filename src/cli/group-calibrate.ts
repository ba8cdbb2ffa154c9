/**
 * `--groups` of `calib fit` and `calib apply`: group-wise (Mondrian) calibrators (posthoc/groupwise-calibrator.ts).
 * Group ids are read exactly as `calib eval --groups` reads them (group-eval.ts `readGroups`).
 */
import { evaluate } from '../metrics/index.js';
import { writeMatrixFile } from '../io/write-predictions.js';
import { readInputText } from '../io/input-file.js';
import { requirePredictionShape } from '../io/validate.js';
import { DEFAULT_MIN_GROUP_SIZE, fitGroupwise, groupwiseFromJSON, isGroupwiseJSON, type CalibratorKind, type GroupwiseCalibrator, type Predictions } from '../posthoc/index.js';
import { atomicWriteFile } from '../util/atomic-write.js';
import { InvalidArgumentError, invalidArgument, requireNumber } from '../util/errors.js';
import { matrix } from '../util/matrix.js';
import type { FlagSpec } from './args.js';
import type { CliIO } from './command.js';
import { requireFiniteValues } from './finite-output.js';
import { formatTable, percent } from './format-table.js';
import { readGroups, type RowGroups } from './group-eval.js';
import { logitsWarning, openPredictions, openPredictionsAndLabels, readAll, validatedChunks, validatedPredictionChunks } from './inputs.js';
import { requireOutputPath, writingOutput } from './output-path.js';

export const GROUP_FIT_FLAGS = {
  groups: {
    type: 'string',
    valueName: 'FILE',
    description: 'one group id per row (as calib eval --groups reads them): fit --method per group plus a pooled calibrator (group-wise / Mondrian calibration)',
  },
  'min-group-size': {
    type: 'integer',
    valueName: 'K',
    description: `with --groups: smallest group fitted on its own (default ${DEFAULT_MIN_GROUP_SIZE}); smaller groups use the pooled calibrator`,
  },
} as const satisfies Record<string, FlagSpec>;

export const GROUP_APPLY_FLAG = {
  groups: { type: 'string', valueName: 'FILE', description: 'one group id per row: required by a group-wise calibrator (calib fit --groups), refused otherwise' },
} as const satisfies Record<string, FlagSpec>;

export const GROUP_FIT_DESCRIPTION =
  '--groups FILE (group-wise / Mondrian calibration): one group id per row, read as calib eval --groups reads it (.npy/.npz/.safetensors/.json\n' +
  'integers, or one string per line of a .csv/.txt with an optional header). --method is fitted on each group with at least --min-group-size K\n' +
  `rows (default ${DEFAULT_MIN_GROUP_SIZE}) alone, and once on all rows (the pooled calibrator); calib apply --groups calibrates each row by its group's\n` +
  'calibrator, and rows of smaller groups or of groups unseen at fit time by the pooled one (counted, with a warning for unseen groups).\n' +
  'One JSON (kind "groupwise"); calib export refuses it (group ids are not an input of the ONNX model). Not with --method auto, --cv,\n' +
  '--weights / --class-weight, --multilabel or --lm-eval.\n';

/** The id of each row's group. */
function idsPerRow(groups: RowGroups): string[] {
  return Array.from(groups.index, (k) => groups.ids[k]!);
}

interface GroupFitFlags {
  method: string;
  logits?: string | undefined;
  probs?: string | undefined;
  labels?: string | undefined;
  'label-column'?: string | undefined;
  groups: string;
  'min-group-size'?: number | undefined;
  out: string;
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
    ['--weights', flags.weights],
    ['--class-weight', flags['class-weight']],
  ];
  for (const [name, value] of others) if (value !== undefined) invalidArgument(name, 'no such flag with --groups (a group-wise fit is a plain fit per group)', String(value));
  if (flags.method === 'auto') invalidArgument('--method', 'a calibration method with --groups (auto selection per group is not implemented)', "'auto'");
  if (flags.labels === undefined) invalidArgument('--labels', 'the labels of the fitting rows (with --groups)', 'none');
  const minGroupSize = requireNumber('--min-group-size', flags['min-group-size'] ?? DEFAULT_MIN_GROUP_SIZE, { integer: true, min: 1 });
  await requireOutputPath(flags.out, '--out', [
    { argName: '--logits', path: flags.logits },
    { argName: '--probs', path: flags.probs },
    { argName: '--labels', path: flags.labels },
    { argName: '--groups', path: flags.groups },
  ]);
  const { predictions, labels } = await openPredictionsAndLabels({ ...flags, labels: flags.labels });
  const { rows, cols } = predictions.source;
  const all = await readAll(validatedChunks(predictions, labels), rows, cols);
  const warning = logitsWarning(predictions);
  if (warning) io.stderr.write(warning);
  const groups = await readGroups(flags.groups, rows, predictions.argName);
  const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
  const calibrator = fitGroupwise(flags.method as CalibratorKind, input, all.labels, idsPerRow(groups), flags.options as never, { minGroupSize, argName: '--groups' });
  requireFiniteValues(calibrator.toJSON(), predictions.argName, 'predictions on which the fitted parameters are finite');
  const calibrated = calibrator.apply(input, idsPerRow(groups), '--groups');
  const perGroup = groups.ids.map((id, g) => {
    const members: number[] = [];
    groups.index.forEach((k, i) => k === g && members.push(i));
    const pick = (m: { cols: number; data: ArrayLike<number> }) => matrix(members.length, cols, Float64Array.from(members.flatMap((i) => Array.from({ length: cols }, (_, k) => m.data[i * cols + k]!))));
    const y = Int32Array.from(members, (i) => all.labels[i]!);
    const before = evaluate(pick(all.matrix), y, { input: predictions.kind, bins: flags.bins });
    const after = evaluate(pick(calibrated), y, { input: 'probabilities', bins: flags.bins });
    const own = calibrator.groups[g]!.calibrator !== null;
    return { id, rows: members.length, calibrator: own ? 'own' : 'pooled', nll_before: before.nll, nll_after: after.nll, ece_before: before.ece, ece_after: after.ece };
  });
  await writingOutput(flags.out, '--out', () => atomicWriteFile(flags.out, `${JSON.stringify(calibrator.toJSON(), null, 2)}\n`));
  const fitted = perGroup.filter((g) => g.calibrator === 'own').length;
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ method: flags.method, kind: calibrator.kind, out: flags.out, rows, classes: cols, bins: flags.bins, min_group_size: minGroupSize, groups: perGroup }, null, 2)}\n`);
    return;
  }
  io.stdout.write(
    `fitted ${flags.method} on each of ${fitted} of ${groups.ids.length} groups (≥ ${minGroupSize} rows) and on all ${rows.toLocaleString('en-US')} rows (pooled), ${cols} classes -> ${flags.out}\n` +
      `on the fitting data, per group (${flags.bins} bins):\n` +
      formatTable(
        ['group', 'n', 'calibrator', 'NLL before', 'NLL after', 'ECE before (%)', 'ECE after (%)'],
        perGroup.map((g) => [g.id, g.rows.toLocaleString('en-US'), g.calibrator === 'own' ? 'own' : `pooled (< ${minGroupSize} rows)`, g.nll_before.toFixed(4), g.nll_after.toFixed(4), percent(g.ece_before), percent(g.ece_after)]),
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
  flags: { calibrator: string; logits?: string | undefined; probs?: string | undefined; groups?: string | undefined; out: string; dtype: string; output: string },
  io: CliIO,
): Promise<void> {
  if (flags.groups === undefined) {
    invalidArgument('--groups', `a group id per row: ${JSON.stringify(flags.calibrator)} is a group-wise calibrator (calib fit --groups) and calibrates each row by its group's calibrator`, 'no --groups');
  }
  const wantLogits = flags.output === 'logits';
  if (wantLogits && !calibrator.hasLogits) invalidArgument('--output', `'probs' for a group-wise ${calibrator.method} calibrator (it has no calibrated logits)`, "'logits'");
  await requireOutputPath(flags.out, '--out', [{ argName: '--groups', path: flags.groups }]);
  const predictions = await openPredictions(flags);
  const { rows, cols } = predictions.source;
  requirePredictionShape(predictions.argName, rows, cols);
  if (cols !== calibrator.classes) invalidArgument(predictions.argName, `${calibrator.classes} columns (the calibrator was fitted for ${calibrator.classes} classes)`, `${cols}`);
  const all = await readAll(validatedPredictionChunks(predictions), rows, cols);
  const groups = await readGroups(flags.groups, rows, predictions.argName);
  const ids = idsPerRow(groups);
  const routing = calibrator.route(ids, '--groups');
  const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
  const out = wantLogits ? calibrator.applyLogits(input, ids, '--groups') : calibrator.apply(input, ids, '--groups');
  const dtype = flags.dtype as 'float32' | 'float64';
  for (let i = 0; i < out.data.length; i++) {
    const v = out.data[i]!;
    if (!Number.isFinite(v) || (dtype === 'float32' && !Number.isFinite(Math.fround(v))))
      invalidArgument(Number.isFinite(v) ? '--dtype' : '--calibrator', Number.isFinite(v) ? "float64 for values beyond float32's range (±3.4e38)" : 'a calibrator that gives finite outputs on these inputs', `${v} at row ${Math.floor(i / cols)}, column ${i % cols}`);
  }
  await writingOutput(flags.out, '--out', () => writeMatrixFile(flags.out, out, { dtype, key: wantLogits ? 'logits' : 'probs', argName: '--out' }));
  const warning = logitsWarning(predictions);
  if (warning) io.stderr.write(warning);
  if (routing.unseenRows > 0) {
    const shown = routing.unseenGroups.slice(0, 5).map((id) => JSON.stringify(id)).join(', ');
    const more = routing.unseenGroups.length > 5 ? `, … (${routing.unseenGroups.length} in all)` : '';
    io.stderr.write(
      `calib: warning: ${routing.unseenRows.toLocaleString('en-US')} row${routing.unseenRows === 1 ? '' : 's'} of ${routing.unseenGroups.length} group${routing.unseenGroups.length === 1 ? '' : 's'} not seen at fit time (${shown}${more}) ` +
        'calibrated by the pooled calibrator\n',
    );
  }
  io.stdout.write(
    `applied group-wise ${calibrator.method} to ${rows.toLocaleString('en-US')} × ${cols} ${predictions.kind} -> ${flags.out} (calibrated ${wantLogits ? 'logits' : 'probabilities'}, ${dtype}); ` +
      `${routing.ownRows.toLocaleString('en-US')} rows by their group's calibrator, ${routing.smallGroupRows.toLocaleString('en-US')} of groups below ${calibrator.minGroupSize} fitting rows and ` +
      `${routing.unseenRows.toLocaleString('en-US')} of unseen groups by the pooled one\n`,
  );
}
