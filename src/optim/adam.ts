/**
 * Adam (Kingma & Ba 2015) and AdamW (Loshchilov & Hutter 2019) exactly as torch.optim.Adam / AdamW
 * (single-tensor path, amsgrad off), at update number t (1-based):
 *   Adam:  g ← ∇ + λ·p (L2 in the gradient)          AdamW:  p ← p·(1 − η·λ) (decoupled decay), g ← ∇
 *   m ← β₁·m + (1 − β₁)·g;  v ← β₂·v + (1 − β₂)·g²
 *   p ← p − (η / (1 − β₁ᵗ)) · m / (√v / √(1 − β₂ᵗ) + ε)
 * Host scalars per step: lr (η), stepSize = η/(1 − β₁ᵗ), bc2Sqrt = √(1 − β₂ᵗ), and for AdamW decay = 1 − η·λ.
 */
import { requireNumber } from '../util/errors.js';
import { number, object, optional } from '../util/schema.js';
import { masked, type Optimizer } from './optimizer.js';
import { defineOptimizer } from './optimizer-definition.js';

/** The options of Adam or AdamW, whose default λ differs (0 and 0.01, as PyTorch). */
function adamOptions(weightDecay: number, decay: string) {
  return object({
    beta1: optional(number({ min: 0, max: 1 }), 0.9, 'β₁, decay of the first-moment average'),
    beta2: optional(number({ min: 0, max: 1 }), 0.999, 'β₂, decay of the second-moment average'),
    epsilon: optional(number({ min: 0 }), 1e-8, 'ε added to the denominator'),
    weightDecay: optional(number({ min: 0 }), weightDecay, decay),
  });
}

/** The options of `adam` (PyTorch's defaults; util/schema.ts). */
export const ADAM_OPTIONS = adamOptions(0, 'λ, L2 penalty added to the gradient');

/** The options of `adamw` (PyTorch's defaults; util/schema.ts). */
export const ADAMW_OPTIONS = adamOptions(0.01, 'λ, decoupled weight decay p ← p·(1 − η·λ)');

/** Options of `adam` and `adamw` (defaults and descriptions: `ADAM_OPTIONS`, `ADAMW_OPTIONS`). */
export interface AdamOptions {
  readonly beta1?: number;
  readonly beta2?: number;
  readonly epsilon?: number;
  readonly weightDecay?: number;
}

function build(kind: 'adam' | 'adamw', options: AdamOptions, path: string): Optimizer {
  const { beta1, beta2, epsilon, weightDecay } = (kind === 'adamw' ? ADAMW_OPTIONS : ADAM_OPTIONS).parse(options, path);
  const decoupled = kind === 'adamw';
  return {
    kind,
    config: { beta1, beta2, epsilon, weightDecay },
    slots: ['m', 'v'],
    scalarNames: decoupled ? ['lr', 'stepSize', 'bc2Sqrt', 'decay'] : ['lr', 'stepSize', 'bc2Sqrt'],
    scalars(step, lr) {
      requireNumber('step', step, { min: 1, integer: true });
      requireNumber('lr', lr, { min: 0 });
      const s: Record<string, number> = { lr, stepSize: lr / (1 - beta1 ** step), bc2Sqrt: Math.sqrt(1 - beta2 ** step) };
      if (decoupled) s['decay'] = 1 - lr * weightDecay;
      return s;
    },
    update({ param, grad, state, scalars, decayMask }) {
      let p = param;
      let g = grad;
      if (weightDecay !== 0) {
        if (decoupled) {
          // p·(1 − ηλ) where the mask is 1, p elsewhere: p − p·mask·ηλ written as p·decay on the masked part.
          p = typeof decayMask === 'number' && decayMask === 1 ? p.mul(scalars['decay']!) : p.sub(masked(p, decayMask).mul(scalars['decay']!.neg().add(1)));
        } else g = g.add(masked(param, decayMask).mul(weightDecay));
      }
      const m = state['m']!.mul(beta1).add(g.mul(1 - beta1));
      const v = state['v']!.mul(beta2).add(g.mul(g).mul(1 - beta2));
      const denom = v.sqrt().div(scalars['bc2Sqrt']!).add(epsilon);
      return { param: p.sub(m.div(denom).mul(scalars['stepSize']!)), state: { m, v } };
    },
  };
}

/** Adam with L2 weight decay in the gradient (torch.optim.Adam; `path` names the options in errors). */
export function adam(options: AdamOptions = {}, path = 'adam options'): Optimizer {
  return build('adam', options, path);
}

/** AdamW with decoupled weight decay (torch.optim.AdamW; default λ = 0.01; `path` names the options in errors). */
export function adamw(options: AdamOptions = {}, path = 'adamw options'): Optimizer {
  return build('adamw', options, path);
}

/** Adam's declaration (optim/create.ts lists it). */
export const adamDefinition = defineOptimizer({
  name: 'adam',
  summary: 'Adam with L2 weight decay in the gradient (Kingma & Ba 2015, as torch.optim.Adam)',
  options: ADAM_OPTIONS,
  create: adam,
  checkedAgainst: 'torch.optim.Adam trajectories (test/optim)',
});

/** AdamW's declaration (optim/create.ts lists it). */
export const adamwDefinition = defineOptimizer({
  name: 'adamw',
  summary: 'AdamW with decoupled weight decay (Loshchilov & Hutter 2019, as torch.optim.AdamW)',
  options: ADAMW_OPTIONS,
  create: adamw,
  checkedAgainst: 'torch.optim.AdamW trajectories (test/optim)',
});
