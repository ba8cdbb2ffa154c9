import type { Tensor } from '../../engine/index.js';
import { AVUC_OPTIONS, defineAvuc } from './avuc.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/**
 * AvUC with gradient stopping, AvUC-GS (Karandikar et al. 2021, appendix; caltrain `get_avuc_loss` with
 * avuc_stop_prob_gradients = True; METHODS.md § Secondary terms): AvUC with every confidence c replaced by
 * stop-gradient(c), so gradients reach the logits only through the entropies u (tanh u). Batch-level.
 * Terms: { avuc (= loss), nAC, nAU, nIC, nIU }.
 */
export const avucGs = defineAvuc('avuc-gs', 'AvUC with stop-gradient on the confidences (Karandikar et al. 2021)', true);

/** AvUC-GS term of logits [N, C] (or dense) against labels or soft targets; see `avucGs`. */
export function avucGsLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof AVUC_OPTIONS>): LossResult {
  return avucGs.apply(logits, targets, options);
}
