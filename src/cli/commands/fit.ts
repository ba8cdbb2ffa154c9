import { extname } from 'node:path';
import {
  atGridEceEdge,
  CALIBRATOR_KINDS,
  CALIBRATORS,
  crossValidate,
  fitAuto,
  fitCalibrator,
  fitRecordOf,
  requireWeightedMethod,
  selectionJson,
  type Calibrator,
  type CalibratorKind,
  type Predictions,
  type Selection,
  type SelectionMetric,
} from '../../posthoc/index.js';
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
import { fitLmEval, LM_EVAL_FLAGS } from '../eval/lm-eval-input.js';
import { UsageError } from '../args.js';
import { fitMultilabelCommand, MULTILABEL_FLAG } from '../eval/multilabel-eval.js';
import { candidateList, formatSelection, SELECTION_FLAGS, WEIGHT_FLAGS, weightsFromFlags } from '../fit-selection.js';
import { fitGroupwiseCommand, GROUP_FIT_DESCRIPTION, GROUP_FIT_FLAGS } from '../group-calibrate.js';
import { flag, optionalFlag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

/**
 * `calib fit`: fit a post-hoc calibrator (src/posthoc) on validation predictions and labels and save it as
 * JSON (atomically). Prints one line: the fitted parameter where there is a single one (the temperature), and
 * NLL and ECE before → after on the fitting data.
 */
export const fitCommand = defineCommand({
  name: 'fit',
  summary: 'Fit a post-hoc calibrator (temperature scaling, vector/matrix/Dirichlet, histogram, isotonic, ...) and save it as JSON.',
  usage:
    '--method METHOD|auto (--logits FILE | --probs FILE | --lm-eval FILE) [--labels FILE] --out FILE [--opt KEY=VALUE ...] [--weights FILE | --class-weight balanced] ' +
    '[--cv K [--cv-seed S] [--cv-ensemble]] [--metric nll|ece|brier] [--candidates A,B,...] [--multilabel] [--groups FILE ... [--min-group-size K]] [--json]',
  description:
    'Fit on a validation split, never on the test split. --lm-eval FILE (a multiple-choice LLM log, see calib eval --help)\n' +
    'fits one temperature over the choices of every question (--method temperature; --lm-eval-score acc_norm for\n' +
    'length-normalised scores); calib eval --lm-eval TEST --calibrator FILE applies it.\n' +
    '--multilabel: N × L sigmoid logits/probabilities and N × L 0/1 labels; each label is fitted as a binary problem\n' +
    '(logit z as the two-class logits [0, z], probability p as [1 − p, p]) with --method, and the L calibrators are\n' +
    'saved as one JSON that calib apply reads.\n' +
    'Sample weights (--weights FILE, one weight ≥ 0 per row; or --class-weight balanced, w_i = N / (C · n_{y_i}) as scikit-learn) weight the ' +
    "fit's objective or counts; methods without a weighted form are refused, naming why. The JSON records the weights' kind and sum under fit.weights.\n" +
    '--cv K: stratified, seeded K folds of the validation rows; each fold is calibrated by a fit on the other K − 1, and the out-of-fold NLL, ECE and ' +
    'Brier score are printed and saved (fit.cv); then the method is refitted on all rows, or with --cv-ensemble the K fold calibrators are ' +
    "kept and their probabilities averaged (scikit-learn's ensemble=True; not exportable to ONNX).\n" +
    '--method auto: every applicable method (or --candidates) fitted out of fold (--cv K, default 5), ranked by the held-out --metric ' +
    '(default nll) with a paired bootstrap of the difference to the best; the simplest method tied with the best (fewest fitted parameters) is ' +
    `chosen and refitted; the ranking and the reason are printed and saved (fit.selection). calib compare prints the same table without fitting.\n${GROUP_FIT_DESCRIPTION}${calibratorHelp()}`,
  examples: [
    'calib fit --method temperature --logits val-logits.npy --labels val-labels.npy --out calibrator.json',
    'calib fit --method dirichlet --probs val-probs.npy --labels val-labels.npy --out dir.json --opt lambda=1e-3',
    'calib fit --method vector --logits val-logits.npy --labels val-labels.npy --class-weight balanced --out vector.json',
    'calib fit --method isotonic --probs val-probs.npy --labels val-labels.npy --cv 5 --cv-ensemble --out iso.json',
    'calib fit --method auto --logits val-logits.npy --labels val-labels.npy --metric nll --out auto.json',
    'calib fit --method temperature --lm-eval val-samples.jsonl --out lm-ts.json',
    'calib fit --multilabel --method platt --logits val-tag-logits.npy --labels val-tags.npy --out tags-platt.json',
    'calib fit --method temperature --logits val-logits.npy --labels val-labels.npy --groups val-sites.csv --min-group-size 50 --out per-site-ts.json',
    'calib fit --method temperature --logits val-logits.npy --labels val-labels.npy --groups val-site.csv --groups val-device.csv --weights val-w.npy --out site-device-ts.json',
  ],
  flags: {
    method: flag(described(string([...CALIBRATOR_KINDS, 'auto']), "calibration method, or 'auto' (choose out of fold)")),
    ...PREDICTION_FLAGS,
    labels: optionalFlag(LABEL_FLAGS.labels),
    'label-column': LABEL_FLAGS['label-column'],
    ...LM_EVAL_FLAGS,
    ...MULTILABEL_FLAG,
    ...GROUP_FIT_FLAGS,
    out: flag(described(string(), 'where to write the calibrator JSON'), { valueName: 'FILE' }),
    opt: flag(described(string(), 'a method option'), { repeatable: true, valueName: 'KEY=VALUE' }),
    bins: flag(optional(number({ integer: true }), 15, 'bins of the ECE in the summary line')),
    ...WEIGHT_FLAGS,
    cv: flag(described(optional(number({ integer: true })), 'fit out of fold on K stratified folds and report the held-out metrics (auto: default 5)'), { valueName: 'K' }),
    'cv-seed': flag(described(optional(number({ integer: true })), 'seed of the fold assignment (default 0)'), { valueName: 'S' }),
    'cv-ensemble': flag(optional(boolean(), false, 'keep the K fold calibrators and average their probabilities instead of refitting on all rows')),
    ...SELECTION_FLAGS,
    json: flag(optional(boolean(), false, 'print one JSON object (metrics, weights, cv, selection) instead of the summary lines')),
  },
  async run(flags, io) {
    requireBins(flags.bins, '--bins');
    const options = parseKeyValues('opt', flags.opt);
    if (extname(flags.out).toLowerCase() !== '.json') invalidArgument('--out', 'a file ending in .json (the calibrator is written as JSON)', JSON.stringify(flags.out));
    if (flags.groups.length > 0) return fitGroupwiseCommand({ ...flags, options }, io);
    if (flags['min-group-size'] !== undefined) invalidArgument('--min-group-size', 'only with --groups FILE (a group-wise fit)', String(flags['min-group-size']));
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
    const auto = flags.method === 'auto';
    if (auto && Object.keys(options).length > 0) invalidArgument('--opt', 'no method options with --method auto (each candidate uses its defaults)', JSON.stringify(flags.opt));
    if (!auto && flags.metric !== undefined) invalidArgument('--metric', 'only with --method auto (it ranks the candidates)', JSON.stringify(flags.metric));
    if (!auto && flags.candidates !== undefined) invalidArgument('--candidates', 'only with --method auto', JSON.stringify(flags.candidates));
    if (flags.cv === undefined && !auto && (flags['cv-seed'] !== undefined || flags['cv-ensemble'])) {
      invalidArgument(flags['cv-ensemble'] ? '--cv-ensemble' : '--cv-seed', 'a --cv K fit (out-of-fold folds)', 'no --cv');
    }
    if (!auto && (flags.weights !== undefined || flags['class-weight'] !== undefined)) requireWeightedMethod(flags.method, flags.weights !== undefined ? '--weights' : '--class-weight');
    const { predictions, labels } = await openPredictionsAndLabels({ ...flags, labels: flags.labels });
    const { rows, cols } = predictions.source;
    if (!auto && CALIBRATORS[flags.method as CalibratorKind].classes === 'two' && cols !== 2) {
      invalidArgument(predictions.argName, `2 columns for --method ${flags.method} (binary calibration)`, `${cols} columns`);
    }
    const all = await readAll(validatedChunks(predictions, labels), rows, cols);
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
    const weights = await weightsFromFlags(flags, all.labels, cols, predictions.argName);
    const weighting = weights && { sampleWeights: weights.values, weightsKind: weights.kind };
    let selection: Selection | undefined;
    let calibrator: Calibrator;
    if (auto) {
      ({ calibrator, selection } = fitWithProgress(io, 'choosing a calibrator out of fold', (onProgress) =>
        fitAuto(input, all.labels, {
          metric: flags.metric as SelectionMetric | undefined,
          candidates: candidateList(flags.candidates),
          folds: flags.cv ?? 5,
          seed: flags['cv-seed'] ?? 0,
          bins: flags.bins,
          final: flags['cv-ensemble'] ? 'ensemble' : 'refit',
          onProgress,
          candidatesArgument: '--candidates',
          foldsArgument: '--cv',
          ...weighting,
        }),
      ));
    } else if (flags.cv !== undefined) {
      const method = flags.method as CalibratorKind;
      calibrator = fitWithProgress(io, `fitting ${method} out of fold`, (onProgress) =>
        crossValidate(method, input, all.labels, options as never, {
          folds: flags.cv!,
          seed: flags['cv-seed'] ?? 0,
          final: flags['cv-ensemble'] ? 'ensemble' : 'refit',
          bins: flags.bins,
          onProgress,
          argument: '--cv',
          ...weighting,
        }),
      ).calibrator;
    } else {
      const method = flags.method as CalibratorKind;
      calibrator = fitWithProgress(io, `fitting ${method}`, (onProgress) => fitCalibrator(method, input, all.labels, options as never, { onProgress, ...weighting }));
    }
    const method = (selection?.chosen ?? flags.method) as CalibratorKind;
    requireFiniteValues(calibrator.toJSON(), predictions.argName, 'predictions on which the fitted parameters are finite');
    const before = evaluate(all.matrix, all.labels, { input: predictions.kind, bins: flags.bins });
    const after = evaluate(calibrator.apply(input), all.labels, { input: 'probabilities', bins: flags.bins });
    requireFiniteValues({ nll_before: before.nll, nll_after: after.nll, ece_before: before.ece, ece_after: after.ece }, predictions.argName, 'predictions with finite metrics');
    await writingOutput(flags.out, '--out', () => writeCalibratorFile(flags.out, calibrator));
    const json: Record<string, unknown> = calibrator.kind === 'cv-ensemble' ? { settings: {} } : calibrator.toJSON();
    const record = (calibrator.toJSON()['fit'] ?? {}) as ReturnType<typeof fitRecordOf>;
    if (flags.json) {
      io.stdout.write(
        `${JSON.stringify(
          {
            method: flags.method,
            ...(selection && { chosen: selection.chosen }),
            kind: calibrator.kind,
            out: flags.out,
            rows,
            classes: cols,
            bins: flags.bins,
            fitting_data: { nll_before: before.nll, nll_after: after.nll, ece_before: before.ece, ece_after: after.ece },
            ...(record.weights && { weights: record.weights }),
            ...(record.cv && { cv: record.cv }),
            ...(selection && { selection: selectionJson(selection) }),
          },
          null,
          2,
        )}\n`,
      );
      return;
    }
    const gridEce = method === 'ts-grid-ece' || (method === 'temperature' && (json['settings'] as Record<string, unknown>)['objective'] === 'grid-ece');
    if (gridEce && !flags.json && atGridEceEdge(json['temperature'] as number)) {
      io.stderr.write(
        `calib: warning: the grid-ece temperature T = ${json['temperature']} is an end of the papers' grid 0.1, 0.2, …, 10; ` +
          `the ECE minimum may lie outside it (${method === 'ts-grid-ece' ? '--method temperature' : '--opt objective=nll'} searches T without that limit)\n`,
      );
    }
    const parameter = typeof json['temperature'] === 'number' ? ` (T = ${(json['temperature'] as number).toPrecision(4)})` : '';
    if (selection) io.stdout.write(formatSelection(selection));
    const cv = record.cv as { folds: number; seed: number; final: string; out_of_fold: { nll: number | null; ece: number | null; brier: number | null } } | undefined;
    if (cv) {
      const o = cv.out_of_fold;
      const show = (v: number | null, f: (x: number) => string) => (v === null ? 'n/a' : f(v));
      io.stdout.write(
        `out of fold (${cv.folds} stratified folds, seed ${cv.seed}): NLL ${show(o.nll, (v) => v.toFixed(4))}, ECE ${show(o.ece, (v) => `${percent(v)}%`)}, ` +
          `Brier ${show(o.brier, (v) => v.toFixed(4))}; saved: ${cv.final === 'ensemble' ? `the mean of the ${cv.folds} fold calibrators` : 'refitted on all rows'}\n`,
      );
    }
    const weightNote = record.weights ? ` with ${record.weights.kind === 'balanced' ? 'class-balanced' : 'sample'} weights (sum ${+record.weights.sum.toPrecision(6)})` : '';
    io.stdout.write(
      `fitted ${method}${calibrator.kind === 'cv-ensemble' ? ` (mean of ${cv?.folds} fold calibrators)` : ''}${parameter}${weightNote} on ${rows.toLocaleString('en-US')} samples, ${cols} classes -> ${flags.out}; ` +
        `on the fitting data: NLL ${before.nll.toFixed(4)} -> ${after.nll.toFixed(4)}, ` +
        `ECE ${percent(before.ece)}% -> ${percent(after.ece)}% (${flags.bins} bins)\n`,
    );
  },
});
