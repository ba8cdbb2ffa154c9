/**
 * The metrics of `CalibrationAccumulator` (so of `evaluate`, `evaluateParallel`, `bootstrapMetric`, `calib eval`'s
 * table, its `--json` keys and bootstrap intervals, `calib demo` and the README's metric table), in display order.
 *
 * ## How to add a streaming metric (one file plus one test)
 * 1. Write `src/metrics/<name>.ts` exporting `defineMetric({ key, label, percent, description, compute })`
 *    (metric-definition.ts). A metric of the top label reads the shared statistics of `MetricContext`
 *    (bin sums, sorted samples, equal-mass bins, sweep; `scope: 'top-label'`); a metric that needs more declares
 *    its own `state` — each field once, with how it merges (`sum`, `compensated-sum`, `max`, `all`, `concat`;
 *    metric-state.ts) — and an `update(state, block)` over validated row blocks (per-row confidence,
 *    correctness, NLL, Brier, entropy, labels and, with `needsProbabilities`, the probability rows).
 *    Snapshot/restore, merge (bit-exact), `toState`/`fromState` for worker threads, `CalibrationMetrics`,
 *    `METRIC_NAMES`, the CLI's labels and JSON keys and the README table all follow from the declaration.
 * 2. Add it to `METRICS` below (where it should appear in tables), then `npm run docs` to refresh the README table.
 *    A metric too costly or too special for every evaluation (computed from the top label after all rows are in,
 *    only when named: `calib eval --metrics`, suite `metrics:`) goes to `OPT_IN_METRICS` (opt-in-metrics.ts)
 *    instead; `metricDefinition` and the display helpers know both lists (`RECORD_METRICS`).
 * 3. Write `test/metrics/<name>.test.ts` against independently computed values (by hand, from the formula or a
 *    reference implementation). test/metrics/metric-registry.test.ts already checks every entry of `METRICS` for
 *    bit-exact merges, state round trips and worker-thread evaluation.
 */
import type { MetricDefinition } from './metric-definition.js';
import { OPT_IN_METRICS, type OptInMetricName } from './opt-in-metrics.js';
import { brier, classwiseEce, marginalEce, meanEntropy, nll } from './probability-metrics.js';
import { accuracy, adaece, adaeceL2, debiasedEce, ece, eceL2, eceLb, errorAuroc, ks, mce, meanConfidence, oe, sweepEce } from './top-label-metrics.js';
import { smoothEceBandwidth, smoothEceMetric } from '../smooth/smooth-ece.js';
import { aurcMetric, augrcMetric, coverageAt5Risk, eaurcMetric, riskAt80Coverage } from '../selective/risk-coverage.js';
import { fpr95Metric } from '../selective/fpr-at-tpr.js';
import { mmceMetric } from '../smooth/mmce.js';
import { spiegelhalterP, spiegelhalterZ } from '../statistical-tests/spiegelhalter-test.js';
import { ksPValue, kuiperMetric, kuiperPValue } from '../statistical-tests/cumulative-calibration-tests.js';
import { corpDsc, corpMcb, corpUnc } from '../corp-decomposition.js';
import { calibrationBrier, calibrationBrierOver, calibrationBrierUnder, calibrationNll, calibrationNllOver, calibrationNllUnder, refinementBrier, refinementNll } from '../calibration-refinement.js';

export const METRICS = [
  accuracy,
  nll,
  brier,
  // refinement_nll keeps the rows and computes the split; the other seven read it from the context (so it comes first).
  refinementNll,
  calibrationNll,
  calibrationNllOver,
  calibrationNllUnder,
  refinementBrier,
  calibrationBrier,
  calibrationBrierOver,
  calibrationBrierUnder,
  ece,
  eceL2,
  eceLb,
  adaece,
  adaeceL2,
  mce,
  oe,
  classwiseEce,
  marginalEce,
  ks,
  debiasedEce,
  sweepEce,
  smoothEceMetric,
  smoothEceBandwidth,
  mmceMetric,
  ksPValue,
  kuiperMetric,
  kuiperPValue,
  spiegelhalterZ,
  spiegelhalterP,
  corpMcb,
  corpDsc,
  corpUnc,
  meanConfidence,
  meanEntropy,
  errorAuroc,
  aurcMetric,
  eaurcMetric,
  augrcMetric,
  riskAt80Coverage,
  coverageAt5Risk,
  fpr95Metric,
] as const satisfies readonly MetricDefinition[];

type Declared = (typeof METRICS)[number];

/** Names of the numeric metrics in `CalibrationMetrics` (the CLI's `--json` keys), in display order. */
export type MetricName = Declared['key'];

/** Names of the metrics computed from the top-label state alone (`TopLabelMetrics`). */
export type TopLabelMetricName = Extract<Declared, { scope: 'top-label' }>['key'];

export const METRIC_NAMES: readonly MetricName[] = Object.freeze(METRICS.map((m) => m.key));

/** The top-label metrics (also reported by `TopLabelAccumulator.compute`), in display order. */
export const TOP_LABEL_METRICS: readonly MetricDefinition<TopLabelMetricName>[] = Object.freeze(
  (METRICS as readonly MetricDefinition[]).filter((m) => m.scope === 'top-label') as MetricDefinition<TopLabelMetricName>[],
);

/** Names of every entry of the record: the streaming metrics above and the opt-in ones (opt-in-metrics.ts). */
export type RecordMetricName = MetricName | OptInMetricName;

/** Every entry of the record in display order: `METRICS`, then the opt-in metrics (computed only when named). */
export const RECORD_METRICS: readonly MetricDefinition<RecordMetricName>[] = Object.freeze([...METRICS, ...OPT_IN_METRICS] as MetricDefinition<RecordMetricName>[]);

export const RECORD_METRIC_NAMES: readonly RecordMetricName[] = Object.freeze(RECORD_METRICS.map((m) => m.key));

/** The declaration of metric `name` (of `METRICS` or an opt-in one). */
export function metricDefinition(name: MetricName): MetricDefinition<MetricName>;
export function metricDefinition(name: RecordMetricName): MetricDefinition<RecordMetricName>;
export function metricDefinition(name: RecordMetricName): MetricDefinition<RecordMetricName> {
  return RECORD_METRICS.find((m) => m.key === name)!;
}
