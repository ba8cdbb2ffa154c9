import type { Tensor } from '../engine/index.js';
import { LossInput } from './loss-input.js';
import { type LossOptions, type OptionsSchema, type ResolvedOptions, resolveOptions } from './options.js';
import type { LossResult, LossRole, LossScope, LossTargetsLike } from './types.js';
import type { HostStateDeclaration } from './host-state.js';

/** Everything a loss file declares. */
export interface LossSpec<S extends OptionsSchema> {
  /** Registry and CLI name; equals the file name (`focal` ↔ focal.ts). */
  readonly name: string;
  /** One line: what it is and where it comes from. */
  readonly title: string;
  readonly role: LossRole;
  readonly scope: LossScope;
  /** Which targets it needs: integer labels only, or labels or soft targets. */
  readonly targets: 'labels' | 'labels-or-soft';
  /** Option schema (defaults from METHODS.md). */
  readonly options: S;
  /** Host-side state the loss keeps across training steps (stateful losses such as CRL; see host-state.ts). */
  readonly hostState?: HostStateDeclaration;
  /**
   * For a 'term': its default weight β in primary + β·term when the user gives none — the value of the paper's
   * official code where it fixes one (MMCE: 2), else 1. See `termWeight`.
   */
  readonly defaultWeight?: number;
  /** Build the loss on a prepared input with validated options. */
  compute(input: LossInput, options: ResolvedOptions<S>): LossResult;
}

/** A loss: its declaration plus `apply` (validate options, prepare the input, compute). */
export interface LossDefinition<S extends OptionsSchema = OptionsSchema> extends LossSpec<S> {
  /** Validate options (unknown option, bad type or range → `InvalidArgumentError` naming `name.option`). */
  resolve(options?: LossOptions<S> | Readonly<Record<string, unknown>>): ResolvedOptions<S>;
  /** The loss of `logits` ([N, C] or [N, C, d1, …]) against `targets`. */
  apply(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<S>): LossResult;
  /** `apply` on an already prepared input (to share nodes between losses on the same logits). */
  applyTo(input: LossInput, options?: LossOptions<S>): LossResult;
}

/** The weight β of `term` in primary + β·term: `given`, else the term's `defaultWeight`, else 1. */
export function termWeight(term: { readonly defaultWeight?: number }, given?: number): number {
  return given ?? term.defaultWeight ?? 1;
}

/** Declare a loss (identity on the spec plus `resolve`/`apply`), keeping the literal option schema type. */
export function defineLoss<const S extends OptionsSchema>(spec: LossSpec<S>): LossDefinition<S> {
  const def: LossDefinition<S> = {
    ...spec,
    resolve: (options) => resolveOptions(spec.name, spec.options, options),
    apply(logits, targets, options) {
      const resolved = resolveOptions(spec.name, spec.options, options);
      return spec.compute(LossInput.prepare(spec.name, logits, targets, spec.targets, resolved.ignoreIndex), resolved);
    },
    applyTo(input, options) {
      return spec.compute(input, resolveOptions(spec.name, spec.options, options));
    },
  };
  return Object.freeze(def);
}
