/**
 * Adam (Kingma & Ba 2015) and AdamW (Loshchilov & Hutter 2019) exactly as torch.optim.Adam / AdamW
 * (single-tensor path, amsgrad off), at update number t (1-based):
 *   Adam:  g ← ∇ + λ·p (L2 in the gradient)          AdamW:  p ← p·(1 − η·λ) (decoupled decay), g ← ∇
 *   m ← β₁·m + (1 − β₁)·g;  v ← β₂·v + (1 − β₂)·g²
 *   p ← p − (η / (1 − β₁ᵗ)) · m / (√v / √(1 − β₂ᵗ) + ε)
 * Host scalars per step: lr (η), stepSize = η/(1 − β₁ᵗ), bc2Sqrt = √(1 − β₂ᵗ), and for AdamW decay = 1 − η·λ.
 */
import { requireNumber } from '../util/errors.js';
import { masked, type Optimizer } from './optimizer.js';

/** Options of `adam` and `adamw`. */
export interface AdamOptions {
  /** β₁ (default 0.9). */
  readonly beta1?: number;
  /** β₂ (default 0.999). */
  readonly beta2?: number;
  /** ε (default 1e-8). */
  readonly epsilon?: number;
  /** λ (default 0 for Adam, 0.01 for AdamW, as PyTorch). */
  readonly weightDecay?: number;
}

function build(kind: 'adam' | 'adamw', options: AdamOptions): Optimizer {
  const beta1 = requireNumber(`${kind} options.beta1`, options.beta1 ?? 0.9, { min: 0, max: 1 });
  const beta2 = requireNumber(`${kind} options.beta2`, options.beta2 ?? 0.999, { min: 0, max: 1 });
  const epsilon = requireNumber(`${kind} options.epsilon`, options.epsilon ?? 1e-8, { min: 0 });
  const weightDecay = requireNumber(`${kind} options.weightDecay`, options.weightDecay ?? (kind === 'adamw' ? 0.01 : 0), { min: 0 });
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

/** Adam with L2 weight decay in the gradient (torch.optim.Adam). */
export function adam(options: AdamOptions = {}): Optimizer {
  return build('adam', options);
}

/** AdamW with decoupled weight decay (torch.optim.AdamW; default λ = 0.01). */
export function adamw(options: AdamOptions = {}): Optimizer {
  return build('adamw', options);
}
