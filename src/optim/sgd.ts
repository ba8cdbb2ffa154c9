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
import { InvalidArgumentError, requireNumber } from '../util/errors.js';
import { boolean, number, object, optional } from '../util/schema.js';
import { masked, type Optimizer, type UpdateResult } from './optimizer.js';
import { defineOptimizer } from './optimizer-definition.js';
import { sgdHostKernelAvailable, sgdMomentumHostUpdate } from './sgd-host-kernel.js';

/** The options of `sgd` (PyTorch's defaults): what each accepts, its default and description (util/schema.ts). */
export const SGD_OPTIONS = object({
  momentum: optional(number({ min: 0 }), 0, 'momentum μ'),
  dampening: optional(number({ min: 0, max: 1 }), 0, 'dampening τ'),
  weightDecay: optional(number({ min: 0 }), 0, 'λ, L2 penalty added to the gradient'),
  nesterov: optional(boolean(), false, 'Nesterov momentum (needs μ > 0 and τ = 0, as PyTorch)'),
});

/** Options of `sgd` (defaults and descriptions: `SGD_OPTIONS`). */
export interface SgdOptions {
  readonly momentum?: number;
  readonly dampening?: number;
  readonly weightDecay?: number;
  readonly nesterov?: boolean;
}

/** Build an SGD optimizer (`path` names the options in errors). */
export function sgd(options: SgdOptions = {}, path = 'sgd options'): Optimizer {
  const { momentum, dampening, weightDecay, nesterov } = SGD_OPTIONS.parse(options, path);
  if (nesterov && (momentum <= 0 || dampening !== 0)) {
    throw new InvalidArgumentError(`${path}.nesterov`, 'momentum > 0 and dampening = 0 (as PyTorch)', `momentum ${momentum}, dampening ${dampening}`);
  }
  const useDamp = momentum > 0 && dampening !== 0;
  // Momentum with weight decay, no dampening, no Nesterov (the usual recipe) also runs as one fused pass on the host.
  const host = momentum > 0 && !useDamp && !nesterov && weightDecay > 0 && sgdHostKernelAvailable();
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
    ...(host
      ? {
          hostUpdate: (params: Float32Array, grad: Float32Array, slots: Readonly<Record<string, Float32Array>>, scalars: Readonly<Record<string, number>>) => {
            const buffer = slots['momentum']!;
            sgdMomentumHostUpdate(params, grad, buffer, weightDecay, momentum, scalars['lr']!);
            return { params, slots: { momentum: buffer } };
          },
        }
      : {}),
  };
}

/** SGD's declaration (optim/create.ts lists it). */
export const sgdDefinition = defineOptimizer({
  name: 'sgd',
  summary: 'SGD with momentum, dampening, Nesterov and L2 weight decay (Sutskever et al. 2013 form, as torch.optim.SGD)',
  options: SGD_OPTIONS,
  create: sgd,
  checkedAgainst: 'torch.optim.SGD trajectories (test/optim)',
});
