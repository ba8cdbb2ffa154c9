/**
 * `calib plot --logit-scale`: the calibration plot of clinical reporting — the reliability diagram's bins drawn on
 * logit axes (src/report/logit-axis.ts) by the same renderer (`scale: 'logit'`). The risk p and outcome y are those
 * of `calib eval --clinical` (src/cli/eval/clinical-eval.ts `riskOf`): p of --positive-probs against the 0/1 labels; the
 * class-1 probability of two-column --probs/--logits against label = 1; the top-label confidence against
 * correctness otherwise.
 */
import { reliabilityDiagram } from '../metrics/index.js';
import { reliabilityDiagramSvg } from '../report/index.js';
import { logitPoints } from '../report/logit-axis.js';
import { invalidArgument } from '../util/errors.js';
import { UsageError } from './args.js';
import { readBinaryInputs } from './binary-inputs.js';
import { riskOf } from './eval/clinical-eval.js';
import type { CliIO } from './command.js';
import { percent } from './format-table.js';
import { logitsWarning, openPredictionsAndLabels, readAll, validatedChunks } from './inputs.js';
import { type PlotFlags, writePlot } from './plot-flags.js';

export const LOGIT_SCALE_DESCRIPTION = [
  '--logit-scale: the calibration plot on logit axes, as clinical calibration plots draw it: one point per non-empty',
  'equal-width bin at x = logit(mean predicted probability), y = logit(observed frequency), with the identity line.',
  'The risk is that of calib eval --clinical: p of --positive-probs against 0/1 --labels; the class-1 probability of',
  'two-column --probs/--logits; the top-label confidence against correctness otherwise. A bin of n rows whose',
  'frequency (or mean prediction) is 0 or 1 has an infinite logit: it is clipped to [0.5/n, 1 − 0.5/n] (half an',
  'event of continuity correction) and drawn hollow; the caption under the axes says so. Only the reliability',
  'diagram has this form: --figure other than diagram, --calibrator and --multilabel are refused.',
];

/** Refuse what has no logit-scale form (before any file is read). */
export function requireLogitScaleFlags(flags: PlotFlags): void {
  if (flags.figure !== undefined && flags.figure !== 'diagram')
    invalidArgument('--figure', "'diagram' (or none) with --logit-scale: only the reliability diagram has a logit-scale form", `'${flags.figure}'`);
  if (flags.calibrator !== undefined) throw new UsageError('--logit-scale cannot be combined with --calibrator (draw the calibrated predictions with calib apply, then plot them)');
  if (flags.multilabel) throw new UsageError('--logit-scale cannot be combined with --multilabel');
  const sources = [flags.logits, flags.probs, flags['positive-probs']].filter((f) => f !== undefined);
  if (sources.length !== 1) throw new UsageError('give one of --logits, --probs or --positive-probs with --logit-scale');
}

/** Draw the logit-scale calibration plot of the inputs into flags.out. */
export async function plotLogitScale(flags: PlotFlags, io: CliIO): Promise<void> {
  let p: Float64Array;
  let y: Uint8Array;
  let risk: string;
  if (flags['positive-probs'] !== undefined) {
    ({ p, y } = await readBinaryInputs(flags['positive-probs'], flags.labels, flags['label-column']));
    risk = 'p (--positive-probs)';
  } else {
    const { predictions, labels } = await openPredictionsAndLabels(flags);
    const all = await readAll(validatedChunks(predictions, labels), predictions.source.rows, predictions.source.cols);
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    ({ p, y } = riskOf(all.matrix, all.labels, predictions.kind));
    risk = predictions.source.cols === 2 ? 'the class-1 probability' : 'the top-label confidence';
  }
  const binary = risk !== 'the top-label confidence';
  const data = reliabilityDiagram(p, y, { bins: flags.bins, convention: flags.convention });
  const svg = reliabilityDiagramSvg(data, {
    title: flags.title ?? 'Calibration (logit scale)',
    scale: 'logit',
    axisLabels: binary ? { x: 'predicted probability', y: 'observed frequency' } : { x: 'confidence', y: 'accuracy' },
  });
  await writePlot(flags, svg);
  const points = logitPoints(data);
  const clipped = points.filter((q) => q.clipped).length;
  io.stdout.write(
    `wrote logit-scale calibration plot of ${risk}, ${data.total.toLocaleString('en-US')} samples ` +
      `(ECE ${percent(data.ece)}%, ${points.length} non-empty of ${data.bins.length} bins ${data.convention}, ${clipped} clipped to [0.5/n, 1 − 0.5/n]) -> ${flags.out}\n`,
  );
}
