/**
 * The opt-in entries of the metric record: metrics declared like those of `METRICS` (metric-definition.ts: key,
 * label, unit, digits, better direction, weights) but computed only when asked for by name — `calib eval --metrics`,
 * a suite's `metrics:` list, `evaluateOptIn` — so that `evaluate`, `calib eval`'s default table, the committed
 * reports and the default runtime stay as they were. They are metrics of the top label (confidence against
 * correctness), computed from a `TopLabelAccumulator`'s samples once all rows are in (evaluate-opt-in.ts):
 *
 * - selective prediction of LLM evaluations (rejection-curve.ts): `prr`, `auarc`;
 * - the clinical / tabular statistics (clinical/clinical-metrics.ts): `calibration_in_the_large`,
 *   `calibration_slope` and its ranked form `calibration_slope_error` = |slope − 1|, `calibration_intercept`,
 *   `hosmer_lemeshow` and `hosmer_lemeshow_p`, `ici`, `e50`, `e90`, `emax`, `skce` and `skce_p`.
 *
 * Not here: the multicalibration error (multicalibration.ts) needs a group column, so it stays in
 * `calib eval --groups`; the clinical statistics of a binary risk p itself (not its top label) and with other
 * settings (--hl-groups, --loess-span, --skce-resamples) stay in `calib eval --clinical`, which reads the same
 * accessors (`clinicalJson`).
 */
import type { MetricDefinition } from './metric-definition.js';
import { auarcMetric, prrMetric } from '../selective/rejection-curve.js';
import { CLINICAL_METRICS } from '../clinical/clinical-metrics.js';
import { describe, invalidArgument } from '../../util/errors.js';

export const OPT_IN_METRICS = [prrMetric, auarcMetric, ...CLINICAL_METRICS] as const satisfies readonly MetricDefinition[];

/** Names of the opt-in metrics (their `--json` keys). */
export type OptInMetricName = (typeof OPT_IN_METRICS)[number]['key'];

export const OPT_IN_METRIC_NAMES: readonly OptInMetricName[] = Object.freeze(OPT_IN_METRICS.map((m) => m.key));

/** Whether `name` is an opt-in metric of the record. */
export function isOptInMetricName(name: string): name is OptInMetricName {
  return (OPT_IN_METRIC_NAMES as readonly string[]).includes(name);
}

/** The declaration of opt-in metric `name`. */
export function optInDefinition(name: OptInMetricName): MetricDefinition<OptInMetricName> {
  return (OPT_IN_METRICS as readonly MetricDefinition<OptInMetricName>[]).find((m) => m.key === name)!;
}

/** Throws InvalidArgumentError (naming `argName` and the opt-in names) unless every name is an opt-in metric. */
export function requireOptInNames(names: readonly string[], argName = 'metrics'): readonly OptInMetricName[] {
  for (const name of names) if (!isOptInMetricName(name)) invalidArgument(argName, `opt-in metric names among ${OPT_IN_METRIC_NAMES.join(', ')}`, describe(name));
  return names as readonly OptInMetricName[];
}
