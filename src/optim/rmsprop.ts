/**
 * RMSprop (Tieleman & Hinton 2012, Lecture 6.5; centred form: Graves 2013, eq. 38–42) exactly as
 * torch.optim.RMSprop (single-tensor path):
 *   g ← ∇ + λ·p                                   (L2 weight decay in the gradient)
 *   v ← α·v + (1 − α)·g²
 *   centred: ḡ ← α·ḡ + (1 − α)·g,  s ← √(v − ḡ²) + ε;   otherwise s ← √v + ε
 *   momentum μ > 0: b ← μ·b + g / s,  p ← p − η·b;       otherwise p ← p − η·g / s
 * State slots: v, plus ḡ when centred and b when μ > 0 (zeros at the start, as PyTorch). Host scalar per step: lr.
 */
import { requireNumber } from '../util/errors.js';
import { boolean, number, object, optional } from '../util/schema.js';
import { masked, type Optimizer, type UpdateResult } from './optimizer.js';
import { defineOptimizer } from './optimizer-definition.js';

/** The options of `rmsprop` (PyTorch's defaults; util/schema.ts). */
export const RMSPROP_OPTIONS = object({
  alpha: optional(number({ min: 0, max: 1 }), 0.99, 'α, decay of the squared-gradient average'),
  epsilon: optional(number({ min: 0 }), 1e-8, 'ε added to the denominator √v'),
  momentum: optional(number({ min: 0 }), 0, 'momentum μ of the scaled step'),
  centered: optional(boolean(), false, 'centred RMSprop: divide by the estimated standard deviation √(v − ḡ²)'),
  weightDecay: optional(number({ min: 0 }), 0, 'λ, L2 penalty added to the gradient'),
});

/** Options of `rmsprop` (defaults and descriptions: `RMSPROP_OPTIONS`). */
export interface RmspropOptions {
  readonly alpha?: number;
  readonly epsilon?: number;
  readonly momentum?: number;
  readonly centered?: boolean;
  readonly weightDecay?: number;
}

/** Build an RMSprop optimizer (torch.optim.RMSprop; `path` names the options in errors). */
export function rmsprop(options: RmspropOptions = {}, path = 'rmsprop options'): Optimizer {
  const { alpha, epsilon, momentum, centered, weightDecay } = RMSPROP_OPTIONS.parse(options, path);
  return {
    kind: 'rmsprop',
    config: { alpha, epsilon, momentum, centered, weightDecay },
    slots: ['v', ...(centered ? ['gAvg'] : []), ...(momentum > 0 ? ['momentum'] : [])],
    scalarNames: ['lr'],
    scalars(step, lr) {
      requireNumber('step', step, { min: 1, integer: true });
      requireNumber('lr', lr, { min: 0 });
      return { lr };
    },
    update({ param, grad, state, scalars, decayMask }): UpdateResult {
      const lr = scalars['lr']!;
      const g = weightDecay !== 0 ? grad.add(masked(param, decayMask).mul(weightDecay)) : grad;
      const v = state['v']!.mul(alpha).add(g.mul(g).mul(1 - alpha));
      const next: Record<string, typeof v> = { v };
      let variance = v;
      if (centered) {
        const gAvg = state['gAvg']!.mul(alpha).add(g.mul(1 - alpha));
        next['gAvg'] = gAvg;
        variance = v.sub(gAvg.mul(gAvg));
      }
      const scaled = g.div(variance.sqrt().add(epsilon));
      if (momentum === 0) return { param: param.sub(scaled.mul(lr)), state: next };
      const buf = state['momentum']!.mul(momentum).add(scaled);
      next['momentum'] = buf;
      return { param: param.sub(buf.mul(lr)), state: next };
    },
  };
}

/** RMSprop's declaration (optim/create.ts lists it). */
export const rmspropDefinition = defineOptimizer({
  name: 'rmsprop',
  summary: 'RMSprop, optionally centred and with momentum (Tieleman & Hinton 2012; centred: Graves 2013; as torch.optim.RMSprop)',
  options: RMSPROP_OPTIONS,
  create: rmsprop,
  checkedAgainst: 'torch.optim.RMSprop trajectories (test/optim/rmsprop.test.ts)',
});
