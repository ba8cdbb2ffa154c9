import type { MetricDefinition, MetricDirection } from './metric-definition.js';
import { METRIC_NAMES, metricDefinition, RECORD_METRIC_NAMES, type MetricName, type RecordMetricName } from './metric-registry.js';

/**
 * How tables and figures show a metric, read from its record (metric-definition.ts): its short name, the header
 * with its unit, its decimals and which direction is better. Report columns, suite tables, shift tables, the
 * worst group of `calib eval --groups` and the selection rules all read these, so a metric added to `METRICS`
 * appears everywhere with one declaration.
 */

/** The short name without unit: `short`, else `label` without a trailing ' (%)' ("ECE", "Acc.", "NLL"). */
export function metricShortName(definition: Pick<MetricDefinition, 'short' | 'label'>): string {
  return definition.short ?? definition.label.replace(/ \(%\)$/, '');
}

/** A table header: the short name, with ' (%)' for percentages ("Acc. (%)", "NLL"). */
export function metricHeader(definition: Pick<MetricDefinition, 'short' | 'label' | 'percent'>): string {
  return definition.percent ? `${metricShortName(definition)} (%)` : metricShortName(definition);
}

/** Decimals in report tables: `digits`, else 2 for percentages and 4 for plain numbers. */
export function metricDigits(definition: Pick<MetricDefinition, 'digits' | 'percent'>): number {
  return definition.digits ?? (definition.percent ? 2 : 4);
}

/** Whether `name` is a metric of the record (a `calib eval --json` key). */
export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}

/** Whether `name` is an entry of the record, streaming or opt-in (a suite `metrics:` name, a `calib eval --metrics` name). */
export function isRecordMetricName(name: string): name is RecordMetricName {
  return (RECORD_METRIC_NAMES as readonly string[]).includes(name);
}

/** Which values of metric `name` are better ('lower', 'higher' or 'none'). */
export function metricDirection(name: RecordMetricName): MetricDirection {
  return metricDefinition(name).better;
}

/** The metrics with a better direction (those a "worst" or "best" can be chosen by), in display order. */
export const DIRECTIONAL_METRIC_NAMES: readonly MetricName[] = Object.freeze(METRIC_NAMES.filter((name) => metricDirection(name) !== 'none'));
