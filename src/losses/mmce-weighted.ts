import type { Tensor } from '../engine/index.js';
import { defineLoss } from './define-loss.js';
import { MMCE_TERM, mmceKernel } from './mmce.js';
import type { LossOptions } from './options.js';
import type { LossResult, LossTargetsLike } from './types.js';

/** Constants of the official MMCE_weighted code: 1e−5 in the normalisers, 1e−10 under the square root. */
export const MMCE_WEIGHTED_EPS = Object.freeze({ normaliser: 1e-5, sqrt: 1e-10 });

/**
 * Weighted MMCE, MMCE_w (Kumar et al. 2018), exactly as the official code (focal-calibration / MbLS / MDCA
 * `MMCE_weighted`; METHODS.md § Secondary terms). With m = #correct, n = #incorrect, correct confidences weighted by
 * (1 − c) and incorrect ones by c, and the code's `torch.mean` over each block before its 1/(m²+1e−5)-type factor:
 *   S_cc = Σ_{i,j∈correct} (1−c_i)(1−c_j) k_ij,  S_ww = Σ_{i,j∈wrong} c_i c_j k_ij,  S_cw = Σ_{i∈correct, j∈wrong} (1−c_i) c_j k_ij,
 *   mmd = S_cc / (m²(m² + 1e−5)) + S_ww / (n²(n² + 1e−5)) − 2 S_cw / (mn(mn + 1e−5)),
 *   MMCE_w = sqrt(mmd + 1e−10) if m > 0 and n > 0, else 0.
 * (So each block is normalised twice, by its size and by its size squared — the code's behaviour, kept.) mmd is
 * floored at 0 before the root (the code would give NaN for a rounding-negative value). With soft targets the sets
 * are weighted by a_i and 1 − a_i. Batch-level, O(M²). Terms: { mmce } (= loss).
 */
export const mmceWeighted = defineLoss({
  name: 'mmce-weighted',
  title: 'Weighted MMCE (correct weighted by 1 − c, incorrect by c; official code normalisation)',
  ...MMCE_TERM,
  compute(input) {
    const kernel = mmceKernel(input, 'mmce-weighted');
    const m = input.rows;
    const c = input.confidence;
    const a = input.masked(input.correct);
    const wrong = input.masked(input.correct.neg().add(1));
    const wc = a.mul(c.neg().add(1)).reshape([m, 1]);
    const ww = wrong.mul(c).reshape([m, 1]);
    const kc = kernel.matmul(wc); // [M, 1]
    const sCC = kc.mul(wc).sum();
    const sCW = kc.mul(ww).sum();
    const sWW = kernel.matmul(ww).mul(ww).sum();
    const nC = a.sum();
    const nW = wrong.sum();
    const eps = MMCE_WEIGHTED_EPS.normaliser;
    const kC = nC.maximum(1);
    const kW = nW.maximum(1);
    const mmd = sCC.div(kC.square().mul(nC.square().add(eps)))
      .add(sWW.div(kW.square().mul(nW.square().add(eps))))
      .sub(sCW.mul(2).div(kC.mul(kW).mul(nC.mul(nW).add(eps))));
    const both = nC.greater(0).logicalAnd(nW.greater(0)).cast(input.dtype);
    const loss = mmd.maximum(0).add(MMCE_WEIGHTED_EPS.sqrt).sqrt().mul(both);
    return { loss, terms: { mmce: loss } };
  },
});

/** Weighted MMCE term of logits [N, C] against labels or soft targets; see `mmceWeighted`. */
export function mmceWeightedLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof mmceWeighted.options>): LossResult {
  return mmceWeighted.apply(logits, targets, options);
}
