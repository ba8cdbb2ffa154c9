import { readMatrixFile } from '../../io/read-predictions.js';
import { writeMatrixFile } from '../../io/write-predictions.js';
import { MULTILABEL_METRICS, multilabelMetrics, requireMultilabelTargets, type MultilabelResult } from '../../metrics/multilabel.js';
import { fitMultilabel, isMultilabelJSON, multilabelFromJSON, type MultilabelCalibrator } from '../../posthoc/composite/multilabel-calibrator.js';
import type { CalibratorKind } from '../../posthoc/index.js';
import { readInputText } from '../../io/input-file.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import { InvalidArgumentError, invalidArgument } from '../../util/errors.js';
import { matrix, type Matrix } from '../../util/matrix.js';
import { extname } from 'node:path';
import { parseNumericCsv } from '../../io/csv.js';
import { UsageError } from '../args.js';
import type { CliIO } from '../command.js';
import { fixed, formatTable, percent } from '../format-table.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { jsonNumber } from '../../report/metrics-json.js';
import { flag } from '../flag.js';
import { boolean, optional } from '../../util/schema.js';

/**
 * `--multilabel` of `calib eval`, `calib fit` and `calib apply`: N × L independent sigmoid logits (`--logits`) or
 * probabilities (`--probs`) with N × L 0/1 `--labels`; per-label binary metrics and their macro / micro /
 * support-weighted means (metrics/multilabel.ts), per-label calibrators saved as one JSON
 * (posthoc/composite/multilabel-calibrator.ts).
 */

export const MULTILABEL_FLAG = {
  multilabel: flag(optional(boolean(), false, 'N × L independent sigmoid logits/probabilities with N × L 0/1 --labels (per-label binary calibration)')),
} as const;

interface InputFlags {
  logits?: string | undefined;
  probs?: string | undefined;
  labels?: string | undefined;
}

export interface MultilabelInputs {
  readonly predictions: Matrix;
  readonly kind: 'logits' | 'probabilities';
  readonly argName: '--logits' | '--probs';
  readonly targets: Uint8Array;
}

/**
 * The N × L 0/1 labels: CSV rows such as "1,0" are read as two cells (the decimal-comma guard of prediction CSVs
 * would take them for one number 1,0), other formats as any prediction matrix.
 */
async function readLabelMatrix(path: string): Promise<Matrix> {
  if (extname(path).toLowerCase() !== '.csv') return readMatrixFile(path, '--labels');
  const table = parseNumericCsv(await readInputText({ argName: '--labels', path }), { argName: '--labels', path }, { splitDecimals: false });
  return matrix(table.rows, table.cols, Float64Array.from(table.data));
}

/** Read --logits/--probs N × L and --labels N × L (0/1). */
export async function readMultilabelInputs(flags: InputFlags): Promise<MultilabelInputs> {
  if ((flags.logits === undefined) === (flags.probs === undefined)) throw new UsageError('--multilabel: give the predictions with --logits FILE or --probs FILE (N × L)');
  if (flags.labels === undefined) throw new UsageError('--multilabel: give --labels FILE (N × L of 0/1)');
  const kind = flags.logits !== undefined ? 'logits' : 'probabilities';
  const argName = kind === 'logits' ? '--logits' : '--probs';
  const predictions = await readMatrixFile((flags.logits ?? flags.probs)!, argName);
  const labels = await readLabelMatrix(flags.labels);
  const targets = requireMultilabelTargets(labels, predictions.rows, predictions.cols, '--labels');
  for (let i = 0; i < predictions.data.length; i++) {
    const v = predictions.data[i]!;
    const where = `row ${Math.floor(i / predictions.cols)}, label ${i % predictions.cols}`;
    if (!Number.isFinite(v)) invalidArgument(argName, 'finite values', `${v} at ${where}`);
    if (kind === 'probabilities' && !(v >= 0 && v <= 1)) invalidArgument(argName, 'probabilities in [0, 1] (one independent sigmoid per label)', `${v} at ${where}`);
  }
  return { predictions, kind, argName, targets };
}

/** The --json object: per-label results under `labels`, the three means, and the settings. */
export function multilabelJson(result: MultilabelResult, input: string): Record<string, unknown> {
  const clean = (v: Record<string, number>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonNumber(x)]));
  return {
    n: result.n,
    num_labels: result.labels.length,
    input,
    bins: result.bins,
    labels: result.labels.map((l) => clean(l as unknown as Record<string, number>)),
    macro: clean(result.macro),
    micro: clean(result.micro),
    weighted: clean(result.weighted),
  };
}

/** `calib eval --multilabel`. */
export async function evalMultilabel(flags: InputFlags & { bins: number; json?: boolean | undefined }, io: CliIO): Promise<void> {
  const inputs = await readMultilabelInputs(flags);
  const result = multilabelMetrics(inputs.predictions, inputs.kind, inputs.targets, { bins: flags.bins });
  if (flags.json) return void io.stdout.write(`${JSON.stringify(multilabelJson(result, inputs.kind))}\n`);
  const show = (v: Record<string, number>) => [percent(v['ece']!), percent(v['smooth_ece']!), fixed(v['brier']!), fixed(v['nll']!)];
  const rows = [
    ...result.labels.map((l) => [String(l.label), String(l.support), ...show(l as unknown as Record<string, number>)]),
    ['macro', '', ...show(result.macro)],
    ['micro', '', ...show(result.micro)],
    ['weighted', '', ...show(result.weighted)],
  ];
  io.stdout.write(
    `${result.n.toLocaleString('en-US')} samples × ${result.labels.length} labels, ${inputs.kind} from ${flags.logits ?? flags.probs}; ` +
      `binary ECE (torchmetrics, ${result.bins} bins) and smooth ECE in %\n\n` +
      formatTable(['label', 'support', 'ECE', 'smooth ECE', 'Brier', 'NLL'], rows) +
      `\nmacro: mean over labels; micro: all ${(result.n * result.labels.length).toLocaleString('en-US')} (sample, label) pairs pooled; weighted: by support (positives)\n`,
  );
}

/** `calib fit --multilabel --method M`: one calibrator per label, saved as one JSON. */
export async function fitMultilabelCommand(flags: InputFlags & { method: string; out: string; options: Record<string, unknown>; bins: number }, io: CliIO): Promise<void> {
  await requireOutputPath(flags.out, '--out', [
    { argName: '--logits', path: flags.logits },
    { argName: '--probs', path: flags.probs },
    { argName: '--labels', path: flags.labels },
  ]);
  const inputs = await readMultilabelInputs(flags);
  const calibrator = fitMultilabel(flags.method as CalibratorKind, inputs.predictions, inputs.kind, inputs.targets, flags.options);
  const before = multilabelMetrics(inputs.predictions, inputs.kind, inputs.targets, { bins: flags.bins });
  const after = multilabelMetrics(calibrator.apply(inputs.predictions, inputs.kind, inputs.argName), 'probabilities', inputs.targets, { bins: flags.bins });
  await writingOutput(flags.out, '--out', () => atomicWriteFile(flags.out, `${JSON.stringify(calibrator.toJSON(), null, 2)}\n`));
  io.stdout.write(
    `fitted ${flags.method} on each of ${calibrator.labels} labels (${inputs.predictions.rows.toLocaleString('en-US')} samples) -> ${flags.out}; ` +
      `on the fitting data: macro NLL ${before.macro.nll.toFixed(4)} -> ${after.macro.nll.toFixed(4)}, macro ECE ${percent(before.macro.ece)}% -> ${percent(after.macro.ece)}%\n`,
  );
}

/** A multi-label calibrator from --calibrator, or undefined for any other calibrator JSON (read by readCalibratorFile). */
export async function readMultilabelCalibrator(path: string): Promise<MultilabelCalibrator | undefined> {
  let json: unknown;
  try {
    json = JSON.parse(await readInputText({ argName: '--calibrator', path }));
  } catch {
    return undefined; // not JSON: readCalibratorFile reports it
  }
  if (!isMultilabelJSON(json)) return undefined;
  try {
    return multilabelFromJSON(json);
  } catch (error) {
    if (error instanceof InvalidArgumentError) invalidArgument('--calibrator', 'a multi-label calibrator JSON file (from calib fit --multilabel)', `${JSON.stringify(path)} with ${error.message}`);
    throw error;
  }
}

/** `calib apply --calibrator MULTILABEL.json`: calibrated N × L probabilities. */
export async function applyMultilabel(
  calibrator: MultilabelCalibrator,
  flags: { logits?: string | undefined; probs?: string | undefined; out: string; dtype: string; output: string },
  io: CliIO,
): Promise<void> {
  if (flags.output !== 'probs') invalidArgument('--output', "'probs' for a multi-label calibrator", `'${flags.output}'`);
  if ((flags.logits === undefined) === (flags.probs === undefined)) throw new UsageError('give the predictions with --logits FILE or --probs FILE (N × L)');
  const kind = flags.logits !== undefined ? 'logits' : 'probabilities';
  const argName = kind === 'logits' ? '--logits' : '--probs';
  const predictions = await readMatrixFile((flags.logits ?? flags.probs)!, argName);
  const out = calibrator.apply(predictions, kind, argName);
  const dtype = flags.dtype as 'float32' | 'float64';
  await writingOutput(flags.out, '--out', () => writeMatrixFile(flags.out, out, { dtype, key: 'probs', argName: '--out' }));
  io.stdout.write(
    `applied multilabel ${calibrator.method} to ${predictions.rows.toLocaleString('en-US')} × ${predictions.cols} ${kind} -> ${flags.out} (calibrated probabilities per label, ${dtype})\n`,
  );
}

export { MULTILABEL_METRICS };
