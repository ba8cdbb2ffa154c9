/**
 * Choosing a swept hyper-parameter value on validation, as the papers do (each value's metric is the mean over its
 * seeds' validation splits):
 *
 * - `nll`, `ece`, `adaece-l2`: the value with the lowest mean validation NLL, ECE (ℓ1, equal-width bins) or ECE ℓ2
 *   over equal-mass bins (MbLS/ACLS choose m and λ by NLL).
 * - `refinement`: the value with the lowest mean validation refinement NLL (`refinement_nll`: the NLL after temperature
 *   scaling fitted on the validation split itself, metrics/calibration-refinement.ts) — Berta et al. 2025's "refine,
 *   then calibrate": choose on the refinement error, calibrate post hoc. The same criterion as `calib train --select
 *   refinement` (train/run/best-epoch.ts), read from the same metric.
 * - `accuracy`: the value with the highest mean validation accuracy — Thulasidasan et al. 2019 (§3.4: "We report the
 *   calibration error for the best performing model (in terms of validation accuracy)").
 * - `ece-near-best-accuracy`, `adaece-l2-near-best-accuracy`: among the values whose mean validation accuracy is at
 *   least 99 % of the best value's, the one with the lowest mean validation ECE (ℓ1 equal-width) or ECE ℓ2
 *   equal-mass — Karandikar et al. 2021 (App. G: "we choose the lowest ECE whilst giving up less than 1% accuracy
 *   relative to the hyperparameter configuration with the highest accuracy"; every ECE of that paper's tables is ℓ2
 *   over 15 equal-mass bins, App. A, so `adaece-l2-near-best-accuracy` is its rule).
 *
 * Ties keep the earlier value in the sweep's order.
 */
import { metricDirection, metricShortName } from '../../metrics/record/metric-display.js';
import { metricDefinition, type MetricName } from '../../metrics/record/metric-registry.js';
import type { SelectionRule } from '../suite-schema.js';

/** A swept value's mean validation accuracy and the mean validation metric its rule optimises. */
export interface SweepCandidate {
  readonly accuracy: number;
  /** The mean validation value of `selectionMetric(rule)`. */
  readonly score: number;
}

/** The validation metric (`calib eval --json` key) a rule optimises (what the report prints as a value's validation score). */
export function selectionMetric(rule: SelectionRule): MetricName {
  if (rule === 'refinement') return 'refinement_nll';
  if (rule === 'adaece-l2' || rule === 'adaece-l2-near-best-accuracy') return 'adaece_l2';
  if (rule === 'ece-near-best-accuracy') return 'ece';
  return rule;
}

/** Whether the rule first keeps only the values within 1 % (relative) of the best mean validation accuracy. */
function nearBestAccuracy(rule: SelectionRule): boolean {
  return rule.endsWith('-near-best-accuracy');
}

/** Index of the candidate `rule` chooses (NaN scores never win unless all are NaN: then the first). */
export function chooseSweepValue(candidates: readonly SweepCandidate[], rule: SelectionRule): number {
  if (candidates.length === 0) return -1;
  let eligible = candidates.map((_, i) => i);
  if (nearBestAccuracy(rule)) {
    const best = Math.max(...candidates.map((c) => (Number.isFinite(c.accuracy) ? c.accuracy : -Infinity)));
    if (Number.isFinite(best)) eligible = eligible.filter((i) => candidates[i]!.accuracy >= 0.99 * best);
  }
  const better = metricDirection(selectionMetric(rule)) === 'higher' ? (v: number, c: number) => v > c : (v: number, c: number) => v < c;
  let chosen = eligible[0]!;
  for (const i of eligible) {
    const v = candidates[i]!.score;
    const c = candidates[chosen]!.score;
    if (Number.isFinite(v) && (!Number.isFinite(c) || better(v, c))) chosen = i;
  }
  return chosen;
}

const METRIC_TEXT: Partial<Record<MetricName, string>> = {
  accuracy: 'accuracy',
  nll: 'NLL',
  ece: 'ECE',
  adaece_l2: 'ECE (ℓ2, equal-mass bins)',
  refinement_nll: 'refinement NLL (NLL after temperature scaling)',
};

/** How the report describes the rule ("lowest mean validation NLL"). */
export function selectionRuleText(rule: SelectionRule): string {
  const metric = selectionMetric(rule);
  const extreme = metricDirection(metric) === 'higher' ? 'highest' : 'lowest';
  const text = `${extreme} mean validation ${METRIC_TEXT[metric] ?? metricShortName(metricDefinition(metric))}`;
  return nearBestAccuracy(rule) ? `${text} among values within 1 % (relative) of the best mean validation accuracy` : text;
}
