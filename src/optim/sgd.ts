/**
 * Stochastic gradient descent with momentum, dampening, Nesterov and L2 weight decay exactly as PyTorch's
 * torch.optim.SGD (Sutskever et al. 2013 form):
 *   g ← ∇ + λ·p
 *   b ← μ·b + (1 − τ)·g        (first step: b ← g, PyTorch clones the gradient; the buffer starts at 0 and the
 *                               host feeds the factor 1 at step 1, 1 − τ afterwards)
 *   d ← g + μ·b (Nesterov) or b
 *   p ← p − η·d
 * Without momentum (μ = 0) there is no state: p ← p − η·g. Scalars fed per step: lr, and `damp` when τ ≠ 0.
 */
import { describe, InvalidArgumentError, requireNumber } from '../util/errors.js';
import { masked, type Optimizer, type UpdateResult } from './optimizer.js';

/** Options of `sgd`. */
export interface SgdOptions {
  /** μ (default 0). */
  readonly momentum?: number;
  /** τ (default 0). */
  readonly dampening?: number;
  /** λ, L2 penalty added to the gradient (default 0). */
  readonly weightDecay?: number;
  /** Default false; requires μ > 0 and τ = 0 (as PyTorch). */
  readonly nesterov?: boolean;
}

/** Build an SGD optimizer. */
export function sgd(options: SgdOptions = {}): Optimizer {
  const momentum = requireNumber('sgd options.momentum', options.momentum ?? 0, { min: 0 });
  const dampening = requireNumber('sgd options.dampening', options.dampening ?? 0, { min: 0, max: 1 });
  const weightDecay = requireNumber('sgd options.weightDecay', options.weightDecay ?? 0, { min: 0 });
  const nesterov = options.nesterov ?? false;
  if (typeof nesterov !== 'boolean') throw new InvalidArgumentError('sgd options.nesterov', 'a boolean', describe(nesterov));
  if (nesterov && (momentum <= 0 || dampening !== 0)) {
    throw new InvalidArgumentError('sgd options.nesterov', 'momentum > 0 and dampening = 0 (as PyTorch)', `momentum ${momentum}, dampening ${dampening}`);
  }
  const useDamp = momentum > 0 && dampening !== 0;
  return {
    kind: 'sgd',
    config: { momentum, dampening, weightDecay, nesterov },
    slots: momentum > 0 ? ['momentum'] : [],
    scalarNames: useDamp ? ['lr', 'damp'] : ['lr'],
    scalars(step, lr): Record<string, number> {
      requireNumber('step', step, { min: 1, integer: true });
      requireNumber('lr', lr, { min: 0 });
      return useDamp ? { lr, damp: step === 1 ? 1 : 1 - dampening } : { lr };
    },
    update({ param, grad, state, scalars, decayMask }): UpdateResult {
      const lr = scalars['lr']!;
      let g = weightDecay !== 0 ? grad.add(masked(param, decayMask).mul(weightDecay)) : grad;
      if (momentum === 0) return { param: param.sub(g.mul(lr)), state: {} };
      const gIn = useDamp ? g.mul(scalars['damp']!) : g;
      const buf = state['momentum']!.mul(momentum).add(gIn);
      g = nesterov ? g.add(buf.mul(momentum)) : buf;
      return { param: param.sub(g.mul(lr)), state: { momentum: buf } };
    },
  };
}
