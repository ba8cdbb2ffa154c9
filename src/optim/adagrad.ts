/**
 * Adagrad (Duchi, Hazan & Singer 2011, JMLR 12, Algorithm 1 with the diagonal G_t) exactly as torch.optim.Adagrad
 * (single-tensor path), at update t = 1, 2, …:
 *   η_t ← η / (1 + (t − 1)·δ)                      (learning-rate decay δ)
 *   g ← ∇ + λ·p                                    (L2 weight decay in the gradient)
 *   G ← G + g²,   p ← p − η_t · g / (√G + ε)
 * G starts at `initialAccumulatorValue` G₀; the state slot holds G − G₀ (zeros at the start, as every slot), so
 * the update reads √(slot + G₀). Host scalar per step: η_t.
 */
import { requireNumber } from '../util/errors.js';
import { number, object, optional } from '../util/schema.js';
import { masked, type Optimizer, type UpdateResult } from './optimizer.js';
import { defineOptimizer } from './optimizer-definition.js';

/** The options of `adagrad` (PyTorch's defaults; util/schema.ts). */
export const ADAGRAD_OPTIONS = object({
  lrDecay: optional(number({ min: 0 }), 0, 'δ, the step size at update t is lr / (1 + (t − 1)·δ)'),
  initialAccumulatorValue: optional(number({ min: 0 }), 0, 'G₀, start value of the sum of squared gradients'),
  epsilon: optional(number({ min: 0 }), 1e-10, 'ε added to the denominator √G'),
  weightDecay: optional(number({ min: 0 }), 0, 'λ, L2 penalty added to the gradient'),
});

/** Options of `adagrad` (defaults and descriptions: `ADAGRAD_OPTIONS`). */
export interface AdagradOptions {
  readonly lrDecay?: number;
  readonly initialAccumulatorValue?: number;
  readonly epsilon?: number;
  readonly weightDecay?: number;
}

/** Build an Adagrad optimizer (torch.optim.Adagrad; `path` names the options in errors). */
export function adagrad(options: AdagradOptions = {}, path = 'adagrad options'): Optimizer {
  const { lrDecay, initialAccumulatorValue, epsilon, weightDecay } = ADAGRAD_OPTIONS.parse(options, path);
  return {
    kind: 'adagrad',
    config: { lrDecay, initialAccumulatorValue, epsilon, weightDecay },
    slots: ['sumSquares'],
    scalarNames: ['lr'],
    scalars(step, lr) {
      requireNumber('step', step, { min: 1, integer: true });
      requireNumber('lr', lr, { min: 0 });
      return { lr: lr / (1 + (step - 1) * lrDecay) };
    },
    update({ param, grad, state, scalars, decayMask }): UpdateResult {
      const g = weightDecay !== 0 ? grad.add(masked(param, decayMask).mul(weightDecay)) : grad;
      const sumSquares = state['sumSquares']!.add(g.mul(g));
      const total = initialAccumulatorValue !== 0 ? sumSquares.add(initialAccumulatorValue) : sumSquares;
      const step = g.div(total.sqrt().add(epsilon)).mul(scalars['lr']!);
      return { param: param.sub(step), state: { sumSquares } };
    },
  };
}

/** Adagrad's declaration (optim/create.ts lists it). */
export const adagradDefinition = defineOptimizer({
  name: 'adagrad',
  summary: 'Adagrad, per-coordinate steps scaled by the root of the summed squared gradients (Duchi et al. 2011; as torch.optim.Adagrad)',
  options: ADAGRAD_OPTIONS,
  create: adagrad,
  checkedAgainst: 'torch.optim.Adagrad trajectories (test/optim/adagrad.test.ts)',
});
