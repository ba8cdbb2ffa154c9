import { calibrationCurve, METRIC_NAMES, TOP_LABEL_METRICS, type BinConvention } from '../../metrics/index.js';
import type { AdaptiveScheme } from '../../metrics/binned/adaptive-ece.js';
import { evaluateOptIn } from '../../metrics/record/evaluate-opt-in.js';
import { readLmEvalLog, type LmEvalLog } from '../../io/lm-eval-samples.js';
import { raggedTemperature } from '../../posthoc/temperature/ragged-temperature.js';
import { TemperatureCalibrator } from '../../posthoc/temperature/temperature-calibrator.js';
import { bootstrapJson, jsonNumber } from '../../report/metrics-json.js';
import { invalidArgument, requireNumber } from '../../util/errors.js';
import { matrix } from '../../util/matrix.js';
import { UsageError } from '../args.js';
import { readCalibratorFile, writeCalibratorFile } from '../calibrator-file.js';
import type { CliIO } from '../command.js';
import { fixed, formatTable, percent } from '../format-table.js';
import { bootstrapAllMetrics, evaluateChunks, formatMetricsTable, MAX_BOOTSTRAP_RESAMPLES, metricsJson, percentileBootstrap } from './metrics-report.js';
import { commandProgress } from '../work-progress.js';
import type { BootstrapIntervals } from '../../report/metrics-json.js';
import { requireOutputPath, writingOutput } from '../output-path.js';
import { writeReliability } from './reliability-output.js';
import { bootstrapTopLabel, evaluateTopLabel, formatTopLabelTable, topLabelJson } from './top-label-eval.js';
import { flag } from '../flag.js';
import { described, optional, string } from '../../util/schema.js';

/**
 * `calib eval --lm-eval FILE` and `calib fit --lm-eval FILE`: multiple-choice LLM evaluation logs
 * (io/lm-eval-samples.ts) as predictions. Per question the distribution over its C_i choices is
 * p_i = softmax(s_i / T), s_ik the log-likelihood of choice k (`--lm-eval-score acc`, what the harness's `acc`
 * ranks) or that log-likelihood divided by the choice's length in characters (`acc_norm`), T = 1 or a fitted
 * temperature (`--calibrator`). When every question has the same C, the N × C matrix of s_i / T is evaluated as
 * logits by every metric of `calib eval`; when C varies (ragged), the top-label metrics are computed from each
 * question's top choice, plus NLL (−log p_i,gold) and Brier (Σ_k (p_ik − 1[k = gold])²), which are defined per
 * question for any C; the metrics that need a fixed set of classes (classwise / marginal ECE, …) are listed as not
 * computable. Both add `prr` and `auarc` (the record's opt-in entries, metrics/selective/rejection-curve.ts) of the top-choice confidence.
 * `--bootstrap B` resamples questions with replacement (percentileBootstrap, so every metric's interval comes from
 * the same B draws of the seed): every metric of the fixed-C matrix, or the top-label metrics with NLL and Brier
 * (means of the per-question terms) when C varies, and PRR / AUARC.
 */

export const LM_EVAL_FLAGS = {
  'lm-eval': flag(described(optional(string()), 'multiple-choice LLM log: lm-evaluation-harness --log_samples JSONL, or lighteval details as JSON/JSONL'), { valueName: 'FILE' }),
  'lm-eval-score': flag(optional(string(['acc', 'acc_norm']), 'acc', "with --lm-eval: raw log-likelihoods ('acc') or divided by the choice's length in characters ('acc_norm')")),
} as const;

export interface LmEvalScores {
  /** s_i: one score per choice (log-likelihood, or divided by the choice length). */
  readonly scores: Float64Array[];
  readonly gold: Int32Array;
  /** The harness's own acc / acc_norm for each question, when every record logs it. */
  readonly loggedCorrect?: Uint8Array;
  readonly format: LmEvalLog['format'];
}

/** Scores of every question under `score` ('acc': the log-likelihoods; 'acc_norm': divided by the choices' lengths). */
export function lmEvalScores(log: LmEvalLog, score: 'acc' | 'acc_norm', argName = '--lm-eval'): LmEvalScores {
  const scores = log.questions.map((q) => {
    if (score === 'acc') return q.logLikelihoods;
    if (q.choiceLengths === undefined)
      invalidArgument('--lm-eval-score', `acc_norm only for records that give the choices' texts (line ${q.line} of ${argName} has no 'arguments' / 'choices')`, "'acc_norm'");
    return q.logLikelihoods.map((ll, k) => {
      const length = q.choiceLengths![k]!;
      if (length === 0) invalidArgument(argName, `non-empty choice texts for acc_norm (line ${q.line})`, `an empty choice ${k}`);
      return ll / length;
    });
  });
  const logged = log.questions.map((q) => (score === 'acc' ? q.acc : q.accNorm));
  const loggedCorrect = logged.every((v) => v !== undefined) ? Uint8Array.from(logged as number[]) : undefined;
  return { scores, gold: Int32Array.from(log.questions, (q) => q.gold), format: log.format, ...(loggedCorrect ? { loggedCorrect } : {}) };
}

export interface ChoiceDistributions {
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
  /** Mean −log p_gold and mean Σ_k (p_k − y_k)² over the questions, and each question's term. */
  readonly nll: number;
  readonly brier: number;
  readonly nllTerms: Float64Array;
  readonly brierTerms: Float64Array;
  /** The number of choices when every question has the same, else undefined. */
  readonly classes: number | undefined;
}

/** Softmax of s_i / T per question: top-choice confidence, correctness (first maximum, as np.argmax), NLL, Brier. */
export function choiceDistributions(scores: readonly Float64Array[], gold: ArrayLike<number>, temperature = 1): ChoiceDistributions {
  const n = scores.length;
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  let nll = 0;
  let brier = 0;
  const nllTerms = new Float64Array(n);
  const brierTerms = new Float64Array(n);
  const widths = new Set<number>();
  scores.forEach((s, i) => {
    widths.add(s.length);
    let max = -Infinity;
    let arg = 0;
    for (let k = 0; k < s.length; k++) if (s[k]! / temperature > max) ((max = s[k]! / temperature), (arg = k));
    let sum = 0;
    for (let k = 0; k < s.length; k++) sum += Math.exp(s[k]! / temperature - max);
    const logSum = Math.log(sum);
    confidence[i] = 1 / sum;
    correct[i] = arg === gold[i] ? 1 : 0;
    nllTerms[i] = -(s[gold[i]!]! / temperature - max - logSum);
    nll += nllTerms[i]!;
    for (let k = 0; k < s.length; k++) {
      const p = Math.exp(s[k]! / temperature - max - logSum);
      brierTerms[i]! += (p - (k === gold[i] ? 1 : 0)) ** 2;
    }
    brier += brierTerms[i]!;
  });
  return { confidence, correct, nll: nll / n, brier: brier / n, nllTerms, brierTerms, classes: widths.size === 1 ? scores[0]!.length : undefined };
}

/** The temperature of a calibrator JSON written by `calib fit` (a temperature-family method). */
async function readTemperature(path: string): Promise<number> {
  const calibrator = await readCalibratorFile(path, '--calibrator');
  const t = calibrator.toJSON()['temperature'];
  if (typeof t !== 'number') invalidArgument('--calibrator', 'a temperature-scaling calibrator with --lm-eval (calib fit --lm-eval FILE --method temperature)', calibrator.kind);
  return t;
}

interface EvalFlags {
  'lm-eval'?: string | undefined;
  'lm-eval-score': string;
  calibrator?: string | undefined;
  bins: number;
  convention: string;
  adaptive: string;
  norm: number;
  json?: boolean | undefined;
  reliability?: string | undefined;
  'reliability-strategy': string;
  bootstrap?: number | undefined;
  seed: number;
  level: number;
}

type QuestionMetric = 'prr' | 'auarc' | 'nll' | 'brier';

/**
 * Percentile-bootstrap intervals of PRR and AUARC (and, for a varying number of choices, of NLL and Brier as the
 * means of the drawn questions' terms): the same B draws as the other metrics' bootstrap with this seed.
 */
function bootstrapQuestionMetrics(dist: ChoiceDistributions, keys: readonly QuestionMetric[], options: { resamples: number; seed: number; level: number }): BootstrapIntervals<QuestionMetric> {
  const n = dist.confidence.length;
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  return percentileBootstrap(
    n,
    keys,
    (drawn) => {
      let nll = 0;
      let brier = 0;
      for (let i = 0; i < n; i++) {
        const j = drawn[i]!;
        confidence[i] = dist.confidence[j]!;
        correct[i] = dist.correct[j]!;
        nll += dist.nllTerms[j]!;
        brier += dist.brierTerms[j]!;
      }
      const { prr, auarc } = evaluateOptIn(confidence, correct, ['prr', 'auarc']);
      return { prr, auarc, nll: nll / n, brier: brier / n };
    },
    options,
  );
}

/** `[lo, hi]` rows of the question-level intervals for the table, and their JSON. */
function questionIntervalText(intervals: BootstrapIntervals<QuestionMetric>, key: QuestionMetric, show: (v: number) => string): string {
  const [lo, hi] = intervals.intervals[key];
  return ` [${show(lo)}, ${show(hi)}] (${+(intervals.level * 100).toFixed(2)}% CI)`;
}

/** `calib eval --lm-eval FILE`. */
export async function evalLmEval(flags: EvalFlags, io: CliIO): Promise<void> {
  const path = flags['lm-eval']!;
  const score = flags['lm-eval-score'] as 'acc' | 'acc_norm';
  const log = await readLmEvalLog(path);
  const { scores, gold, loggedCorrect, format } = lmEvalScores(log, score);
  const temperature = flags.calibrator !== undefined ? await readTemperature(flags.calibrator) : 1;
  const dist = choiceDistributions(scores, gold, temperature);
  warnDisagreement(io, dist.correct, loggedCorrect, score);
  if (flags.bootstrap !== undefined) requireNumber('--bootstrap', flags.bootstrap, { integer: true, min: 1, max: MAX_BOOTSTRAP_RESAMPLES });
  const resampling = flags.bootstrap !== undefined ? { resamples: flags.bootstrap, seed: flags.seed, level: flags.level } : undefined;
  /** Runs a bootstrap with a progress display on stderr. */
  const withProgress = <T>(work: (onProgress: (done: number) => void) => T): T => {
    const progress = commandProgress(io, 'bootstrap resamples', flags.bootstrap!);
    try {
      return work((done) => progress.update(done));
    } finally {
      progress.finish();
    }
  };
  const questionKeys: QuestionMetric[] = dist.classes !== undefined ? ['prr', 'auarc'] : ['prr', 'auarc', 'nll', 'brier'];
  const questionIntervals = resampling ? bootstrapQuestionMetrics(dist, questionKeys, resampling) : undefined;
  const questionJson = questionIntervals
    ? {
        question_bootstrap: bootstrapJson(questionIntervals, questionKeys),
      }
    : {};
  const settings = { bins: flags.bins, convention: flags.convention as BinConvention, adaptive: flags.adaptive as AdaptiveScheme, labelBinnedP: flags.norm };
  // The record's entries (metrics/record/opt-in-metrics.ts), as `calib eval --metrics prr,auarc` computes them.
  const rejection = evaluateOptIn(dist.confidence, dist.correct, ['prr', 'auarc']);
  const extra = { prr: jsonNumber(rejection.prr), auarc: rejection.auarc };
  const info = {
    lm_eval: {
      file: path,
      format,
      questions: scores.length,
      score,
      temperature,
      choices: dist.classes ?? 'varying',
      min_choices: Math.min(...scores.map((s) => s.length)),
      max_choices: Math.max(...scores.map((s) => s.length)),
    },
  };
  if (flags.reliability !== undefined)
    await writeReliability(flags.reliability, calibrationCurve(dist.confidence, dist.correct, { bins: flags.bins, strategy: flags['reliability-strategy'] as 'uniform' | 'quantile' }));
  const header =
    `${scores.length.toLocaleString('en-US')} questions from ${path} (${format}), ` +
    `${dist.classes !== undefined ? `${dist.classes} choices each` : `${info.lm_eval.min_choices}–${info.lm_eval.max_choices} choices`}; ` +
    `scores: ${score === 'acc' ? 'log-likelihoods' : 'log-likelihoods / choice length (acc_norm)'}${temperature !== 1 ? ` / T = ${temperature.toPrecision(4)}` : ''}; ${flags.bins} bins ${flags.convention}\n\n`;
  const ci = (key: QuestionMetric, show: (v: number) => string) => (questionIntervals ? questionIntervalText(questionIntervals, key, show) : '');
  const showPercent = (v: number) => `${percent(v)}%`;
  const footer =
    `\nPRR (prediction–rejection ratio): ${extra.prr === null ? 'undefined (all answers correct or all wrong)' : fixed(extra.prr) + ci('prr', fixed)}\n` +
    `AUARC (area under the accuracy–rejection curve): ${percent(extra.auarc)}%${ci('auarc', showPercent)}\n` +
    (resampling ? `${flags.bootstrap} bootstrap resamples of the questions, seed ${flags.seed}\n` : '');
  if (dist.classes !== undefined) {
    const n = scores.length;
    const c = dist.classes;
    const data = new Float64Array(n * c);
    scores.forEach((s, i) => {
      for (let k = 0; k < c; k++) data[i * c + k] = s[k]! / temperature;
    });
    const evalSettings = { input: 'logits', classes: c, ...settings } as const;
    const { metrics } = await evaluateChunks([{ offset: 0, matrix: matrix(n, c, data), labels: gold }], evalSettings);
    const intervals = resampling ? withProgress((onProgress) => bootstrapAllMetrics(matrix(n, c, data), gold, evalSettings, { ...resampling, onProgress })) : undefined;
    if (flags.json) return void io.stdout.write(`${JSON.stringify({ ...metricsJson(metrics, { input: 'logits' }, intervals), ...extra, ...questionJson, ...info })}\n`);
    return void io.stdout.write(header + formatMetricsTable(metrics, intervals) + footer);
  }
  const metrics = evaluateTopLabel(dist, settings);
  const intervals = resampling ? withProgress((onProgress) => bootstrapTopLabel(dist, settings, { ...resampling, onProgress })) : undefined;
  const notComputable = METRIC_NAMES.filter((m) => m !== 'nll' && m !== 'brier' && !TOP_LABEL_METRICS.some((t) => t.key === m));
  if (flags.json) {
    const json = {
      ...topLabelJson(metrics, settings, intervals),
      input: 'lm-eval (varying number of choices)',
      nll: dist.nll,
      brier: dist.brier,
      not_computable: notComputable,
      ...extra,
      ...questionJson,
      ...info,
    };
    return void io.stdout.write(`${JSON.stringify(json)}\n`);
  }
  const table = formatTopLabelTable(metrics, intervals).split('\nnot computable')[0]!;
  io.stdout.write(
    header +
      table +
      formatTable(
        ['metric', 'value'],
        [
          ['NLL', fixed(dist.nll) + ci('nll', fixed)],
          ['Brier', fixed(dist.brier) + ci('brier', fixed)],
        ],
      ) +
      `\nnot computable with a varying number of choices (they need one set of classes): ${notComputable.join(', ')}\n` +
      footer,
  );
}

/** Warn when the correctness computed here differs from the harness's logged acc / acc_norm (at T = 1 they must agree). */
function warnDisagreement(io: CliIO, correct: Uint8Array, logged: Uint8Array | undefined, score: string): void {
  if (logged === undefined) return;
  let differ = 0;
  for (let i = 0; i < correct.length; i++) if (correct[i] !== logged[i]) differ++;
  if (differ > 0)
    io.stderr.write(
      `calib: warning: on ${differ} of ${correct.length} questions the top choice by ${score} scores disagrees with the logged '${score}' ` +
        `(exact ties, or a task whose ${score === 'acc_norm' ? 'choice texts or target delimiter differ from the logged continuations' : 'scoring is not the plain log-likelihood'})\n`,
    );
}

/** `calib fit --lm-eval FILE --method temperature --out FILE`: one temperature over the options of every question. */
export async function fitLmEval(flags: { 'lm-eval'?: string | undefined; 'lm-eval-score': string; method: string; out: string; bins: number }, io: CliIO): Promise<void> {
  if (flags.method !== 'temperature') invalidArgument('--method', "'temperature' with --lm-eval (one temperature over each question's choices)", `'${flags.method}'`);
  const path = flags['lm-eval']!;
  await requireOutputPath(flags.out, '--out', [{ argName: '--lm-eval', path }]);
  const score = flags['lm-eval-score'] as 'acc' | 'acc_norm';
  const { scores, gold } = lmEvalScores(await readLmEvalLog(path), score);
  const temperature = raggedTemperature(scores, gold);
  const widths = scores.map((s) => s.length);
  const classes = Math.max(...widths);
  const calibrator = new TemperatureCalibrator('temperature', classes, temperature, { objective: 'nll', bins: flags.bins });
  const before = choiceDistributions(scores, gold, 1);
  const after = choiceDistributions(scores, gold, temperature);
  await writingOutput(flags.out, '--out', () => writeCalibratorFile(flags.out, calibrator));
  io.stdout.write(
    `fitted temperature (T = ${temperature.toPrecision(4)}) on ${scores.length.toLocaleString('en-US')} questions of ${path} (${score} scores, ` +
      `${Math.min(...widths) === classes ? `${classes} choices` : `${Math.min(...widths)}–${classes} choices`}) -> ${flags.out}; ` +
      `on the fitting data: NLL ${before.nll.toFixed(4)} -> ${after.nll.toFixed(4)}, Brier ${before.brier.toFixed(4)} -> ${after.brier.toFixed(4)}\n`,
  );
}

/** Flags of `calib eval` that --lm-eval does not take. */
export function requireLmEvalOnly(flags: Record<string, unknown>, others: readonly string[]): void {
  for (const name of others) if (flags[name] !== undefined) throw new UsageError(`--${name} cannot be combined with --lm-eval`);
}
