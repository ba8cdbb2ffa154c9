import type { Tensor } from '../../engine/index.js';
import { SB_ECE_DEFAULTS, sbEceBinCenters } from '../../metrics/smooth/soft-binned-ece.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import { gapPower, pthRoot, SOFT_BIN_OPTIONS, softBinMembership } from './soft-bins.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * Soft-binned ECE, SB-ECE_bin,p (Karandikar et al. NeurIPS 2021, eq. 11; caltrain `get_soft_binning_ece_tensor`;
 * METHODS.md § Secondary terms). The one host definition is `softBinnedEce` in src/metrics/smooth/soft-binned-ece.ts (used by the
 * TS-SB-ECE calibrator); this is the same formula on engine tensors, with its constants (ξ_j = (j − ½)/M, ε = 1e−5,
 * defaults M = 15, T = 0.01, p = 2) taken from there:
 *   u_ij = softmax_j(−(c_i − ξ_j)²/T),  s_j = Σ_i u_ij,
 *   conf_j = Σ_i u_ij c_i / max(s_j, ε),  acc_j = Σ_i u_ij a_i / max(s_j, ε),  w_j = s_j / N,
 *   SB-ECE = (Σ_j w_j |acc_j − conf_j|^p)^{1/p}.
 * The caltrain code fixes p = 2; any p ≥ 1 is accepted. As T → 0 it tends to the equal-width ECE_p with M bins
 * (src/metrics). Gradients flow through c in both u and conf; a carries none. The sum under the root is floored at
 * 1e−30 (gradient 0 at a perfect score instead of ∞·0). Batch-level. Terms: { sbece } (= loss).
 */
export const sbEceBin = defineLoss({
  name: 'sb-ece-bin',
  title: 'Soft-binned ECE (bin form) with Gaussian-softmax bins (Karandikar et al. 2021)',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: SOFT_BIN_OPTIONS,
  compute(input, { bins, temperature, p }) {
    const c = input.confidence;
    const u = input.masked(softBinMembership(c, sbEceBinCenters(bins), temperature)); // [M, B]
    const s = u.sum(0); // [B]
    const denom = s.maximum(SB_ECE_DEFAULTS.epsilon);
    const m = input.rows;
    const conf = u
      .mul(c.reshape([m, 1]))
      .sum(0)
      .div(denom);
    const acc = u
      .mul(input.correct.reshape([m, 1]))
      .sum(0)
      .div(denom);
    const gap = acc.sub(conf);
    const loss = pthRoot(s.div(input.count).mul(gapPower(gap, p)).sum(), p);
    return { loss, terms: { sbece: loss } };
  },
});

/** SB-ECE (bin form) of logits [N, C] (or dense) against labels or soft targets; see `sbEceBin`. */
export function softBinnedEceLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof sbEceBin.options>): LossResult {
  return sbEceBin.apply(logits, targets, options);
}
