/**
 * Every optimizer, in the order the README lists them: `createOptimizer({ kind: 'sgd', momentum: 0.9, weightDecay:
 * 5e-4 })` (checkpoints store this). Each entry is the declaration in the optimizer's own file
 * (optimizer-definition.ts); from this list come the names (`OptimizerName`, `OPTIMIZER_NAMES`, `calib train
 * --optimizer` with its typo hints), the option schemas (`OPTIMIZER_OPTIONS`) and the README's optimizer table.
 *
 * ## How to add an optimizer (one file plus one test)
 * 1. Write `src/optim/<name>.ts`: its option schema (util/schema.ts), the builder returning an `Optimizer`
 *    (optimizer.ts: slots, host scalars, traced element-wise update) and `export const <name>Definition =
 *    defineOptimizer({ name, summary, options, create, checkedAgainst })`.
 * 2. Add the definition to `OPTIMIZERS` below, then `npm run docs` to refresh the README table.
 * 3. Write `test/optim/<name>.test.ts` comparing a trajectory with the reference (torch.optim, a fixture made by
 *    test/fixtures/scripts); test/optim/registry.test.ts already checks that every declaring file is listed.
 */
import { describe, InvalidArgumentError } from '../util/errors.js';
import { defineRegistry, type NameOf } from '../util/registry.js';
import { adagradDefinition } from './adagrad.js';
import { adamDefinition, adamwDefinition } from './adam.js';
import type { OptimizerOptionSchema } from './optimizer-definition.js';
import type { Optimizer } from './optimizer.js';
import { rmspropDefinition } from './rmsprop.js';
import { sgdDefinition } from './sgd.js';

/** Every optimizer's declaration, by name. */
export const OPTIMIZERS = defineRegistry('optimizer', [sgdDefinition, adamDefinition, adamwDefinition, rmspropDefinition, adagradDefinition]);

/** An optimizer's name (`calib train --optimizer`, the `kind` of an `OptimizerSpec`). */
export type OptimizerName = NameOf<typeof OPTIMIZERS>;

/** Every optimizer name, in the registry's order. */
export const OPTIMIZER_NAMES: readonly OptimizerName[] = OPTIMIZERS.names;

/** Each optimizer's option schema: what each option accepts, its default and description. */
export const OPTIMIZER_OPTIONS: { readonly [K in OptimizerName]: OptimizerOptionSchema } = Object.freeze(
  Object.fromEntries(OPTIMIZERS.definitions.map((d) => [d.name, d.options])) as Record<OptimizerName, OptimizerOptionSchema>,
);

type Definitions = (typeof OPTIMIZERS.definitions)[number];

/** An optimizer specification: kind plus the options its `create` takes. */
export type OptimizerSpec = Definitions extends infer D ? (D extends { name: infer N; create: (options: infer O, path?: string) => Optimizer } ? { readonly kind: N } & O : never) : never;

/** Build an optimizer from its specification (`path` names the options in errors; default `<kind> options`). */
export function createOptimizer(spec: OptimizerSpec, path?: string): Optimizer {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  return (OPTIMIZERS.get('spec.kind', kind).create as (options: Record<string, unknown>, path?: string) => Optimizer)(options, path);
}
