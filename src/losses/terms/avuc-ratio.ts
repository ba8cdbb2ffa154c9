import type { Tensor } from '../../engine/index.js';
import type { LossInput } from '../loss-input.js';

/** EPS of the caltrain AvUC code: probabilities mixed with the uniform distribution before the log, and the ratio floor. */
export const AVUC_EPS = 1e-5;

/**
 * Predictive entropy of the caltrain AvUC/S-AvUC code: u_i = −Σ_k p̃_ik log p̃_ik with p̃ = (1 − 1e−5) p + 1e−5/C
 * (finite for one-hot p), shape [M].
 */
export function avucEntropy(input: LossInput): Tensor {
  const safe = input.prob.mul(1 - AVUC_EPS).add(AVUC_EPS / input.classes);
  return safe.mul(safe.log()).sum(1).neg();
}

/**
 * The AvUC log ratio (Krishnan & Tickoo 2020, eq. 3; Karandikar et al. 2021, eq. 15):
 *   log(1 + (n_AU + n_IC) / max(n_AC + n_IU, 1e−5)),
 * with the four soft counts over counted rows:
 *   n_AC = Σ a·g_c·(1 − tanh u), n_AU = Σ a·g_u·tanh u, n_IC = Σ (1 − a)·h_c·(1 − tanh u), n_IU = Σ (1 − a)·h_u·tanh u,
 * where (g_c, g_u) weight accurate samples and (h_c, h_u) inaccurate ones ([M] each). a ∈ [0, 1] is the correctness
 * (the code's a ∈ {0, 1}; soft a weights both sides).
 */
export function avucRatio(
  input: LossInput,
  u: Tensor,
  accurate: { certain: Tensor; uncertain: Tensor },
  inaccurate: { certain: Tensor; uncertain: Tensor },
): { loss: Tensor; counts: Record<'nAC' | 'nAU' | 'nIC' | 'nIU', Tensor> } {
  const a = input.correct;
  const wrong = a.neg().add(1);
  const th = u.tanh();
  const oneMinus = th.neg().add(1);
  const nAC = input.sum(a.mul(accurate.certain).mul(oneMinus));
  const nAU = input.sum(a.mul(accurate.uncertain).mul(th));
  const nIC = input.sum(wrong.mul(inaccurate.certain).mul(oneMinus));
  const nIU = input.sum(wrong.mul(inaccurate.uncertain).mul(th));
  const loss = nAU.add(nIC).div(nAC.add(nIU).maximum(AVUC_EPS)).add(1).log();
  return { loss, counts: { nAC, nAU, nIC, nIU } };
}
