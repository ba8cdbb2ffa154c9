import { constant, type Tensor } from '../../engine/index.js';
import { equalWidthEdges } from '../../metrics/binned/binning.js';
import { defineLoss } from '../define-loss.js';
import type { LossInput } from '../loss-input.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, numberList, optional, string } from '../../util/schema.js';

/**
 * Hard equal-width bin membership [M, B] of confidences c [M] under the toolkit's '(l,u]' convention (src/metrics
 * binning.ts; also the ARC code's `accuracy_per_bin`): bin 0 is [0, 1/B], bin b > 0 is (b/B, (b+1)/B]. Edges are
 * the shared float64 edges m/B rounded to the logits' dtype (the ARC code compares float32 values with float32
 * edges too). Not differentiable.
 */
export function hardBinMembership(confidence: Tensor, bins: number): Tensor {
  const edges = equalWidthEdges(bins);
  const lower = Array.from({ length: bins }, (_, b) => (b === 0 ? -1 : edges[b]!)); // bin 0 also takes c ≤ 0
  const upper = Array.from({ length: bins }, (_, b) => (b === bins - 1 ? 2 : edges[b + 1]!)); // last bin takes c > 1
  const m = confidence.shape[0]!;
  const c = confidence.stopGradient().reshape([m, 1]);
  const lo = constant(lower, { shape: [1, bins], dtype: confidence.dtype });
  const hi = constant(upper, { shape: [1, bins], dtype: confidence.dtype });
  return c.greater(lo).logicalAnd(c.lessEqual(hi)).cast(confidence.dtype);
}

/** ARC with one number of bins M (see `arc`). */
function arcForBins(input: LossInput, bins: number, version: 'v1' | 'v2'): Tensor {
  const m = input.rows;
  const c = input.confidence;
  const member = input.masked(hardBinMembership(c, bins)); // [M, B]
  const counts = member.sum(0); // n_b
  const safe = counts.maximum(1);
  const accuracy = member
    .mul(input.correct.reshape([m, 1]))
    .sum(0)
    .div(safe)
    .stopGradient(); // sg(acc_b)
  if (version === 'v1') {
    const confidence = member
      .mul(c.reshape([m, 1]))
      .sum(0)
      .div(safe);
    return counts.mul(confidence.sub(accuracy).square()).sum().div(input.count);
  }
  const own = member.mul(accuracy.reshape([1, bins])).sum(1); // acc of each sample's bin, [M]
  return input.mean(c.sub(own).square());
}

/**
 * Accuracy-versus-confidence calibration loss, ARC (Maroñas, Ramos & Paredes 2021), as in the official code
 * (`CalibIdea_Bins.cost_CONF`, `CalibIdea_NoBins`; METHODS.md § Secondary terms), with equal-width bins [0, 1/M]
 * then (l, u] and the bin accuracy detached:
 *   V1 = Σ_b (n_b/N) (mean_{i∈b} c_i − sg(acc_b))²       (M = 1: (mean c − acc)²),
 *   V2 = Σ_b (n_b/N) mean_{i∈b} (c_i − sg(acc_b))²        (M = 1: mean (c_i − acc)²).
 * The paper's β (searched up to ~40) is the ONE multiplier of the term: the combination weight of primary + β·ARC
 * (`--weight β` in `calib train` and `calib loss --primary`; default 1). The term itself has no weight option, so
 * no two multipliers can compound.
 * The paper writes a plain 1/M average over bins for V1; the code weights bins by n_b/N (kept). A list of bin counts
 * (e.g. 5,15,30) averages the term over them. On mixup images pass soft targets: a_i = q̃_{i,ŷ} makes acc_b
 * = λ·acc_b(y1) + (1 − λ)·acc_b(y2), the code's `cost_CONF_mixup_interpolated`. Batch-level. Terms: { arc } (= loss).
 * Defaults: V1, M = 1.
 */
export const arc = defineLoss({
  name: 'arc',
  title: 'ARC: (binned) squared gap between confidence and detached accuracy (Maroñas et al. 2021)',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: {
    version: optional(string(['v1', 'v2']), 'v1', "'v1': per-bin mean confidence vs accuracy; 'v2': per-sample confidence vs bin accuracy"),
    bins: optional(numberList(number({ min: 1, integer: true })), [1], 'number of bins M, or a list (e.g. 5,15,30) to average over'),
  },
  compute(input, { version, bins }) {
    let total: Tensor | null = null;
    for (const b of bins) {
      const term = arcForBins(input, b, version as 'v1' | 'v2');
      total = total ? total.add(term) : term;
    }
    const loss = total!.div(bins.length);
    return { loss, terms: { arc: loss } };
  },
});

/** ARC term of logits [N, C] (or dense) against labels or soft targets; see `arc`. */
export function arcLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof arc.options>): LossResult {
  return arc.apply(logits, targets, options);
}
