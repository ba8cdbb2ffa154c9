import { METRIC_NAMES, TOP_LABEL_METRICS, TopLabelAccumulator, type BinConvention, type TopLabelMetrics } from '../../metrics/index.js';
import type { AdaptiveScheme } from '../../metrics/binned/adaptive-ece.js';
import { readVectorFile } from '../../io/read-vector.js';
import { bootstrapJson } from '../../report/metrics-json.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { formatTable } from '../format-table.js';
import { METRIC_DISPLAY, percentileBootstrap, showMetric, type BootstrapIntervals } from './metrics-report.js';
import { UsageError } from '../args.js';
import { flag } from '../flag.js';
import { described, optional, string } from '../../util/schema.js';

/**
 * `calib eval` on top-label results only — a confidence, a predicted class and a label per sample (LLM
 * evaluations, leaderboards, CSV exports) — or a confidence and a 0/1 correctness: every metric of top-label
 * scope (the ECE family, AdaECE, MCE, OE, KS, debiased and sweep ECE, smooth ECE, the calibration tests, CORP,
 * MMCE, the selective-prediction metrics, error AUROC) from a `TopLabelAccumulator`; the metrics that need
 * the whole probability vector are listed as not computable.
 */

export const TOP_LABEL_FLAGS = {
  confidence: flag(described(optional(string()), 'top-label confidences c_i ∈ [0, 1] (instead of --logits/--probs)'), { valueName: 'FILE' }),
  predicted: flag(described(optional(string()), 'predicted classes (with --confidence and --labels)'), { valueName: 'FILE' }),
  columns: flag(described(optional(string()), 'named CSV/JSON/npz columns, e.g. confidence=conf,predicted=pred,label=gold (or correct=ok); files default to --confidence'), { valueName: 'SPEC' }),
} as const;

/** Roles a --columns entry may name. */
const ROLES = ['confidence', 'predicted', 'label', 'correct'] as const;
type Role = (typeof ROLES)[number];

/** Parse `confidence=a,predicted=b,label=c` (or `correct=d`). */
export function parseColumns(spec: string | undefined): Partial<Record<Role, string>> {
  if (spec === undefined) return {};
  const out: Partial<Record<Role, string>> = {};
  for (const part of spec.split(',')) {
    const eq = part.indexOf('=');
    const role = part.slice(0, eq).trim() as Role;
    const name = part.slice(eq + 1).trim();
    if (eq < 0 || !ROLES.includes(role) || name === '') invalidArgument('--columns', `ROLE=NAME pairs with ROLE one of ${ROLES.join(', ')}`, describe(part));
    out[role] = name;
  }
  if (out.correct !== undefined && (out.predicted !== undefined || out.label !== undefined)) invalidArgument('--columns', 'either correct=NAME or predicted=NAME,label=NAME', describe(spec));
  return out;
}

/** Metrics of the full probability vector that top-label results cannot give. */
export const NEEDS_PROBABILITIES = METRIC_NAMES.filter((m) => !TOP_LABEL_METRICS.some((t) => t.key === m));

export interface TopLabelInputs {
  readonly confidence: Float64Array;
  readonly correct: Uint8Array;
}

function integral(values: Float64Array, argName: string): void {
  for (let i = 0; i < values.length; i++) if (!Number.isInteger(values[i])) invalidArgument(argName, 'integer classes', `${describe(values[i])} at index ${i}`);
}

/** Read and check top-label inputs: confidence ∈ [0, 1], and predicted == label or a 0/1 correctness. */
export async function readTopLabelInputs(flags: { confidence: string; predicted?: string | undefined; labels?: string | undefined; columns?: string | undefined }): Promise<TopLabelInputs> {
  const cols = parseColumns(flags.columns);
  const confidence = await readVectorFile(flags.confidence, '--confidence', { ...(cols.confidence !== undefined ? { column: cols.confidence } : {}), names: ['confidence', 'conf'] });
  for (let i = 0; i < confidence.length; i++) {
    const c = confidence[i]!;
    if (!(c >= 0 && c <= 1)) invalidArgument('--confidence', 'confidences in [0, 1]', `${describe(c)} at index ${i}`);
  }
  if (confidence.length === 0) invalidArgument('--confidence', 'at least one sample', '0 values');
  let correct: Uint8Array;
  if (cols.correct !== undefined) {
    const ok = await readVectorFile(flags.labels ?? flags.confidence, '--columns', { column: cols.correct });
    correct = Uint8Array.from(ok, (v, i) => (v === 0 || v === 1 ? v : invalidArgument('--columns', `0/1 in column ${describe(cols.correct)}`, `${describe(v)} at index ${i}`)));
  } else {
    const predictedFile = flags.predicted ?? (cols.predicted !== undefined ? flags.confidence : undefined);
    const labelFile = flags.labels ?? (cols.label !== undefined ? flags.confidence : undefined);
    if (predictedFile === undefined) throw new UsageError('with --confidence, give --predicted FILE (or --columns ...,predicted=NAME, or correct=NAME)');
    if (labelFile === undefined) throw new UsageError('with --confidence, give --labels FILE (or --columns ...,label=NAME)');
    const predicted = await readVectorFile(predictedFile, '--predicted', { ...(cols.predicted !== undefined ? { column: cols.predicted } : {}), names: ['predicted', 'prediction', 'pred'] });
    const labels = await readVectorFile(labelFile, '--labels', { ...(cols.label !== undefined ? { column: cols.label } : {}), names: ['labels', 'label', 'targets', 'y'] });
    integral(predicted, '--predicted');
    integral(labels, '--labels');
    if (predicted.length !== confidence.length) invalidArgument('--predicted', `${confidence.length} values, one per confidence`, `${predicted.length}`);
    if (labels.length !== confidence.length) invalidArgument('--labels', `${confidence.length} values, one per confidence`, `${labels.length}`);
    correct = Uint8Array.from(predicted, (p, i) => (p === labels[i] ? 1 : 0));
  }
  if (correct.length !== confidence.length) invalidArgument('--columns', `${confidence.length} correctness values`, `${correct.length}`);
  return { confidence, correct };
}

export interface TopLabelSettings {
  readonly bins: number;
  readonly convention: BinConvention;
  readonly adaptive: AdaptiveScheme;
  readonly labelBinnedP: number;
}

/** Every top-label metric of the inputs. */
export function evaluateTopLabel(inputs: TopLabelInputs, settings: TopLabelSettings): TopLabelMetrics {
  const accumulator = new TopLabelAccumulator(settings);
  accumulator.update(inputs.confidence, inputs.correct);
  return accumulator.compute();
}

export type TopLabelMetricName = (typeof TOP_LABEL_METRICS)[number]['key'];

/** Percentile-bootstrap intervals of every top-label metric: the (confidence, correct) pairs resampled. */
export function bootstrapTopLabel(
  inputs: TopLabelInputs,
  settings: TopLabelSettings,
  options: { resamples: number; seed: number; level: number; onProgress?: (done: number) => void },
): BootstrapIntervals<TopLabelMetricName> {
  const n = inputs.confidence.length;
  const confidence = new Float64Array(n);
  const correct = new Uint8Array(n);
  return percentileBootstrap(
    n,
    TOP_LABEL_METRICS.map((m) => m.key),
    (drawn) => {
      for (let i = 0; i < n; i++) {
        confidence[i] = inputs.confidence[drawn[i]!]!;
        correct[i] = inputs.correct[drawn[i]!]!;
      }
      return evaluateTopLabel({ confidence, correct }, settings);
    },
    options,
  );
}

/** The `--json` object of top-label results: the metrics, the settings, what could not be computed, and `bootstrap` when intervals were computed. */
export function topLabelJson(metrics: TopLabelMetrics, settings: TopLabelSettings, intervals?: BootstrapIntervals<TopLabelMetricName>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of TOP_LABEL_METRICS) out[m.key] = Number.isFinite(metrics[m.key]) ? metrics[m.key] : null;
  out['sweep_bins'] = metrics.sweep_bins;
  out['n'] = metrics.n;
  out['bins'] = settings.bins;
  out['convention'] = settings.convention;
  out['input'] = 'top-label';
  out['adaptive_binning'] = metrics.adaptive_binning;
  out['ece_lb_p'] = metrics.ece_lb_p;
  out['not_computable'] = NEEDS_PROBABILITIES;
  if (intervals)
    out['bootstrap'] = bootstrapJson(
      intervals,
      TOP_LABEL_METRICS.map((m) => m.key),
    );
  return out;
}

/** The human table of top-label results, with the list of metrics it cannot give. */
export function formatTopLabelTable(metrics: TopLabelMetrics, intervals?: BootstrapIntervals<TopLabelMetricName>): string {
  const header = intervals ? ['metric', 'value', `${+(intervals.level * 100).toFixed(2)}% CI`] : ['metric', 'value'];
  const rows = TOP_LABEL_METRICS.map((m) => {
    const row = [METRIC_DISPLAY[m.key].label, showMetric(m.key, metrics[m.key])];
    if (intervals) {
      const [lo, hi] = intervals.intervals[m.key];
      row.push(`[${showMetric(m.key, lo)}, ${showMetric(m.key, hi)}]`);
    }
    return row;
  });
  return formatTable(header, rows) + `\nnot computable from top-label results (they need every class probability): ${NEEDS_PROBABILITIES.map((m) => METRIC_DISPLAY[m].label).join(', ')}\n`;
}
