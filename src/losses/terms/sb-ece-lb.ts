import type { Tensor } from '../../engine/index.js';
import { SB_ECE_DEFAULTS, sbEceBinCenters } from '../../metrics/smooth/soft-binned-ece.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import { gapPower, pthRoot, SOFT_BIN_OPTIONS, softBinMembership } from './soft-bins.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { boolean, optional, string } from '../../util/schema.js';

/**
 * Bin centres of the caltrain label-binned loss: the midpoints of linspace(1/C, 1, M + 1) (confidences of a C-class
 * softmax are ≥ 1/C), shape [M].
 */
export function labelBinnedCodeCenters(bins: number, classes: number): Float64Array {
  const lo = 1 / classes;
  const edge = (j: number): number => lo + ((1 - lo) * j) / bins;
  return Float64Array.from({ length: bins }, (_, j) => 0.5 * edge(j + 1) + 0.5 * edge(j));
}

/**
 * Soft-binned label-binned ECE, SB-ECE_lb,p (Karandikar et al. NeurIPS 2021, eq. 12) — the secondary loss the paper
 * trains with — as in the official code (caltrain `compute_squared_error_label_binning_tensorflow`; METHODS.md
 * § Secondary terms):
 *   u_ij = (1 − ε)·softmax_j(−(c_i − ξ_j)²/T) + ε/M      (ε = 1e−5),
 *   A_j  = Σ_i u_ij a_i / Σ_i u_ij,
 *   SB-ECE_lb = (1/N) Σ_i Σ_j u_ij |A_j − c_i|^p        (root = false: the code's squared form for p = 2),
 *   or its p-th root (root = true: the paper's eq. 12).
 * Differences between the code and the paper, kept from the code by default: the centres ξ_j are the midpoints of
 * M equal bins over [1/C, 1] (anchors 'code'), not over [0, 1] (anchors 'unit': ξ_j = (j − ½)/M, the shared SB-ECE
 * centres of src/metrics/smooth/soft-binned-ece.ts); the memberships are mixed with ε/M; no root. Gradients flow through c in u, A
 * and |A − c|; a carries none. Batch-level. Terms: { sbece } (= loss). Defaults M = 15, T = 0.01, p = 2.
 */
export const sbEceLb = defineLoss({
  name: 'sb-ece-lb',
  title: 'Soft-binned label-binned ECE (Karandikar et al. 2021 eq. 12; caltrain code: squared, bins over [1/C, 1])',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: {
    ...SOFT_BIN_OPTIONS,
    root: optional(boolean(), false, "take the 1/p root (the paper's eq. 12); the code returns the p-th power"),
    anchors: optional(string(['code', 'unit']), 'code', "bin centres over [1/C, 1] ('code') or [0, 1] ('unit')"),
  },
  compute(input, { bins, temperature, p, root, anchors }) {
    const c = input.confidence;
    const m = input.rows;
    const centres = anchors === 'code' ? labelBinnedCodeCenters(bins, input.classes) : sbEceBinCenters(bins);
    const eps = SB_ECE_DEFAULTS.epsilon;
    const u = softBinMembership(c, centres, temperature)
      .mul(1 - eps)
      .add(eps / bins); // [M, B]
    const um = input.masked(u);
    const accuracy = um
      .mul(input.correct.reshape([m, 1]))
      .sum(0)
      .div(um.sum(0)); // [B]
    const gap = accuracy.reshape([1, bins]).sub(c.reshape([m, 1])); // [M, B]
    const total = input.mean(u.mul(gapPower(gap, p)).sum(1));
    const loss = root ? pthRoot(total, p) : total;
    return { loss, terms: { sbece: loss } };
  },
});

/** SB-ECE_lb of logits [N, C] (or dense) against labels or soft targets; see `sbEceLb`. */
export function softBinnedLabelEceLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof sbEceLb.options>): LossResult {
  return sbEceLb.apply(logits, targets, options);
}
