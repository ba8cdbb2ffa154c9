/**
 * Optimizers by name: `createOptimizer({ kind: 'sgd', momentum: 0.9, weightDecay: 5e-4 })` (checkpoints store this).
 * Each optimizer's options are declared once in its schema (`OPTIMIZER_OPTIONS`, util/schema.ts).
 */
import { describe, InvalidArgumentError } from '../util/errors.js';
import type { ObjectSchema, Schema } from '../util/schema.js';
import { ADAM_OPTIONS, ADAMW_OPTIONS, type AdamOptions, adam, adamw } from './adam.js';
import type { Optimizer } from './optimizer.js';
import { SGD_OPTIONS, type SgdOptions, sgd } from './sgd.js';

/** Each optimizer's option schema: what each option accepts, its default and description. */
export const OPTIMIZER_OPTIONS: { readonly [K in OptimizerSpec['kind']]: ObjectSchema<Readonly<Record<string, Schema<unknown>>>> } = {
  sgd: SGD_OPTIONS,
  adam: ADAM_OPTIONS,
  adamw: ADAMW_OPTIONS,
};

/** An optimizer specification: kind plus options. */
export type OptimizerSpec = ({ readonly kind: 'sgd' } & SgdOptions) | ({ readonly kind: 'adam' } & AdamOptions) | ({ readonly kind: 'adamw' } & AdamOptions);

/** Build an optimizer from its specification (`path` names the options in errors; default `<kind> options`). */
export function createOptimizer(spec: OptimizerSpec, path?: string): Optimizer {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  switch (kind) {
    case 'sgd':
      return sgd(options, path);
    case 'adam':
      return adam(options, path);
    case 'adamw':
      return adamw(options, path);
    default:
      throw new InvalidArgumentError('spec.kind', 'sgd, adam or adamw', describe(kind));
  }
}
