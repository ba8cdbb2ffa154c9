import { selectCalibrator, selectionJson, type Predictions, type SelectionMetric } from '../../posthoc/index.js';
import { requireBins } from '../../metrics/index.js';
import { defineCommand } from '../command.js';
import { candidateList, formatSelection, SELECTION_FLAGS, WEIGHT_FLAGS, weightsFromFlags } from '../fit-selection.js';
import { LABEL_FLAGS, logitsWarning, openPredictionsAndLabels, PREDICTION_FLAGS, readAll, validatedChunks } from '../inputs.js';
import { fitWithProgress } from '../work-progress.js';
import { flag } from '../flag.js';
import { boolean, number, optional } from '../../util/schema.js';

/**
 * `calib compare`: the out-of-fold ranking of `calib fit --method auto` (posthoc/composite/auto-select.ts) without saving a
 * calibrator: every applicable method (or --candidates) fitted on K − 1 stratified folds of the validation rows and
 * scored on the held-out fold, ranked by --metric with a paired bootstrap of each difference to the best.
 */
export const compareCommand = defineCommand({
  name: 'compare',
  summary: 'Rank post-hoc calibrators by their out-of-fold NLL / ECE / Brier on validation predictions (paired bootstrap vs the best).',
  usage: '(--logits FILE | --probs FILE) --labels FILE [--cv K] [--cv-seed S] [--metric nll|ece|brier] [--candidates A,B,...] [--weights FILE | --class-weight balanced] [--json]',
  description:
    'Every applicable calibrator (binary-only methods need 2 classes; with weights, only methods whose fit takes them; matrix, Dirichlet and SMS are ' +
    'skipped above 100 classes and BBQ, ENIR, near-isotonic and Venn-Abers above N × C = 200,000 unless named in --candidates) is fitted on K − 1 ' +
    'stratified folds and applied to the held-out fold. The table lists the out-of-fold NLL, ECE and Brier score, and metric − best metric with its ' +
    'percentile interval from a paired bootstrap over the rows (the same resampled rows for both); "tied" means the interval contains 0. ' +
    'The choice is the simplest tied method by fewest fitted parameters, as calib fit --method auto would choose.',
  examples: [
    'calib compare --logits val-logits.npy --labels val-labels.npy',
    'calib compare --logits val-logits.npy --labels val-labels.npy --cv 10 --metric ece --candidates temperature,vector,isotonic --json',
  ],
  flags: {
    ...PREDICTION_FLAGS,
    ...LABEL_FLAGS,
    cv: flag(optional(number({ integer: true }), 5, 'number of stratified folds'), { valueName: 'K' }),
    'cv-seed': flag(optional(number({ integer: true }), 0, 'seed of the folds and of the bootstrap'), { valueName: 'S' }),
    ...SELECTION_FLAGS,
    ...WEIGHT_FLAGS,
    bins: flag(optional(number({ integer: true }), 15, 'equal-width bins of the ECE')),
    resamples: flag(optional(number({ integer: true, min: 1 }), 200, 'bootstrap resamples of each paired difference'), { valueName: 'B' }),
    level: flag(optional(number({ min: 0, exclusiveMin: true, max: 1, exclusiveMax: true }), 0.95, 'coverage of the bootstrap intervals'), { valueName: 'P' }),
    json: flag(optional(boolean(), false, 'print one JSON object instead of the table')),
  },
  async run(flags, io) {
    requireBins(flags.bins, '--bins');
    const { predictions, labels } = await openPredictionsAndLabels(flags);
    const { rows, cols } = predictions.source;
    const all = await readAll(validatedChunks(predictions, labels), rows, cols);
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    const input: Predictions = predictions.kind === 'logits' ? { logits: all.matrix } : { probabilities: all.matrix };
    const weights = await weightsFromFlags(flags, all.labels, cols, predictions.argName);
    const selection = fitWithProgress(io, 'fitting the candidates out of fold', (onProgress) =>
      selectCalibrator(input, all.labels, {
        metric: flags.metric as SelectionMetric | undefined,
        candidates: candidateList(flags.candidates),
        folds: flags.cv,
        seed: flags['cv-seed'],
        bins: flags.bins,
        resamples: flags.resamples,
        level: flags.level,
        onProgress,
        candidatesArgument: '--candidates',
        foldsArgument: '--cv',
        ...(weights && { sampleWeights: weights.values, weightsKind: weights.kind }),
      }),
    );
    if (flags.json) io.stdout.write(`${JSON.stringify({ rows, classes: cols, ...(weights && { weights: weights.kind }), ...selectionJson(selection) }, null, 2)}\n`);
    else io.stdout.write(formatSelection(selection));
  },
});
