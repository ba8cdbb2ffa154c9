import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import { MMCE_TERM, mmceKernel } from './mmce.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { optional, string } from '../../util/schema.js';

/** Constants of the official MMCE_weighted code: 1e−5 in the normalisers, 1e−10 under the square root. */
export const MMCE_WEIGHTED_EPS = Object.freeze({ normaliser: 1e-5, sqrt: 1e-10 });

/**
 * Constants of the `kumar` normalisation: the ARC code's 1e−11 in the block normalisers, and the floor of the quantity
 * under the square root (the ARC code has none, so an all-confident batch gives an infinite gradient there; floored at
 * 1e−12, the loss moves by at most 1e−6 and its gradient stays finite).
 */
export const MMCE_KUMAR_EPS = Object.freeze({ normaliser: 1e-11, floor: 1e-12 });

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
 *
 * `normalisation: 'kumar'` is MMCE_w as Kumar et al. 2018 write it and as the ARC code of Maroñas et al. 2021
 * computes it (`MMCE_net.cost_MMCE`): each block normalised once by its size,
 *   mmd = S_cc / (m² + 1e−11) + S_ww / (n² + 1e−11) − 2 S_cw / (mn + 1e−11),   MMCE_w = sqrt(mmd),
 * an empty block contributing 0 (so an all-correct batch is still penalised by S_cc), mmd floored at 1e−12.
 */
export const mmceWeighted = defineLoss({
  name: 'mmce-weighted',
  title: "Weighted MMCE (correct weighted by 1 − c, incorrect by c; the focal-calibration code's normalisation or Kumar et al.'s)",
  ...MMCE_TERM,
  options: {
    normalisation: optional(
      string(['code', 'kumar']),
      'code',
      "'code': the focal-calibration / MbLS / MDCA code's (each block normalised twice, 0 unless both sets are non-empty); 'kumar': Kumar et al.'s formula as the ARC code (each block once)",
    ),
  },
  compute(input, { normalisation }) {
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
    if (normalisation === 'kumar') {
      const k = MMCE_KUMAR_EPS.normaliser;
      const mmd = sCC
        .div(nC.square().add(k))
        .add(sWW.div(nW.square().add(k)))
        .sub(sCW.mul(2).div(nC.mul(nW).add(k)));
      const loss = mmd.maximum(MMCE_KUMAR_EPS.floor).sqrt();
      return { loss, terms: { mmce: loss } };
    }
    const eps = MMCE_WEIGHTED_EPS.normaliser;
    const kC = nC.maximum(1);
    const kW = nW.maximum(1);
    const mmd = sCC
      .div(kC.square().mul(nC.square().add(eps)))
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
