/** Optimizers by name: `createOptimizer({ kind: 'sgd', momentum: 0.9, weightDecay: 5e-4 })` (checkpoints store this). */
import { describe, InvalidArgumentError } from '../util/errors.js';
import { type AdamOptions, adam, adamw } from './adam.js';
import type { Optimizer } from './optimizer.js';
import { type SgdOptions, sgd } from './sgd.js';

/** An optimizer specification: kind plus options. */
export type OptimizerSpec = ({ readonly kind: 'sgd' } & SgdOptions) | ({ readonly kind: 'adam' } & AdamOptions) | ({ readonly kind: 'adamw' } & AdamOptions);

/** Build an optimizer from its specification. */
export function createOptimizer(spec: OptimizerSpec): Optimizer {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  switch (kind) {
    case 'sgd':
      return sgd(options);
    case 'adam':
      return adam(options);
    case 'adamw':
      return adamw(options);
    default:
      throw new InvalidArgumentError('spec.kind', 'sgd, adam or adamw', describe(kind));
  }
}
