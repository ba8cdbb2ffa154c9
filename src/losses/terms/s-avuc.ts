import type { Tensor } from '../../engine/index.js';
import { avucEntropy, avucRatio } from './avuc-ratio.js';
import { defineLoss } from '../define-loss.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/** Clamp of the normalised entropy e = u/log C into [δ, 1 − δ] before the logit (keeps gradients finite at e = 0 or 1). */
export const S_AVUC_ENTROPY_CLAMP = 1e-6;

/**
 * Soft AvUC, S-AvUC (Karandikar et al. NeurIPS 2021, eq. 15), as in the caltrain code (`get_soft_avuc_loss`, the
 * non-deprecated form; METHODS.md § Secondary terms): with e_i = u_i / log C (u as in AvUC),
 *   o_u = σ((1/T) · log(e(1 − κ) / ((1 − e) κ))),  o_c = 1 − o_u,
 *   n_AC = Σ_acc o_c (1 − tanh u),  n_AU = Σ_acc o_u tanh u,  n_IC = Σ_inacc o_c (1 − tanh u),  n_IU = Σ_inacc o_u tanh u,
 *   S-AvUC = log(1 + (n_AU + n_IC) / max(n_AC + n_IU, 1e−5)).
 * Confidences are not used and nothing is stopped. e is clamped to [1e−6, 1 − 1e−6] (the code has no clamp and
 * gives ∞ at exactly uniform or one-hot predictions). Batch-level. Terms: { savuc (= loss), nAC, nAU, nIC, nIU }.
 * Defaults T = 1, κ = 0.5 (the code's); both are tuned in the paper.
 */
export const sAvuc = defineLoss({
  name: 's-avuc',
  title: 'Soft AvUC with a sigmoid soft-uncertainty of the normalised entropy (Karandikar et al. 2021)',
  role: 'term',
  scope: 'batch',
  targets: 'labels-or-soft',
  options: {
    kappa: optional(number({ min: 0, max: 1, exclusiveMin: true, exclusiveMax: true }), 0.5, 'soft threshold κ on the normalised entropy'),
    temperature: optional(number({ min: 0, exclusiveMin: true }), 1, 'sharpness T of the soft uncertainty'),
  },
  compute(input, { kappa, temperature }) {
    const u = avucEntropy(input);
    const e = u.div(Math.log(input.classes)).clip(S_AVUC_ENTROPY_CLAMP, 1 - S_AVUC_ENTROPY_CLAMP);
    const logit = e
      .log()
      .sub(e.neg().add(1).log())
      .add(Math.log((1 - kappa) / kappa));
    const oU = logit.div(temperature).sigmoid();
    const oC = oU.neg().add(1);
    const { loss, counts } = avucRatio(input, u, { certain: oC, uncertain: oU }, { certain: oC, uncertain: oU });
    return { loss, terms: { savuc: loss, ...counts } };
  },
});

/** S-AvUC term of logits [N, C] (or dense) against labels or soft targets; see `sAvuc`. */
export function softAvucLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof sAvuc.options>): LossResult {
  return sAvuc.apply(logits, targets, options);
}
