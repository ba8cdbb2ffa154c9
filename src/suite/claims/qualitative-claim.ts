/**
 * Shape claims of a paper ("ECE is U-shaped in the margin", "the optimum is at m = 6", "MbLS < LS < CE"), as data a
 * suite's claim carries under `qualitative` (claim-schema.ts). Each kind has a numeric criterion computed from the
 * runs (report/qualitative-verdict.ts), stated in the report with the numbers it used:
 *
 * - `argmin` / `argmax` { method, sweep, metric, expect, margin? }: the seed-mean curve of METRIC over the sweep's
 *   values has its minimum (maximum) at one of the values in `expect` — and, where it does not, whether the paper's
 *   value is still consistent with the minimum within seed noise (its paired 95 % interval against the observed
 *   minimum contains 0, or lies within `margin`, in the metric's own units: report/qualitative-verdict.ts);
 * - `u-shape` { method, sweep, metric }: the seed-mean curve has its minimum at an interior value, and both end values
 *   exceed it (per end, the 95 % paired-t interval over seeds of end − minimum lies above 0);
 * - `monotone` { method, sweep, metric, trend }: the seed means rise ('increasing') or fall ('decreasing') from each
 *   swept value to the next, in the sweep's order;
 * - `order` { methods, metric }: the seed means are in this order, best first (`better`: 'lower' or 'higher' values
 *   are better; by default higher for accuracy, AUROC and mIoU, lower otherwise).
 *
 * `significant: true` (monotone, order) also requires each step's 95 % paired-t interval to exclude 0 in the stated
 * direction. `split` is 'test' (default; any claim metric, raw or `after` a calibrator) or 'validation' (a test metric
 * of the validation split, raw: the split the calibrators were fitted on).
 */
import { describe, invalidArgument } from '../../util/errors.js';
import { boolean, list, number, object, optional, scalar, string, type Infer, type Schema } from '../../util/schema.js';
import { CLAIM_METRIC_FAMILIES, claimMetricDirection, parseClaimMetric } from './claim-metric.js';
import { CALIBRATOR_KINDS } from '../../posthoc/calibrators.js';

export const QUALITATIVE_KINDS = ['argmin', 'argmax', 'u-shape', 'monotone', 'order'] as const;
export type QualitativeKind = (typeof QUALITATIVE_KINDS)[number];

const COMMON = {
  /** A claim metric (claim-metric.ts). */
  metric: string(),
  /** The split whose values the criterion uses. */
  split: optional(string(['validation', 'test'] as const), 'test'),
  /** A post-hoc calibrator of the suite applied before the metric (test split only). */
  after: optional(string(CALIBRATOR_KINDS)),
};

const SWEPT = { ...COMMON, method: string(), sweep: string() };

const SCHEMAS = {
  argmin: object({ kind: string(['argmin'] as const), ...SWEPT, expect: list(scalar()), margin: optional(number({ min: 0 })) }),
  argmax: object({ kind: string(['argmax'] as const), ...SWEPT, expect: list(scalar()), margin: optional(number({ min: 0 })) }),
  'u-shape': object({ kind: string(['u-shape'] as const), ...SWEPT }),
  monotone: object({ kind: string(['monotone'] as const), ...SWEPT, trend: string(['increasing', 'decreasing'] as const), significant: optional(boolean(), false) }),
  order: object({ kind: string(['order'] as const), ...COMMON, methods: list(string(), 2), better: optional(string(['lower', 'higher'] as const)), significant: optional(boolean(), false) }),
} as const;

export type QualitativeClaim = { [K in QualitativeKind]: Infer<(typeof SCHEMAS)[K]> }[QualitativeKind];
export type SweptQualitativeClaim = Exclude<QualitativeClaim, { kind: 'order' }>;

/** The `qualitative` value of a claim: `{ kind, … }` with the keys of its kind (checked key by key). */
export function qualitativeSchema(): Schema<QualitativeClaim> {
  return {
    expected: `an object { kind: ${QUALITATIVE_KINDS.map((k) => `'${k}'`).join(' | ')}, … }`,
    parse(value, path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) invalidArgument(path, 'an object { kind, … }', describe(value));
      const kind = (value as Record<string, unknown>)['kind'];
      if (typeof kind !== 'string' || !(QUALITATIVE_KINDS as readonly string[]).includes(kind))
        invalidArgument(`${path}.kind`, `one of ${QUALITATIVE_KINDS.map((k) => `'${k}'`).join(', ')}`, describe(kind));
      return SCHEMAS[kind as QualitativeKind].parse(value, path) as QualitativeClaim;
    },
  };
}

/** The suite's parts a qualitative claim refers to. */
export interface ClaimContext {
  readonly methods: readonly string[];
  readonly calibrators: readonly string[];
  readonly sweeps: readonly { readonly key: string; readonly values: readonly (number | string | boolean)[]; readonly methods?: readonly string[] }[];
}

/** Whether higher values of claim metric `metric` are better (claim-metric.ts's direction, from the metric record). */
export function higherIsBetter(metric: string): boolean {
  return claimMetricDirection(metric) === 'higher';
}

/** The values of the sweep `key` that applies to `method`, or an error naming `path`. */
export function sweepValuesOf(context: ClaimContext, method: string, key: string, path: string): readonly (number | string | boolean)[] {
  const applies = context.sweeps.filter((s) => s.key === key && (s.methods === undefined || s.methods.includes(method)));
  if (applies.length === 0) {
    const keys = [...new Set(context.sweeps.filter((s) => s.methods === undefined || s.methods.includes(method)).map((s) => s.key))];
    invalidArgument(`${path}.sweep`, `the key of a sweep of method ${method} (${keys.join(', ') || 'it has none'})`, describe(key));
  }
  return applies[0]!.values;
}

/** Check a parsed qualitative claim's references against the suite (methods, sweeps, metric, split, calibrator). */
export function checkQualitative(q: QualitativeClaim, context: ClaimContext, path: string): void {
  const claim = parseClaimMetric(q.metric);
  if (claim === undefined) invalidArgument(`${path}.metric`, `a metric: ${CLAIM_METRIC_FAMILIES}`, describe(q.metric));
  if (q.split === 'validation') {
    if (claim.family !== 'test') invalidArgument(`${path}.metric`, 'a test metric (ece, nll, accuracy, …) with split "validation"', describe(q.metric));
    if (q.after !== undefined) invalidArgument(`${path}.after`, 'no calibrator with split "validation" (the calibrators are fitted on it)', describe(q.after));
  }
  if (q.after !== undefined && !context.calibrators.includes(q.after))
    invalidArgument(`${path}.after`, `a post-hoc calibrator of the suite (${context.calibrators.join(', ') || 'none declared'})`, describe(q.after));
  if (claim.family === 'miou' && q.after !== undefined) invalidArgument(`${path}.after`, 'no calibrator with miou (the argmax of the trained model)', describe(q.after));
  if (claim.family === 'train' && q.after !== undefined)
    invalidArgument(`${path}.after`, `no calibrator with ${q.metric} (the training split's metrics are the trained model's own)`, describe(q.after));
  const method = (name: string, at: string): void => {
    if (!context.methods.includes(name)) invalidArgument(at, `a method of the suite (${context.methods.join(', ')})`, describe(name));
  };
  if (q.kind === 'order') {
    q.methods.forEach((m, i) => method(m, `${path}.methods[${i}]`));
    if (new Set(q.methods).size !== q.methods.length) invalidArgument(`${path}.methods`, 'distinct methods', JSON.stringify(q.methods));
    return;
  }
  method(q.method, `${path}.method`);
  const values = sweepValuesOf(context, q.method, q.sweep, path);
  if (q.kind === 'argmin' || q.kind === 'argmax') {
    q.expect.forEach((v, i) => {
      if (!values.includes(v)) invalidArgument(`${path}.expect[${i}]`, `a value of the sweep ${q.sweep} (${values.map(String).join(', ')})`, describe(v));
    });
  }
  if (q.kind === 'u-shape' && values.length < 3) invalidArgument(`${path}.sweep`, 'a sweep of at least 3 values (a U needs an interior minimum)', `${values.length} value(s)`);
  if (q.kind === 'monotone' && values.length < 2) invalidArgument(`${path}.sweep`, 'a sweep of at least 2 values', `${values.length} value(s)`);
}
