/**
 * Choosing a swept hyper-parameter value on validation, as the papers do (each value's metric is the mean over its
 * seeds' validation splits):
 *
 * - `nll`, `ece`: the value with the lowest mean validation NLL or ECE (MbLS/ACLS choose m and λ this way).
 * - `accuracy`: the value with the highest mean validation accuracy — Thulasidasan et al. 2019 (§3.4: "We report the
 *   calibration error for the best performing model (in terms of validation accuracy)").
 * - `ece-near-best-accuracy`: among the values whose mean validation accuracy is at least 99 % of the best value's,
 *   the one with the lowest mean validation ECE — Karandikar et al. 2021 (§5.1 and App. G: "the lowest ECE whilst
 *   giving up less than 1% accuracy relative to the hyperparameter configuration with the highest accuracy").
 *
 * Ties keep the earlier value in the sweep's order.
 */
import type { SelectionRule } from '../suite-schema.js';

/** A swept value's mean validation metrics. */
export interface SweepCandidate {
  readonly accuracy: number;
  readonly ece: number;
  readonly nll: number;
}

/** The metric a rule optimises (what the report prints as a value's validation score). */
export function selectionMetric(rule: SelectionRule): 'nll' | 'ece' | 'accuracy' {
  return rule === 'nll' || rule === 'accuracy' ? rule : 'ece';
}

/** Index of the candidate `rule` chooses (NaN metrics never win unless all are NaN: then the first). */
export function chooseSweepValue(candidates: readonly SweepCandidate[], rule: SelectionRule): number {
  if (candidates.length === 0) return -1;
  const metric = selectionMetric(rule);
  let eligible = candidates.map((_, i) => i);
  if (rule === 'ece-near-best-accuracy') {
    const best = Math.max(...candidates.map((c) => (Number.isFinite(c.accuracy) ? c.accuracy : -Infinity)));
    if (Number.isFinite(best)) eligible = eligible.filter((i) => candidates[i]!.accuracy >= 0.99 * best);
  }
  const better = metric === 'accuracy' ? (v: number, c: number) => v > c : (v: number, c: number) => v < c;
  let chosen = eligible[0]!;
  for (const i of eligible) {
    const v = candidates[i]![metric];
    const c = candidates[chosen]![metric];
    if (Number.isFinite(v) && (!Number.isFinite(c) || better(v, c))) chosen = i;
  }
  return chosen;
}

/** How the report describes the rule ("lowest mean validation NLL"). */
export function selectionRuleText(rule: SelectionRule): string {
  if (rule === 'ece-near-best-accuracy') return 'lowest mean validation ECE among values within 1 % (relative) of the best mean validation accuracy';
  return rule === 'accuracy' ? 'highest mean validation accuracy' : `lowest mean validation ${rule.toUpperCase()}`;
}
