import { MetricContext } from './metric-context.js';
import { MetricState } from '../accumulators/metric-state.js';
import { optInDefinition, OPT_IN_METRIC_NAMES, requireOptInNames, type OptInMetricName } from './opt-in-metrics.js';
import { TopLabelAccumulator, type TopLabelOptions } from '../accumulators/top-label-accumulator.js';
import { weightedContext } from '../weighted/weighted-context.js';
import { requireSampleWeights } from '../weighted/sample-weights.js';
import { requireTopLabel } from '../validation.js';
import { invalidArgument } from '../../util/errors.js';
import type { FloatArray } from '../../util/matrix.js';

/**
 * Computing the opt-in entries of the metric record (opt-in-metrics.ts) by name: from a `TopLabelAccumulator`
 * (what `calib eval --metrics` holds after streaming its rows), from top-label arrays, or with sample weights.
 */

const EMPTY_STATE = new MetricState({});

/** The opt-in metrics `names` of the top-label samples of `top` (one shared context, so shared parts are computed once). */
export function computeOptIn(top: TopLabelAccumulator, names: readonly OptInMetricName[]): Record<OptInMetricName, number> {
  const context = new MetricContext(top);
  const out = {} as Record<OptInMetricName, number>;
  for (const name of requireOptInNames(names)) out[name] = optInDefinition(name).compute(context, EMPTY_STATE);
  return out;
}

/** The opt-in metrics `names` of top-label confidences c [N] ∈ [0, 1] and correctness a [N] ∈ {0, 1}. */
export function evaluateOptIn(confidence: FloatArray, correct: Uint8Array, names: readonly OptInMetricName[] = OPT_IN_METRIC_NAMES, options: TopLabelOptions = {}): Record<OptInMetricName, number> {
  requireTopLabel(confidence, correct, 'confidence');
  const top = new TopLabelAccumulator(options);
  top.update(confidence, correct);
  return computeOptIn(top, names);
}

/**
 * The opt-in metrics `names` with sample weights w [N] ≥ 0 (those whose record has a weighted compute; the others
 * throw InvalidArgumentError with the record's reason).
 */
export function evaluateOptInWeighted(
  confidence: FloatArray,
  correct: Uint8Array,
  weights: ArrayLike<number>,
  names: readonly OptInMetricName[],
  settings: { readonly bins?: number } = {},
): Record<OptInMetricName, number> {
  requireTopLabel(confidence, correct, 'confidence');
  const w = requireSampleWeights(weights, confidence.length);
  const c = confidence instanceof Float64Array ? confidence : Float64Array.from(confidence);
  const context = weightedContext(c, correct, w, settings.bins ?? 15, '(l,u]');
  const out = {} as Record<OptInMetricName, number>;
  for (const name of requireOptInNames(names)) {
    const weighted = optInDefinition(name).weighted;
    if (weighted === undefined || !('compute' in weighted))
      invalidArgument('metrics', 'metrics defined with sample weights', `${name} (${weighted === undefined ? 'not implemented with sample weights yet' : weighted.refused})`);
    out[name] = weighted.compute(context);
  }
  return out;
}
