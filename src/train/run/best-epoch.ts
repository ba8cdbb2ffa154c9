/**
 * Best-epoch selection on the validation split. The weights of the selected epoch are the ones exported and
 * evaluated at the end of a run.
 *
 * Criteria: 'accuracy' (highest; the default — the MbLS and ACLS code keep the checkpoint of best validation
 * accuracy, and Maroñas et al. pick models with good accuracy first), 'nll', 'ece' or 'adaece' (lowest; Karandikar
 * et al. tune on validation ECE), 'refinement' (lowest validation refinement NLL: the NLL after temperature scaling
 * fitted on the validation split itself, metrics/calibration-refinement.ts — Berta et al. 2025, "Rethinking early
 * stopping: refine, then calibrate": stop on the refinement error, then calibrate post hoc), 'last' (the final
 * epoch; Thulasidasan et al. report the end of training), or any other metric of the record with a better direction
 * (metrics/record/metric-registry.ts, its `calib eval --json` key, e.g. 'brier', 'aurc', 'cov_at_5risk'): every one is
 * computed on the validation logits each epoch, and its declared direction decides which value is better.
 * Ties keep the earlier epoch (strict improvement only), so the choice does not depend on float noise ordering.
 */
import { DIRECTIONAL_METRIC_NAMES, isMetricName, metricDirection } from '../../metrics/record/metric-display.js';
import type { MetricName } from '../../metrics/record/metric-registry.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';

/** The criteria with a name of their own (the first, 'accuracy', is the default). */
const NAMED_CRITERIA = ['accuracy', 'nll', 'ece', 'adaece', 'refinement', 'last'] as const;

/** A best-epoch criterion: a named one, or the `calib eval --json` key of a metric of the record with a direction. */
export type SelectionMetric = (typeof NAMED_CRITERIA)[number] | MetricName;

/**
 * Every criterion `calib train --select` accepts: the named ones, then each metric of the record with a better
 * direction (`DIRECTIONAL_METRIC_NAMES`, display order) — so a metric added to the record is a criterion at once.
 */
export const SELECTION_METRICS: readonly SelectionMetric[] = Object.freeze([...NAMED_CRITERIA, ...DIRECTIONAL_METRIC_NAMES.filter((name) => !(NAMED_CRITERIA as readonly string[]).includes(name))]);

/** The metric of the record each named criterion reads (other criteria are metric keys themselves). */
export const SELECTION_METRIC_KEYS: Readonly<Record<Exclude<(typeof NAMED_CRITERIA)[number], 'last'>, MetricName>> = {
  accuracy: 'accuracy',
  nll: 'nll',
  ece: 'ece',
  adaece: 'adaece',
  refinement: 'refinement_nll',
};

/** The metric of the record criterion `metric` reads (null for 'last'). */
export function selectionMetricKey(metric: SelectionMetric): MetricName | null {
  if (metric === 'last') return null;
  return metric === 'refinement' ? SELECTION_METRIC_KEYS.refinement : metric;
}

/** The validation numbers an epoch is judged by (fractions; NLL in nats). */
export interface ValidationScores {
  readonly accuracy: number;
  readonly nll: number;
  readonly ece: number;
  readonly adaece: number;
  /** `refinement_nll` (metrics/calibration-refinement.ts): the NLL after temperature scaling on the same rows. */
  readonly refinement: number;
  /** Every metric of the record on the validation rows (what the other criteria read). */
  readonly metrics: Readonly<Record<MetricName, number>>;
}

/** Serializable state of the tracker (stored in checkpoints so a resumed run keeps its best). */
export interface BestState {
  readonly metric: SelectionMetric;
  /** 0-based epoch of the best so far, or −1 before the first epoch. */
  readonly epoch: number;
  /** Its score (NaN before the first epoch). */
  readonly value: number;
}

/** Keeps the best epoch by one criterion. */
export class BestEpoch {
  private state: BestState;
  private lastSeen: number;

  constructor(
    readonly metric: SelectionMetric,
    initial?: BestState,
  ) {
    if (!SELECTION_METRICS.includes(metric)) invalidArgument('metric', `one of ${SELECTION_METRICS.join(', ')}`, describe(metric));
    if (initial !== undefined && initial.metric !== metric) invalidArgument('initial.metric', metric, describe(initial.metric));
    this.state = initial ?? { metric, epoch: -1, value: Number.NaN };
    this.lastSeen = this.state.epoch;
  }

  /** Whether higher is better for the criterion (the metric record's direction; false for 'last'). */
  get maximize(): boolean {
    const key = selectionMetricKey(this.metric);
    return key !== null && metricDirection(key) === 'higher';
  }

  /** The best so far. */
  get best(): BestState {
    return this.state;
  }

  /**
   * Offer epoch `epoch`'s validation scores; returns true when it becomes the best (always for the first epoch and
   * for 'last'). A NaN score never improves on a finite one.
   */
  consider(epoch: number, scores: ValidationScores): boolean {
    requireNumber('epoch', epoch, { integer: true, min: 0 });
    if (epoch <= this.lastSeen) invalidArgument('epoch', `an epoch after ${this.lastSeen}`, String(epoch));
    this.lastSeen = epoch;
    const key = selectionMetricKey(this.metric);
    const value = key === null ? epoch : scoreOf(scores, key);
    const prev = this.state.value;
    let better: boolean;
    if (this.state.epoch < 0 || this.metric === 'last') better = true;
    else if (Number.isNaN(value)) better = false;
    else if (Number.isNaN(prev)) better = true;
    else better = this.maximize ? value > prev : value < prev;
    if (better) this.state = { metric: this.metric, epoch, value };
    return better;
  }
}

/** The validation value of metric `key` (a criterion's own field where it has one; NaN when not computed). */
function scoreOf(scores: ValidationScores, key: MetricName): number {
  if (key === 'refinement_nll') return scores.refinement;
  if (key === 'accuracy' || key === 'nll' || key === 'ece' || key === 'adaece') return scores[key];
  return isMetricName(key) ? (scores.metrics[key] ?? Number.NaN) : Number.NaN;
}
