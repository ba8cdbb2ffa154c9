import type { Tensor } from '../../engine/index.js';
import { avucEntropy, avucRatio } from './avuc-ratio.js';
import { defineLoss, type LossDefinition } from '../define-loss.js';
import type { LossInput } from '../loss-input.js';
import type { LossOptions, ResolvedOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional } from '../../util/schema.js';

/** Options shared by AvUC and AvUC-GS. */
export const AVUC_OPTIONS = {
  kappa: optional(number({ min: 0 }), 0, 'entropy threshold κ (nats): certain if u < κ; 0 (default) = 0.5·ln C, half the maximum entropy'),
} as const;

/**
 * The threshold κ in nats: the given one, or for 0 (the default) 0.5·ln C — half the maximum entropy, the
 * threshold S-AvUC's default κ = 0.5 sets on the normalised entropy. A fixed κ does not scale with C: on MNIST
 * (C = 10, ln C = 2.30) focal + AvUC at κ = 0.5 nats ended 3 epochs at 94.1 % accuracy with 70.9 % ECE (every
 * early prediction is "uncertain", and AvUC then rewards lowering the confidence of accurate predictions), at
 * κ = 0.5·ln C = 1.15 at 92.6 % / 10.0 % (README § AvUC's threshold). Krishnan & Tickoo derive κ from the mean
 * predictive entropy after warm-up epochs; Karandikar et al. tune it.
 */
export function avucThreshold(kappa: number, classes: number): number {
  return kappa > 0 ? kappa : 0.5 * Math.log(classes);
}

/** AvUC with or without stopping the confidence gradient. */
export function avucTerm(input: LossInput, { kappa }: ResolvedOptions<typeof AVUC_OPTIONS>, stopConfidence: boolean): LossResult {
  const u = avucEntropy(input);
  const c = stopConfidence ? input.confidence.stopGradient() : input.confidence;
  const certain = u.stopGradient().less(avucThreshold(kappa, input.classes)).cast(input.dtype);
  const uncertain = certain.neg().add(1);
  const wrongConf = c.neg().add(1);
  const { loss, counts } = avucRatio(input, u, { certain: certain.mul(c), uncertain: uncertain.mul(c) }, { certain: certain.mul(wrongConf), uncertain: uncertain.mul(wrongConf) });
  return { loss, terms: { avuc: loss, ...counts } };
}

/** The definition of AvUC (`stopConfidence` false) or AvUC-GS (true) under `name`: a batch-level term over `AVUC_OPTIONS`. */
export function defineAvuc(name: string, title: string, stopConfidence: boolean): LossDefinition<typeof AVUC_OPTIONS> {
  return defineLoss({
    name,
    title,
    role: 'term',
    scope: 'batch',
    targets: 'labels-or-soft',
    options: AVUC_OPTIONS,
    compute: (input, options) => avucTerm(input, options, stopConfidence),
  });
}

/**
 * Accuracy versus uncertainty calibration, AvUC (Krishnan & Tickoo, NeurIPS 2020, eq. 3), as in the caltrain code
 * (`get_avuc_loss`, avuc_stop_prob_gradients = False; METHODS.md § Secondary terms): u_i = entropy of
 * (1 − 1e−5) p + 1e−5/C, certain if u_i < κ (default 0.5·ln C, see `avucThreshold`), c = max softmax,
 *   n_AC = Σ_{accurate, certain} c(1 − tanh u),  n_AU = Σ_{accurate, uncertain} c·tanh u,
 *   n_IC = Σ_{inaccurate, certain} (1 − c)(1 − tanh u),  n_IU = Σ_{inaccurate, uncertain} (1 − c) tanh u,
 *   AvUC = log(1 + (n_AU + n_IC) / max(n_AC + n_IU, 1e−5)).
 * The hard certain/uncertain split carries no gradient (u still does through tanh u). Batch-level.
 * Terms: { avuc (= loss), nAC, nAU, nIC, nIU }.
 */
export const avuc = defineAvuc('avuc', 'AvUC accuracy-versus-uncertainty calibration (Krishnan & Tickoo 2020)', false);

/** AvUC term of logits [N, C] (or dense) against labels or soft targets; see `avuc`. */
export function avucLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof AVUC_OPTIONS>): LossResult {
  return avuc.apply(logits, targets, options);
}
