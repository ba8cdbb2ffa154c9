import { extname } from 'node:path';
import { atGridEceEdge, CALIBRATOR_KINDS, CALIBRATORS, fitCalibrator, type CalibratorKind, type Predictions } from '../../posthoc/index.js';
import { evaluate, requireBins } from '../../metrics/index.js';
import { invalidArgument } from '../../util/errors.js';
import { parseKeyValues } from '../args.js';
import { writeCalibratorFile } from '../calibrator-file.js';
import { defineCommand } from '../command.js';
import { calibratorHelp } from '../docs/calibrator-docs.js';
import { requireFiniteValues } from '../finite-output.js';
import { percent } from '../format-table.js';
import { LABEL_FLAGS, logitsWarning, openPredictionsAndLabels, PREDICTION_FLAGS, readAll, validatedChunks } from '../inputs.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { fitWithProgress } from '../work-progress.js';
import { fitLmEval, LM_EVAL_FLAGS } from '../lm-eval-input.js';
import { UsageError } from '../args.js';
import { fitMultilabelCommand, MULTILABEL_FLAG } from '../multilabel-eval.js';

/**
 * `calib fit`: fit a post-hoc calibrator (src/posthoc) on validation predictions and labels and save it as
 * JSON (atomically). Prints one line: the fitted parameter where there is a single one (the temperature), and
 * NLL and ECE before → after on the fitting data.
 */
export const fitCommand = defineCommand({
  name: 'fit',
  summary: 'Fit a post-hoc calibrator (temperature scaling, vector/matrix/Dirichlet, histogram, isotonic, ...) and save it as JSON.',
  usage: '--method METHOD (--logits FILE | --probs FILE) --labels FILE --out FILE [--opt KEY=VALUE ...]',
  description:
    'Fit on a validation split, never on the test split. --lm-eval FILE (a multiple-choice LLM log, see calib eval --help)\n' +
    'fits one temperature over the choices of every question (--method temperature; --lm-eval-score acc_norm for\n' +
    'length-normalised scores); calib eval --lm-eval TEST --calibrator FILE applies it.\n' +
    '--multilabel: N × L sigmoid logits/probabilities and N × L 0/1 labels; each label is fitted as a binary problem\n' +
    '(logit z as the two-class logits [0, z], probability p as [1 − p, p]) with --method, and the L calibrators are\n' +
    'saved as one JSON that calib apply reads.\n' +
    calibratorHelp(),
  examples: [
    'calib fit --method temperature --logits val-logits.npy --labels val-labels.npy --out calibrator.json',
    'calib fit --method dirichlet --probs val-probs.npy --labels val-labels.npy --out dir.json --opt lambda=1e-3',
    'calib fit --method temperature --lm-eval val-samples.jsonl --out lm-ts.json',
    'calib fit --multilabel --method platt --logits val-tag-logits.npy --labels val-tags.npy --out tags-platt.json',
  ],
  flags: {
    method: { type: 'string', required: true, choices: CALIBRATOR_KINDS, description: 'calibration method' },
    ...PREDICTION_FLAGS,
    labels: { ...LABEL_FLAGS.labels, required: false },
    'label-column': LABEL_FLAGS['label-column'],
    ...LM_EVAL_FLAGS,
    ...MULTILABEL_FLAG,
    out: { type: 'string', required: true, valueName: 'FILE', description: 'where to write the calibrator JSON' },
    opt: { type: 'string', multiple: true, valueName: 'KEY=VALUE', description: 'a method option' },
    bins: { type: 'integer', default: 15, description: 'bins of the ECE in the summary line' },
  },
  async run(flags, io) {
    requireBins(flags.bins, '--bins');
    const options = parseKeyValues('opt', flags.opt);
    if (extname(flags.out).toLowerCase() !== '.json') invalidArgument('--out', 'a file ending in .json (the calibrator is written as JSON)', JSON.stringify(flags.out));
    if (flags['lm-eval'] !== undefined) {
      if (flags.logits !== undefined || flags.probs !== undefined || flags.labels !== undefined || (flags.opt ?? []).length > 0)
        throw new UsageError('--lm-eval gives predictions and answers: leave out --logits, --probs, --labels and --opt');
      return fitLmEval({ ...flags, 'lm-eval': flags['lm-eval'] }, io);
    }
    if (flags.multilabel) return fitMultilabelCommand({ ...flags, options }, io);
    if (flags.labels === undefined) throw new UsageError('fit: missing required flag --labels');
    await requireOutputPath(flags.out, '--out', [
      { argName: '--logits', path: flags.logits },
      { argName: '--probs', path: flags.probs },
      { argName: '--labels', path: flags.labels },
    ]);
    const { predictions, labels } = await openPredictionsAndLabels({ ...flags, labels: flags.labels });
    const { rows, cols } = predictions.source;
    if (CALIBRATORS[flags.method as CalibratorKind].classes === 'two' && cols !== 2) {
      invalidArgument(predictions.argName, `2 columns for --method ${flags.method} (binary calibration)`, `${cols} columns`);
    }
    const all = await readAll(validatedChunks(predictions, labels), rows, cols);
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
    const method = flags.method as CalibratorKind;
    const calibrator = fitWithProgress(io, `fitting ${method}`, (onProgress) => fitCalibrator(method, input, all.labels, options as never, { onProgress }));
    requireFiniteValues(calibrator.toJSON(), predictions.argName, 'predictions on which the fitted parameters are finite');
    const before = evaluate(all.matrix, all.labels, { input: predictions.kind, bins: flags.bins });
    const after = evaluate(calibrator.apply(input), all.labels, { input: 'probabilities', bins: flags.bins });
    requireFiniteValues({ nll_before: before.nll, nll_after: after.nll, ece_before: before.ece, ece_after: after.ece }, predictions.argName, 'predictions with finite metrics');
    await writingOutput(flags.out, '--out', () => writeCalibratorFile(flags.out, calibrator));
    const json = calibrator.toJSON();
    const gridEce = method === 'ts-grid-ece' || (method === 'temperature' && (json['settings'] as Record<string, unknown>)['objective'] === 'grid-ece');
    if (gridEce && atGridEceEdge(json['temperature'] as number)) {
      io.stderr.write(
        `calib: warning: the grid-ece temperature T = ${json['temperature']} is an end of the papers' grid 0.1, 0.2, …, 10; ` +
          `the ECE minimum may lie outside it (${method === 'ts-grid-ece' ? '--method temperature' : '--opt objective=nll'} searches T without that limit)\n`,
      );
    }
    const parameter = typeof json['temperature'] === 'number' ? ` (T = ${(json['temperature'] as number).toPrecision(4)})` : '';
    io.stdout.write(
      `fitted ${method}${parameter} on ${rows.toLocaleString('en-US')} samples, ${cols} classes -> ${flags.out}; ` +
        `on the fitting data: NLL ${before.nll.toFixed(4)} -> ${after.nll.toFixed(4)}, ` +
        `ECE ${percent(before.ece)}% -> ${percent(after.ece)}% (${flags.bins} bins)\n`,
    );
  },
});
