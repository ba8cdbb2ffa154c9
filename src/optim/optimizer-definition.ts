/**
 * What an optimizer declares about itself, once, in its own file: `defineOptimizer({...})`. The `OPTIMIZERS`
 * registry (create.ts) lists the declarations; from it come the optimizer names (`OptimizerName`, `calib train
 * --optimizer` and its typo hints), `createOptimizer`, the option schemas (`OPTIMIZER_OPTIONS`) and the README's
 * optimizer table (`npm run docs`).
 */
import type { ObjectSchema, Schema } from '../util/schema.js';
import type { Optimizer } from './optimizer.js';

/** An optimizer's option schema (util/schema.ts). */
export type OptimizerOptionSchema = ObjectSchema<Readonly<Record<string, Schema<unknown>>>>;

/** The declaration of one optimizer. */
export interface OptimizerDefinition<N extends string = string, O = Readonly<Record<string, unknown>>> {
  /** The name (`calib train --optimizer`, `createOptimizer({ kind })`) and the `kind` checkpoints store. */
  readonly name: N;
  /** One line for the README: the update rule and its source (authors, year). */
  readonly summary: string;
  /** Its options, with defaults and descriptions. */
  readonly options: OptimizerOptionSchema;
  /** Build the optimizer from options validated against `options` (`path` names them in errors). */
  readonly create: (options: O, path?: string) => Optimizer;
  /** The reference its tests compare trajectories against. */
  readonly checkedAgainst: string;
}

/** Declare an optimizer (frozen; the summary must be non-empty). */
export function defineOptimizer<const N extends string, O>(definition: OptimizerDefinition<N, O>): OptimizerDefinition<N, O> {
  if (definition.summary.trim() === '') throw new Error(`optimizer ${definition.name}: empty summary`);
  return Object.freeze({ ...definition });
}
