import { clippedLogLoss, evaluateParallel, MAX_THREADS, METRIC_NAMES, PARALLEL_MIN_ROWS, requireBins, separateOneClasswiseEce } from '../../metrics/index.js';
import { requireNumber } from '../../util/errors.js';
import { defineCommand, type CliIO } from '../command.js';
import type { Matrix } from '../../util/matrix.js';
import { requireFiniteValues } from '../finite-output.js';
import { WorkProgress } from '../work-progress.js';
import { wrapText } from '../format-table.js';
import { LABEL_FLAGS, logitsWarning, openPredictionsAndLabels, PREDICTION_FLAGS, readAll, readAllShared, validatedChunks } from '../inputs.js';
import { evalModel } from '../eval-model.js';
import { MODEL_INPUT_FLAGS } from '../model-inputs.js';
import { UsageError } from '../args.js';
import { bootstrapAllMetrics, evaluateChunks, MAX_BOOTSTRAP_RESAMPLES, formatMetricsTable, metricsJson, type EvalSettings, type MetricIntervals } from '../metrics-report.js';

/**
 * `calib eval`: every calibration metric of METHODS.md § Metrics for a set of predictions and labels. Inputs
 * are streamed chunk by chunk into the metrics layer's accumulator (only O(N) top-label values are kept), except
 * with --bootstrap, which needs all rows in memory, and with --threads N > 1 on inputs of ≥ PARALLEL_MIN_ROWS rows,
 * which reads all rows into shared memory and evaluates them with the metrics layer's `evaluateParallel`.
 */
export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'Compute every calibration metric (ECE, AdaECE, MCE, NLL, Brier, classwise ECE, KS, ...) of predictions.',
  usage: '(--logits FILE | --probs FILE) --labels FILE [options]  |  (--model FILE | --run DIR) (--dataset NAME | --images DIR | --inputs X.npy --labels FILE) [options]',
  description: [
    'Table values are percentages for calibration errors, accuracy and confidence; NLL, Brier and entropy are plain.',
    'With --json, one JSON object with the metrics as fractions (not %) under snake_case names.',
    "Bins: equal-width; '(l,u]' puts a confidence on an edge in the lower bin (Guo et al., sklearn), '[l,u)' in the",
    'upper one (torchmetrics). Probabilities must be ≥ 0 with rows summing to 1 within 1e-3.',
    `--threads N (N > 1) evaluates inputs of at least ${PARALLEL_MIN_ROWS.toLocaleString('en-US')} rows in N threads: all rows are`,
    'read into shared memory first (N_rows × C × 4 bytes for float32 .npy) instead of being streamed; the metrics are',
    'the same as with one thread (merged in a fixed order).',
    '--bootstrap B (at most 100,000) gives percentile intervals (rows resampled with replacement; progress on stderr). Binned calibration errors are biased',
    'upward, and a resample inherits that bias, so for a small, noisy ECE (marginal and classwise ECE especially) the',
    'interval can lie above the estimate; debiased_ece corrects the bias of the L2 ECE.',
    wrapText(`Metrics (--json keys, in table order): ${METRIC_NAMES.join(', ')}.`),
    'Published conventions (added as extra keys; the defaults above are unchanged): --nll-clip 1e-15 adds nll_clipped',
    "(scikit-learn's log_loss: p clipped to [eps, 1-eps], rows renormalised); --classwise-reduction sum adds",
    'classwise_ece_sum (summed over classes instead of averaged); --classwise-separate-one M adds',
    'classwise_ece_separate_one: M bins [l,u) plus a separate bin for p = 1 (Kull et al. 2019: M = 14, with sum).',
  ].join('\n'),
  examples: [
    'calib eval --logits val-logits.npy --labels val-labels.npy',
    'calib eval --probs probs.csv --labels labels.csv --bins 10 --json',
    'calib eval --logits z.npy --labels y.npy --bootstrap 1000 --seed 1',
    'calib eval --probs big-probs.npy --labels big-labels.npy --threads 2',
    'calib eval --model model.onnx --images photos/ --size 224x224 --mean 0.485,0.456,0.406 --std 0.229,0.224,0.225',
    'calib eval --model model.onnx --dataset fashion-mnist --split test',
    'calib eval --logits test-logits.npy --labels test-labels.npy --nll-clip 1e-15 --classwise-separate-one 14 --classwise-reduction sum',
  ],
  flags: {
    ...PREDICTION_FLAGS,
    ...LABEL_FLAGS,
    labels: { ...LABEL_FLAGS.labels, required: false },
    ...MODEL_INPUT_FLAGS,
    threads: { type: 'integer', default: 1, valueName: 'N', description: `threads for inputs of ≥ ${PARALLEL_MIN_ROWS} rows (1 streams the rows)` },
    'ort-threads': { type: 'integer', default: 2, valueName: 'N', description: 'ONNX Runtime threads of --model / --run' },
    bins: { type: 'integer', default: 15, description: 'number of confidence bins M' },
    convention: { type: 'string', choices: ['(l,u]', '[l,u)'], default: '(l,u]', description: 'which side of each bin is closed' },
    json: { type: 'boolean', description: 'print one JSON object instead of the table' },
    bootstrap: { type: 'integer', valueName: 'B', description: 'add percentile-bootstrap intervals from B resamples' },
    seed: { type: 'integer', default: 0, description: 'seed of the bootstrap resamples' },
    level: { type: 'number', default: 0.95, valueName: 'P', description: 'coverage of the bootstrap intervals' },
    'nll-clip': { type: 'number', valueName: 'EPS', description: "also report nll_clipped: scikit-learn's clipped log-loss (published: 1e-15)" },
    'classwise-reduction': { type: 'string', choices: ['mean', 'sum'], default: 'mean', description: 'sum: also report classwise_ece_sum (Σ over classes)' },
    'classwise-separate-one': { type: 'integer', valueName: 'M', description: 'also report classwise ECE with M [l,u) bins plus a bin for p = 1' },
  },
  async run(flags, io) {
    requireBins(flags.bins, '--bins');
    if (flags.model !== undefined || flags.run !== undefined) return evalModel(flags, io);
    if (flags.labels === undefined) throw new UsageError('eval: missing required flag --labels (or give --model / --run)');
    if (flags.bootstrap !== undefined) requireNumber('--bootstrap', flags.bootstrap, { integer: true, min: 1, max: MAX_BOOTSTRAP_RESAMPLES });
    requireNumber('--level', flags.level, { min: 0, exclusiveMin: true, max: 0.999999 });
    requireNumber('--threads', flags.threads, { integer: true, min: 1, max: MAX_THREADS });
    const { predictions, labels } = await openPredictionsAndLabels({ ...flags, labels: flags.labels });
    const settings: EvalSettings = {
      input: predictions.kind,
      bins: flags.bins,
      convention: flags.convention as EvalSettings['convention'],
      classes: predictions.source.cols,
    };
    const { rows, cols } = predictions.source;
    let metrics;
    let intervals;
    const parallel = flags.threads > 1 && rows >= PARALLEL_MIN_ROWS;
    if (parallel) {
      const all = await readAllShared(validatedChunks(predictions, labels), rows, cols);
      metrics = await evaluateParallel(all.matrix, all.labels, { ...settings, threads: flags.threads });
      if (flags.bootstrap !== undefined)
        intervals = bootstrapWithProgress(all.matrix, all.labels, settings, flags, io);
    } else if (flags.bootstrap !== undefined) {
      const all = await readAll(validatedChunks(predictions, labels), rows, cols);
      ({ metrics } = await evaluateChunks([{ offset: 0, ...all }], settings));
      intervals = bootstrapWithProgress(all.matrix, all.labels, settings, flags, io);
    } else {
      ({ metrics } = await evaluateChunks(validatedChunks(predictions, labels), settings));
    }
    // error_auroc is undefined (null in JSON) when every or no prediction is correct; every other metric is finite.
    const { error_auroc: _undefinedWithoutErrors, ...finiteMetrics } = metrics;
    requireFiniteValues(finiteMetrics, predictions.argName, 'predictions with finite metrics');
    const warning = logitsWarning(predictions);
    if (warning) io.stderr.write(warning);
    const extra = await publishedConventionMetrics(flags, metrics.classwise_ece, rows, cols);
    if (flags.json) {
      io.stdout.write(`${JSON.stringify({ ...metricsJson(metrics, settings, intervals), ...extra })}\n`);
      return;
    }
    const source = flags.logits ?? flags.probs;
    io.stdout.write(
      `${rows.toLocaleString('en-US')} samples, ${cols} classes, ${predictions.kind} from ${source}; ` +
        `${metrics.bins} bins ${metrics.convention}, AdaECE ${metrics.adaptive_binning}, sweep chose ${metrics.sweep_bins} bins` +
        (intervals ? `; ${intervals.resamples} bootstrap resamples, seed ${intervals.seed}` : '') +
        '\n\n',
    );
    io.stdout.write(formatMetricsTable(metrics, intervals));
    for (const [key, value] of Object.entries(extra)) {
      if (typeof value === 'number') io.stdout.write(`${key}: ${value.toPrecision(6)}\n`);
    }
  },
});

/** Bootstrap intervals with progress on stderr when they take more than a few seconds. */
function bootstrapWithProgress(
  matrix: Matrix,
  labels: Int32Array,
  settings: EvalSettings,
  flags: { bootstrap?: number | undefined; seed: number; level: number },
  io: CliIO,
): MetricIntervals {
  const progress = new WorkProgress(io.stderr, 'bootstrap resamples', flags.bootstrap!);
  try {
    return bootstrapAllMetrics(matrix, labels, settings, {
      resamples: flags.bootstrap!,
      seed: flags.seed,
      level: flags.level,
      onProgress: (done) => progress.update(done),
    });
  } finally {
    progress.finish();
  }
}

/**
 * The metrics of the published conventions requested by --nll-clip, --classwise-reduction sum and
 * --classwise-separate-one (they need all rows in memory; the files are read a second time).
 */
async function publishedConventionMetrics(
  flags: { 'nll-clip'?: number; 'classwise-reduction': string; 'classwise-separate-one'?: number },
  classwiseEce: number,
  rows: number,
  cols: number,
): Promise<Record<string, unknown>> {
  const extra: Record<string, unknown> = {};
  const reduction = flags['classwise-reduction'] as 'mean' | 'sum';
  if (reduction === 'sum') extra.classwise_ece_sum = classwiseEce * cols;
  const clip = flags['nll-clip'];
  const separate = flags['classwise-separate-one'];
  if (clip === undefined && separate === undefined) return extra;
  if (clip !== undefined) requireNumber('--nll-clip', clip, { min: 0, exclusiveMin: true, max: 0.5 });
  if (separate !== undefined) requireBins(separate, '--classwise-separate-one');
  const again = await openPredictionsAndLabels(flags as never);
  const all = await readAll(validatedChunks(again.predictions, again.labels), rows, cols);
  if (clip !== undefined) {
    extra.nll_clipped = clippedLogLoss(all.matrix, all.labels, { input: again.predictions.kind, eps: clip });
    extra.nll_clip = clip;
  }
  if (separate !== undefined) {
    extra.classwise_ece_separate_one = separateOneClasswiseEce(all.matrix, all.labels, { input: again.predictions.kind, bins: separate, reduction });
    extra.classwise_separate_one_bins = separate;
  }
  if (reduction === 'sum') extra.classwise_reduction = 'sum';
  return extra;
}
