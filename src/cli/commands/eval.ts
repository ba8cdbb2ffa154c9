import {
  binaryCalibrationError,
  clippedLogLoss,
  calibrationCurve,
  evaluateParallel,
  MAX_THREADS,
  METRIC_NAMES,
  METRICS,
  PARALLEL_MIN_ROWS,
  evaluateWeighted,
  evaluateWeightedTopLabel,
  requireBins,
  topLabel,
  separateOneClasswiseEce,
  smoothEce,
  type CalibrationCurve,
  type MetricDefinition,
} from '../../metrics/index.js';
import { REFINEMENT_SETTINGS, type RefinementSetting } from '../../metrics/calibration-refinement.js';
import { requireNumber } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import { UsageError } from '../args.js';
import { requireReliabilityPath, writeReliability } from '../eval/reliability-output.js';
import {
  bootstrapTopLabel,
  evaluateTopLabel,
  formatTopLabelTable,
  NEEDS_PROBABILITIES,
  readTopLabelInputs,
  TOP_LABEL_FLAGS,
  topLabelJson,
  type TopLabelInputs,
  type TopLabelSettings,
} from '../eval/top-label-eval.js';

import { defineCommand, type CliIO } from '../command.js';
import { requireFiniteValues } from '../finite-output.js';
import { commandProgress } from '../work-progress.js';
import { wrapText } from '../format-table.js';
import { LABEL_FLAGS, logitsWarning, openPredictionsAndLabels, PREDICTION_FLAGS, readAll, readAllShared, validatedChunks, type InputChunk } from '../inputs.js';
import { evalModel } from '../eval/eval-model.js';
import { readBinaryInputs } from '../binary-inputs.js';
import { bootstrapWeighted, bootstrapWeightedTopLabel, formatWeightedTable, readWeights, refusedMetrics, weightedJson } from '../eval/weighted-eval.js';
import { MODEL_INPUT_FLAGS } from '../model-inputs.js';
import { evalLmEval, LM_EVAL_FLAGS, requireLmEvalOnly } from '../eval/lm-eval-input.js';
import { evalMultilabel, MULTILABEL_FLAG } from '../eval/multilabel-eval.js';
import { GROUP_DESCRIPTION, GROUP_FLAGS } from '../eval/group-eval.js';
import { evalGroupsCommand, requireGroupCombination } from '../eval/group-eval-command.js';
import { CLINICAL_DESCRIPTION, CLINICAL_FLAGS, clinicalFor, clinicalJson, riskOf, writeClinicalTable } from '../eval/clinical-eval.js';
import type { ClinicalStatistics } from '../../metrics/clinical/index.js';
import { computeOptIn, evaluateOptIn, TopLabelAccumulator } from '../../metrics/index.js';
import { OPT_IN_DESCRIPTION, OPT_IN_FLAG, optInJson, parseMetricsFlag, writeOptInTable } from '../eval/opt-in-eval.js';
import { bootstrapAllMetrics, evaluateChunks, MAX_BOOTSTRAP_RESAMPLES, formatMetricsTable, metricsJson, type EvalSettings, type MetricIntervals } from '../eval/metrics-report.js';
import { flag, optionalFlag } from '../flag.js';
import { boolean, described, number, optional, string } from '../../util/schema.js';

/**
 * `calib eval`: every calibration metric of METHODS.md § Metrics for a set of predictions and labels. Inputs
 * are streamed chunk by chunk into the metrics layer's accumulator (only O(N) top-label values are kept), except
 * with --bootstrap, which needs all rows in memory, and with --threads N > 1 on inputs of ≥ PARALLEL_MIN_ROWS rows,
 * which reads all rows into shared memory and evaluates them with the metrics layer's `evaluateParallel`.
 */
export const evalCommand = defineCommand({
  name: 'eval',
  summary: 'Compute every calibration metric (ECE, AdaECE, MCE, NLL, Brier, classwise ECE, KS, ...) of predictions.',
  usage:
    '(--logits FILE | --probs FILE | --positive-probs FILE) --labels FILE [options]\n' +
    '       calib eval --confidence FILE (--predicted FILE --labels FILE | --columns SPEC) [options]\n' +
    '       calib eval (--model FILE | --run DIR) (--dataset NAME | --images DIR | --inputs X.npy --labels FILE) [options]',
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
    'Calibration–refinement split (Berta et al. 2025, "Rethinking early stopping: refine, then calibrate"; the',
    'classical split of a proper score, DeGroot & Fienberg 1983, Bröcker 2009): refinement_nll / refinement_brier are',
    'the loss after recalibrating the same predictions on the evaluated rows themselves (temperature scaling fitted',
    'to that loss; --refinement-calibrator isotonic: one-vs-rest isotonic, renormalised), calibration_nll /',
    'calibration_brier = loss − refinement; the _over / _under keys split the calibration term into rows whose',
    'recalibrated top-label confidence is lower (over-confident) or not. Keeps every row: 8·N·C bytes.',
    wrapText(`Metrics (--json keys, in table order): ${METRIC_NAMES.join(', ')}.`),
    'Published conventions (added as extra keys; the defaults above are unchanged): --nll-clip 1e-15 adds nll_clipped',
    "(scikit-learn's log_loss: p clipped to [eps, 1-eps], rows renormalised); --classwise-reduction sum adds",
    'classwise_ece_sum (summed over classes instead of averaged); --classwise-separate-one M adds',
    'classwise_ece_separate_one: M bins [l,u) plus a separate bin for p = 1 (Kull et al. 2019: M = 14, with sum).',
    'Top-label results: --confidence with --predicted and --labels (or one CSV/JSON/npz with --columns naming the',
    'columns) give every metric of the top label; NLL, Brier, classwise/marginal ECE and entropy need every class',
    "probability and are listed as not computable ('not_computable' in --json).",
    'Binary problems: --positive-probs gives one probability per sample for class 1 (labels 0/1); the metrics',
    "are those of the two-column probabilities [1 − p, p], plus binary_ece, torchmetrics' binary calibration",
    'error (equal-width [l,u) bins over p itself, a separate bin for p = 1), and binary_smooth_ece with',
    "binary_smooth_ece_bandwidth, relplot's smECE(p, y) of p itself (smooth_ece stays the top-label one, on",
    'max(p, 1 − p) and correctness).',
    'Formats: .npy (float16/32/64, int8…int64, uint8…uint64), .npz and .safetensors (FILE:NAME picks a member),',
    'CSV, JSON, and - for standard input. PyTorch torch.save files are not read: save with safetensors or NumPy.',
    "--reliability FILE.json|.csv writes the reliability bins (sklearn's calibration_curve: mean predicted and",
    'fraction correct per non-empty bin; --reliability-strategy uniform or quantile) of the top-label confidence',
    '(of p itself with --positive-probs).',
    'Selective prediction (aurc, eaurc, augrc, risk_at_80cov, cov_at_5risk, fpr95) ranks by the confidence; tied',
    'confidences share their errors evenly. The p-values (ks_p, kuiper_p, spiegelhalter_p) test perfect calibration.',
    "--weights FILE: per-row sample weights w ≥ 0 (scikit-learn's sample_weight; one per row, read like --labels):",
    'weighted means Σ w x / Σ w and bins holding weight sums (ECE = Σ_m |Σ_{i∈B_m} w_i (c_i − a_i)| / Σ w); integer',
    'weights equal repeating rows. Weighted: accuracy, nll, brier, ece, ece_l2, adaece, adaece_l2 (equal-mass), mce, oe,',
    'classwise_ece, ks, mean_confidence, mean_entropy, and --reliability (uniform). The rank-based metrics, the tests',
    "and p-values and the debiased estimators (debiased_ece, marginal_ece) refuse weights and are listed in 'not_weighted'",
    'with the reason, as are those not implemented with weights yet. --bootstrap resamples rows with their weights;',
    'with --confidence the weighted top-label metrics are given. The evaluation runs in one thread with all rows in memory.',
    '--lm-eval FILE: a multiple-choice LLM log (lm-evaluation-harness --log_samples JSONL: filtered_resps, target,',
    'arguments; or lighteval / Open LLM Leaderboard details as JSON/JSONL, not parquet). Per question p = softmax(s / T)',
    "over its choices, s the log-likelihoods ('acc') or the log-likelihoods divided by the choice's length in characters",
    "('acc_norm', the harness's normalisation), T = 1 or the temperature of --calibrator (calib fit --lm-eval). Same",
    'number of choices everywhere: every metric; a varying number: the top-label metrics plus NLL and Brier. Adds prr',
    '(prediction-rejection ratio) and auarc (area under the accuracy-rejection curve). Bad records are refused with their line.',
    '--bootstrap B with --lm-eval resamples questions: intervals of every metric (of the top-label metrics, NLL and Brier',
    "when the number of choices varies) and of prr / auarc ('question_bootstrap' in --json), all from the same B draws.",
    '--multilabel: --logits/--probs N × L independent sigmoid outputs and --labels N × L of 0/1: per label the binary ECE',
    "(torchmetrics' binary calibration error, --bins), smooth ECE, Brier and NLL, with their macro mean, micro mean (all",
    "pairs pooled) and support-weighted mean ('labels', 'macro', 'micro', 'weighted' in --json).",
    ...CLINICAL_DESCRIPTION,
    ...OPT_IN_DESCRIPTION,
    ...GROUP_DESCRIPTION,
  ].join('\n'),
  examples: [
    'calib eval --logits val-logits.npy --labels val-labels.npy',
    'calib eval --probs probs.csv --labels labels.csv --bins 10 --json',
    'calib eval --logits z.npy --labels y.npy --bootstrap 1000 --seed 1',
    'calib eval --probs big-probs.npy --labels big-labels.npy --threads 2',
    'calib eval --model model.onnx --images photos/ --size 224x224 --mean 0.485,0.456,0.406 --std 0.229,0.224,0.225',
    'calib eval --model model.onnx --dataset fashion-mnist --split test',
    'calib eval --logits test-logits.npy --labels test-labels.npy --nll-clip 1e-15 --classwise-separate-one 14 --classwise-reduction sum',
    'calib eval --confidence results.csv --columns confidence=conf,predicted=pred,label=gold --json',
    'calib eval --confidence conf.npy --predicted pred.npy --labels y.npy --reliability bins.csv',
    'calib eval --positive-probs flare-probs.csv --labels flares.csv --reliability-strategy quantile --reliability r.json',
    'calib eval --logits outputs.npz:logits --labels outputs.npz:labels --adaptive interp',
    'calib eval --probs probs.npy --labels labels.npy --weights weights.npy --json',
    'calib eval --logits test-logits.npy --labels test-labels.npy --refinement-calibrator isotonic --json',
    'calib eval --lm-eval samples_hellaswag_2024-05-01T12-00-00.jsonl --lm-eval-score acc_norm --json',
    'calib eval --lm-eval test-samples.jsonl --calibrator lm-ts.json --reliability bins.csv',
    'calib eval --multilabel --logits tags-logits.npy --labels tags.npy --json',
    'cat probs.npy | calib eval --probs - --labels y.npy',
    'calib eval --positive-probs risk.csv --labels outcome.csv --clinical --json',
    'calib eval --logits test-logits.npy --labels test-labels.npy --metrics prr,auarc,calibration_slope_error,ici',
    'calib eval --logits test-logits.npy --labels test-labels.npy --groups site.csv --min-group-size 50 --json',
  ],
  flags: {
    ...PREDICTION_FLAGS,
    ...TOP_LABEL_FLAGS,
    'positive-probs': flag(described(optional(string()), 'binary problems: N probabilities of class 1 (labels 0/1)'), { valueName: 'FILE' }),
    labels: optionalFlag(LABEL_FLAGS.labels),
    'label-column': LABEL_FLAGS['label-column'],
    ...MODEL_INPUT_FLAGS,
    threads: flag(optional(number({ integer: true }), 1, `threads for inputs of ≥ ${PARALLEL_MIN_ROWS} rows (1 streams the rows)`), { valueName: 'N' }),
    'ort-threads': flag(optional(number({ integer: true }), 2, 'ONNX Runtime threads of --model / --run'), { valueName: 'N' }),
    bins: flag(optional(number({ integer: true }), 15, 'number of confidence bins M')),
    convention: flag(optional(string(['(l,u]', '[l,u)']), '(l,u]', 'which side of each bin is closed')),
    json: flag(optional(boolean(), false, 'print one JSON object instead of the table')),
    bootstrap: flag(described(optional(number({ integer: true })), 'add percentile-bootstrap intervals from B resamples'), { valueName: 'B' }),
    seed: flag(optional(number({ integer: true }), 0, 'seed of the bootstrap resamples')),
    level: flag(optional(number(), 0.95, 'coverage of the bootstrap intervals'), { valueName: 'P' }),
    'nll-clip': flag(described(optional(number()), "also report nll_clipped: scikit-learn's clipped log-loss (published: 1e-15)"), { valueName: 'EPS' }),
    'classwise-reduction': flag(optional(string(['mean', 'sum']), 'mean', 'sum: also report classwise_ece_sum (Σ over classes)')),
    'classwise-separate-one': flag(described(optional(number({ integer: true })), 'also report classwise ECE with M [l,u) bins plus a bin for p = 1'), { valueName: 'M' }),
    adaptive: flag(optional(string(['equal-mass', 'interp']), 'equal-mass', "AdaECE bins: equal counts, or 'interp' (np.interp edges of the MbLS/ACLS code)")),
    'marginal-binning': flag(optional(string(['equal-width', 'equal-mass']), 'equal-width', 'bins of marginal_ece')),
    'refinement-calibrator': flag(
      optional(
        string([...REFINEMENT_SETTINGS]),
        'temperature',
        "recalibrator of refinement_nll / calibration_nll / refinement_brier / calibration_brier, fitted on the evaluated rows ('none': skip the split, ~20 passes over the rows)",
      ),
    ),
    norm: flag(optional(number(), 2, 'norm p ≥ 1 of the label-binned ECE (ece_lb)'), { valueName: 'P' }),
    'ignore-index': flag(described(optional(number({ integer: true })), 'drop rows whose label is K (e.g. -100 or 255 of dense/segmentation labels)'), { valueName: 'K' }),
    reliability: flag(described(optional(string()), 'write the reliability bins as .json or .csv'), { valueName: 'FILE' }),
    ...LM_EVAL_FLAGS,
    ...MULTILABEL_FLAG,
    calibrator: flag(described(optional(string()), 'with --lm-eval: a temperature calibrator (calib fit --lm-eval) applied to the scores first'), { valueName: 'FILE' }),
    weights: flag(described(optional(string()), 'per-row sample weights ≥ 0 (weighted metrics; the rest are listed as not weighted)'), { valueName: 'FILE' }),
    'reliability-strategy': flag(optional(string(['uniform', 'quantile']), 'uniform', 'equal-width or quantile bins of --reliability (sklearn calibration_curve)')),
    ...CLINICAL_FLAGS,
    ...OPT_IN_FLAG,
    ...GROUP_FLAGS,
  },
  async run(flags, io) {
    requireBins(flags.bins, '--bins');
    const optInNames = parseMetricsFlag(flags.metrics);
    if (optInNames.length > 0) {
      for (const name of ['lm-eval', 'multilabel', 'weights', 'groups', 'model', 'run'] as const)
        if (name === 'groups' ? flags.groups.length > 0 : flags[name] !== undefined && flags[name] !== false)
          throw new UsageError(`--metrics ${optInNames.join(',')} applies to unweighted --logits/--probs/--positive-probs/--confidence inputs, not with --${name}`);
    }
    if (flags['lm-eval'] !== undefined) {
      requireLmEvalOnly({ ...flags, groups: flags.groups.length > 0 ? flags.groups : undefined }, [
        'logits',
        'probs',
        'positive-probs',
        'confidence',
        'predicted',
        'columns',
        'labels',
        'model',
        'run',
        'weights',
        'ignore-index',
        'nll-clip',
        'classwise-separate-one',
        'groups',
      ]);
      if (flags.reliability !== undefined) await requireReliabilityPath(flags.reliability);
      requireNumber('--norm', flags.norm, { min: 1 });
      return evalLmEval(flags, io);
    }
    if (flags.multilabel) {
      for (const name of ['positive-probs', 'confidence', 'model', 'run', 'weights', 'bootstrap', 'ignore-index', 'reliability', 'calibrator', 'nll-clip', 'classwise-separate-one', 'groups'] as const)
        if (name === 'groups' ? flags.groups.length > 0 : flags[name] !== undefined) throw new UsageError(`--${name} cannot be combined with --multilabel`);
      return evalMultilabel(flags, io);
    }
    if (flags.calibrator !== undefined) throw new UsageError('--calibrator applies to --lm-eval inputs (use calib apply for --logits/--probs)');
    if (flags.weights !== undefined && (flags.model !== undefined || flags.run !== undefined))
      throw new UsageError('--weights applies to --logits/--probs/--positive-probs/--confidence inputs, not to --model / --run');
    if (flags.clinical && (flags.model !== undefined || flags.run !== undefined || flags.weights !== undefined))
      throw new UsageError(
        '--clinical applies to unweighted --logits/--probs/--positive-probs/--confidence inputs (not --model, --run or --weights: weighted slope/intercept, Hosmer–Lemeshow, lowess and SKCE are not implemented)',
      );
    requireGroupCombination(flags);
    if (flags.model !== undefined || flags.run !== undefined) return evalModel(flags, io);
    if (flags.bootstrap !== undefined) requireNumber('--bootstrap', flags.bootstrap, { integer: true, min: 1, max: MAX_BOOTSTRAP_RESAMPLES });
    requireNumber('--level', flags.level, { min: 0, exclusiveMin: true, max: 0.999999 });
    requireNumber('--threads', flags.threads, { integer: true, min: 1, max: MAX_THREADS });
    requireNumber('--norm', flags.norm, { min: 1 });
    if (flags.reliability !== undefined) await requireReliabilityPath(flags.reliability);
    const strategy = flags['reliability-strategy'] as 'uniform' | 'quantile';
    const common = {
      bins: flags.bins,
      convention: flags.convention as EvalSettings['convention'],
      adaptive: flags.adaptive as TopLabelSettings['adaptive'],
      labelBinnedP: flags.norm,
    };
    const sources = [flags.logits, flags.probs, flags['positive-probs'], flags.confidence].filter((f) => f !== undefined);
    if (sources.length > 1) throw new UsageError('give one of --logits, --probs, --positive-probs or --confidence');
    if (flags.confidence !== undefined) {
      if (flags['ignore-index'] !== undefined) throw new UsageError('--ignore-index applies to --logits/--probs inputs, not to --confidence');
      const inputs = await readTopLabelInputs({ ...flags, confidence: flags.confidence });
      if (flags.weights !== undefined) return evalWeightedTopLabel(inputs, flags.weights, common, { ...flags, confidence: flags.confidence, strategy }, io);
      const metrics = evaluateTopLabel(inputs, common);
      const intervals =
        flags.bootstrap === undefined
          ? undefined
          : withProgress(io, flags.bootstrap, (onProgress) => bootstrapTopLabel(inputs, common, { resamples: flags.bootstrap!, seed: flags.seed, level: flags.level, onProgress }));
      if (flags.reliability !== undefined) await writeReliability(flags.reliability, calibrationCurve(inputs.confidence, inputs.correct, { bins: flags.bins, strategy }));
      const topClinical = flags.clinical ? clinicalFor(inputs.confidence, inputs.correct, flags, { p: '--confidence', y: '--labels' }) : undefined;
      const topOptIn = optInNames.length > 0 ? evaluateOptIn(inputs.confidence, inputs.correct, optInNames, common) : {};
      if (flags.json) return void io.stdout.write(`${JSON.stringify({ ...topLabelJson(metrics, common, intervals), ...(topClinical ? clinicalJson(topClinical) : {}), ...optInJson(topOptIn) })}\n`);
      io.stdout.write(
        `${metrics.n.toLocaleString('en-US')} samples, top-label results from ${flags.confidence}; ${flags.bins} bins ${flags.convention}` +
          (intervals ? `; ${intervals.resamples} bootstrap resamples, seed ${intervals.seed}` : '') +
          '\n\n',
      );
      io.stdout.write(formatTopLabelTable(metrics, intervals));
      if (topClinical) writeClinicalTable(topClinical, 'the top-label confidence against correctness', io);
      writeOptInTable(topOptIn, io);
      return;
    }
    if (flags.labels === undefined) throw new UsageError('eval: missing required flag --labels (or give --model / --run)');
    const binary = flags['positive-probs'] !== undefined ? await readBinaryInputs(flags['positive-probs'], flags.labels, flags['label-column']) : undefined;
    const { predictions, labels } = binary ? { predictions: undefined, labels: undefined } : await openPredictionsAndLabels({ ...flags, labels: flags.labels });
    const settings: EvalSettings = {
      input: predictions?.kind ?? 'probabilities',
      classes: predictions?.source.cols ?? 2,
      marginalBinning: flags['marginal-binning'] as 'equal-width' | 'equal-mass',
      refinementCalibrator: flags['refinement-calibrator'] as RefinementSetting,
      ...common,
    };
    const { rows, cols } = predictions?.source ?? { rows: binary!.matrix.rows, cols: 2 };
    const ignore = flags['ignore-index'];
    const chunks = (): AsyncIterable<InputChunk> =>
      binary
        ? (async function* () {
            yield binary;
          })()
        : validatedChunks(predictions!, labels!, undefined, ignore);
    if (flags.groups.length > 0) {
      const argName = predictions?.argName ?? '--positive-probs';
      const all = binary ? { matrix: binary.matrix, labels: binary.labels } : await readAll(chunks(), rows, cols);
      const warning = predictions ? logitsWarning(predictions) : undefined;
      return evalGroupsCommand({ ...flags, groups: flags.groups }, all, settings, argName, warning, io);
    }
    if (flags.weights !== undefined) {
      if (ignore !== undefined) throw new UsageError('--weights cannot be combined with --ignore-index (the weights are per row of the file)');
      if (flags['nll-clip'] !== undefined || flags['classwise-separate-one'] !== undefined)
        throw new UsageError('--nll-clip and --classwise-separate-one are not weighted: leave them out with --weights');
      const argName = predictions?.argName ?? '--positive-probs';
      const all = binary ? { matrix: binary.matrix, labels: binary.labels } : await readAll(chunks(), rows, cols);
      const weights = await readWeights(flags.weights, all.matrix.rows, argName);
      const refused = refusedMetrics(settings);
      if (binary) {
        refused['binary_ece'] = 'not implemented with sample weights yet';
        refused['binary_smooth_ece'] = 'not implemented with sample weights yet';
      }
      const result = evaluateWeighted(all.matrix, all.labels, weights, settings);
      requireFiniteValues(result.values, argName, 'predictions with finite metrics');
      const names = Object.keys(result.values) as (keyof typeof result.values)[];
      const weightedIntervals =
        flags.bootstrap === undefined
          ? undefined
          : withProgress(io, flags.bootstrap, (onProgress) =>
              bootstrapWeighted(all.matrix, all.labels, weights, settings, names, { resamples: flags.bootstrap!, seed: flags.seed, level: flags.level, onProgress }),
            );
      if (flags.reliability !== undefined) {
        const top = binary ? { confidence: binary.p, correct: binary.y } : topLabel(all.matrix, all.labels, settings.input);
        await writeReliability(flags.reliability, calibrationCurve(top.confidence, top.correct, { bins: flags.bins, strategy, weights }));
      }
      const weightedWarning = predictions ? logitsWarning(predictions) : undefined;
      if (weightedWarning) io.stderr.write(weightedWarning);
      const sum = flags['classwise-reduction'] === 'sum' ? { classwise_ece_sum: result.values.classwise_ece! * cols, classwise_reduction: 'sum' } : {};
      if (flags.json) {
        const json = { ...weightedJson(result, { input: settings.input, adaptive: flags.adaptive, weightsFile: flags.weights }, refused, weightedIntervals), ...sum };
        return void io.stdout.write(`${JSON.stringify(json)}\n`);
      }
      const source = flags.logits ?? flags.probs ?? flags['positive-probs'];
      io.stdout.write(
        `${result.n.toLocaleString('en-US')} samples, ${cols} classes, ${binary ? 'positive-class probabilities' : predictions!.kind} from ${source}; ` +
          `weights from ${flags.weights} (Σ w = ${result.weightSum.toPrecision(6)}, effective N = ${result.effectiveN.toPrecision(6)}); ${result.bins} bins ${result.convention}` +
          (weightedIntervals ? `; ${weightedIntervals.resamples} bootstrap resamples, seed ${weightedIntervals.seed}` : '') +
          '\n\n',
      );
      io.stdout.write(formatWeightedTable(result, weightedIntervals));
      if (sum.classwise_ece_sum !== undefined) io.stdout.write(`classwise_ece_sum: ${sum.classwise_ece_sum.toPrecision(6)}\n`);
      io.stdout.write(`\nnot weighted (weights refused): ${Object.keys(refused).join(', ')}\n`);
      return;
    }
    let metrics;
    let intervals;
    let curve: CalibrationCurve | undefined;
    // The top-label samples the opt-in metrics (--metrics) are computed from.
    let top: TopLabelAccumulator | undefined;
    const parallel = !binary && ignore === undefined && flags.reliability === undefined && flags.threads > 1 && rows >= PARALLEL_MIN_ROWS;
    if (binary) {
      let accumulator;
      ({ metrics, accumulator } = await evaluateChunks(chunks(), settings));
      top = accumulator.top;
      if (flags.bootstrap !== undefined) intervals = bootstrapWithProgress(binary.matrix, binary.labels, settings, flags, io);
      if (flags.reliability !== undefined) curve = calibrationCurve(binary.p, binary.y, { bins: flags.bins, strategy });
    } else if (parallel) {
      const all = await readAllShared(validatedChunks(predictions!, labels!), rows, cols);
      metrics = await evaluateParallel(all.matrix, all.labels, { ...settings, threads: flags.threads });
      if (optInNames.length > 0) {
        const t = topLabel(all.matrix, all.labels, settings.input);
        top = new TopLabelAccumulator(common);
        top.update(t.confidence, t.correct);
      }
      if (flags.bootstrap !== undefined) intervals = bootstrapWithProgress(all.matrix, all.labels, settings, flags, io);
    } else if (flags.bootstrap !== undefined) {
      const all = await readAll(chunks(), rows, cols);
      let accumulator;
      ({ metrics, accumulator } = await evaluateChunks([{ offset: 0, ...all }], settings));
      top = accumulator.top;
      intervals = bootstrapWithProgress(all.matrix, all.labels, settings, flags, io);
    } else {
      let accumulator;
      ({ metrics, accumulator } = await evaluateChunks(chunks(), settings));
      top = accumulator.top;
      if (flags.reliability !== undefined) {
        const { confidence, correct } = accumulator.top.views();
        curve = calibrationCurve(confidence, correct, { bins: flags.bins, strategy });
      }
    }
    if (flags.reliability !== undefined && curve === undefined) throw new UsageError('--reliability cannot be combined with --bootstrap on --logits/--probs inputs');
    // Metrics declared nullable (error AUROC, the selective-prediction metrics, the test statistics) are undefined
    // (null in JSON) on degenerate inputs, e.g. when every prediction is correct; every other metric is finite.
    const finiteMetrics = Object.fromEntries((METRICS as readonly MetricDefinition[]).filter((m) => !m.nullable).map((m) => [m.key, metrics[m.key as keyof typeof metrics]]));
    requireFiniteValues(finiteMetrics, predictions?.argName ?? '--positive-probs', 'predictions with finite metrics');
    if (curve !== undefined) await writeReliability(flags.reliability!, curve);
    const warning = predictions ? logitsWarning(predictions) : undefined;
    if (warning) io.stderr.write(warning);
    const binaryEce = binary ? binaryCalibrationError(binary.p, binary.y, flags.bins) : undefined;
    // Binary smooth ECE on p itself, as relplot's smECE(p, y) and Błasiok & Nakkiran (2023) define it for binary
    // forecasts; the table's smooth_ece is the top-label one (max(p, 1 − p) against correctness).
    const binarySmooth = binary ? smoothEce(binary.p, binary.y) : undefined;
    const extra = await publishedConventionMetrics(flags, binary !== undefined, metrics.classwise_ece, rows, cols);
    const clinical = flags.clinical ? await clinicalOfInputs(flags, binary, ignore, rows, cols) : undefined;
    const optIn = optInNames.length > 0 ? computeOptIn(top!, optInNames) : {};
    if (flags.json) {
      const json = { ...metricsJson(metrics, settings, intervals), ...extra };
      if (binaryEce !== undefined) json['binary_ece'] = binaryEce;
      if (binarySmooth !== undefined) {
        json['binary_smooth_ece'] = binarySmooth.value;
        json['binary_smooth_ece_bandwidth'] = binarySmooth.bandwidth;
      }
      if (ignore !== undefined) json['ignore_index'] = ignore;
      if (clinical) Object.assign(json, clinicalJson(clinical.stats));
      Object.assign(json, optInJson(optIn));
      io.stdout.write(`${JSON.stringify(json)}\n`);
      return;
    }
    const source = flags.logits ?? flags.probs ?? flags['positive-probs'];
    io.stdout.write(
      `${metrics.n.toLocaleString('en-US')} samples, ${cols} classes, ${binary ? 'positive-class probabilities' : predictions!.kind} from ${source}; ` +
        `${metrics.bins} bins ${metrics.convention}, AdaECE ${metrics.adaptive_binning}, sweep chose ${metrics.sweep_bins} bins` +
        (intervals ? `; ${intervals.resamples} bootstrap resamples, seed ${intervals.seed}` : '') +
        '\n\n',
    );
    io.stdout.write(formatMetricsTable(metrics, intervals));
    if (binaryEce !== undefined) io.stdout.write(`\nbinary (positive-class) ECE, torchmetrics definition: ${(binaryEce * 100).toFixed(2)}%\n`);
    if (binarySmooth !== undefined) {
      io.stdout.write(`binary smooth ECE of p (relplot's smECE): ${(binarySmooth.value * 100).toFixed(2)}% at bandwidth σ* = ${binarySmooth.bandwidth.toPrecision(4)}\n`);
    }
    for (const [key, value] of Object.entries(extra)) {
      if (typeof value === 'number') io.stdout.write(`${key}: ${value.toPrecision(6)}\n`);
    }
    if (clinical) writeClinicalTable(clinical.stats, clinical.risk, io);
    writeOptInTable(optIn, io);
  },
});

/** --clinical on --positive-probs (p itself) or --logits/--probs (read again: class 1 of two columns, else top label). */
async function clinicalOfInputs(
  flags: Parameters<typeof clinicalFor>[2] & { logits?: string | undefined; probs?: string | undefined; labels?: string | undefined },
  binary: { p: Float64Array; y: Uint8Array } | undefined,
  ignore: number | undefined,
  rows: number,
  cols: number,
): Promise<{ stats: ClinicalStatistics; risk: string }> {
  if (binary) return { stats: clinicalFor(binary.p, binary.y, flags, { p: '--positive-probs', y: '--labels' }), risk: 'p (--positive-probs)' };
  const again = await openPredictionsAndLabels(flags as never);
  const all = await readAll(validatedChunks(again.predictions, again.labels, undefined, ignore), rows, cols);
  const { p, y } = riskOf(all.matrix, all.labels, again.predictions.kind);
  const risk = cols === 2 ? 'the class-1 probability' : 'the top-label confidence against correctness';
  return { stats: clinicalFor(p, y, flags, { p: again.predictions.argName, y: '--labels' }), risk };
}

/** `calib eval --confidence ... --weights FILE`: the weighted top-label metrics. */
async function evalWeightedTopLabel(
  inputs: TopLabelInputs,
  weightsPath: string,
  common: TopLabelSettings,
  flags: { json?: boolean | undefined; bootstrap?: number | undefined; seed: number; level: number; reliability?: string | undefined; strategy: 'uniform' | 'quantile'; confidence: string },
  io: CliIO,
): Promise<void> {
  const weights = await readWeights(weightsPath, inputs.confidence.length, '--confidence');
  const result = evaluateWeightedTopLabel(inputs.confidence, inputs.correct, weights, common);
  const refused = refusedMetrics(common);
  for (const m of NEEDS_PROBABILITIES) delete refused[m];
  const names = Object.keys(result.values) as Parameters<typeof bootstrapWeightedTopLabel>[3][number][];
  const intervals =
    flags.bootstrap === undefined
      ? undefined
      : withProgress(io, flags.bootstrap, (onProgress) => bootstrapWeightedTopLabel(inputs, weights, common, names, { resamples: flags.bootstrap!, seed: flags.seed, level: flags.level, onProgress }));
  if (flags.reliability !== undefined) await writeReliability(flags.reliability, calibrationCurve(inputs.confidence, inputs.correct, { bins: common.bins, strategy: flags.strategy, weights }));
  if (flags.json) {
    const json = { ...weightedJson(result, { input: 'top-label', adaptive: common.adaptive, weightsFile: weightsPath }, refused, intervals), not_computable: NEEDS_PROBABILITIES };
    return void io.stdout.write(`${JSON.stringify(json)}\n`);
  }
  io.stdout.write(
    `${result.n.toLocaleString('en-US')} samples, top-label results from ${flags.confidence}; weights from ${weightsPath} ` +
      `(Σ w = ${result.weightSum.toPrecision(6)}, effective N = ${result.effectiveN.toPrecision(6)}); ${result.bins} bins ${result.convention}` +
      (intervals ? `; ${intervals.resamples} bootstrap resamples, seed ${intervals.seed}` : '') +
      '\n\n',
  );
  io.stdout.write(formatWeightedTable(result, intervals));
  io.stdout.write(`\nnot weighted (weights refused): ${Object.keys(refused).join(', ')}\nnot computable from top-label results: ${NEEDS_PROBABILITIES.join(', ')}\n`);
}

/** Bootstrap intervals with progress on stderr when they take more than a few seconds. */
function bootstrapWithProgress(matrix: Matrix, labels: Int32Array, settings: EvalSettings, flags: { bootstrap?: number | undefined; seed: number; level: number }, io: CliIO): MetricIntervals {
  return withProgress(io, flags.bootstrap!, (onProgress) => bootstrapAllMetrics(matrix, labels, settings, { resamples: flags.bootstrap!, seed: flags.seed, level: flags.level, onProgress }));
}

/** Runs a bootstrap of B resamples with a progress display on stderr. */
function withProgress<T>(io: CliIO, resamples: number, work: (onProgress: (done: number) => void) => T): T {
  const progress = commandProgress(io, 'bootstrap resamples', resamples);
  try {
    return work((done) => progress.update(done));
  } finally {
    progress.finish();
  }
}

/**
 * The metrics of the published conventions requested by --nll-clip, --classwise-reduction sum and
 * --classwise-separate-one (they need all rows in memory; the files are read a second time).
 */
async function publishedConventionMetrics(
  flags: { 'nll-clip'?: number | undefined; 'classwise-reduction': string; 'classwise-separate-one'?: number | undefined },
  binary: boolean,
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
  if (binary) throw new UsageError('--nll-clip and --classwise-separate-one apply to --logits/--probs inputs, not to --positive-probs');
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
