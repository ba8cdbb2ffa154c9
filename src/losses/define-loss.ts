import { sum, type Tensor } from '../engine/index.js';
import { LossInput } from './loss-input.js';
import { type LossOptions, type OptionsSchema, type ResolvedOptions, resolveOptions } from './options.js';
import type { LossResult, LossRole, LossScope, LossTargetsLike } from './types.js';
import type { HostStateDeclaration } from './host-state.js';

/** What every loss file declares, whatever its scope. */
export interface LossSpecBase<S extends OptionsSchema> {
  /** Registry and CLI name; equals the file name (`focal` ↔ focal.ts). */
  readonly name: string;
  /** One line: what it is and where it comes from. */
  readonly title: string;
  readonly role: LossRole;
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
}

/**
 * The per-row form of a per-example loss: the loss of each row and its parts, all [M] over every row (ignored rows
 * included; `defineLoss` masks them).
 */
export interface PerExampleRows {
  /** ℓ_i, [M]: the loss is their mean over the counted rows. */
  readonly rows: Tensor;
  /**
   * The parts logged as terms, per row [M], each reduced to its mean over the counted rows, in this order. A part
   * given as `rows` itself (e.g. `{ ce: rows }` for CE) is the loss scalar, not a second reduction.
   */
  readonly terms: Readonly<Record<string, Tensor>>;
  /**
   * For a method defined as CE + regulariser (loss_i = CE_i + R_i): R_i per row [M], weighted as it enters the
   * objective (the paper's per-sample L_REG: ACLS α·reg, MbLS α·margin). Not logged as a term; read by the
   * per-sample evaluation (`evaluateLoss` with `perSample`), e.g. the report's regulariser histograms.
   */
  readonly regulariser?: Tensor;
}

/**
 * A per-example loss ('per-example' scope): it declares only its per-row values; `defineLoss` applies the reduction
 * once for all of them (`reducePerExample`): loss = Σ_i m_i ℓ_i / max(Σ_i m_i, 1) with the ignore mask m (M without
 * one), each term the same mean of its rows, and `perExample` = m ⊙ ℓ.
 */
export interface PerExampleLossSpec<S extends OptionsSchema> extends LossSpecBase<S> {
  readonly scope: 'per-example';
  /** The per-row loss and parts on a prepared input with validated options. */
  perExample(input: LossInput, options: ResolvedOptions<S>): PerExampleRows;
}

/** A batch-level loss ('batch' scope): its value couples the rows, so it reduces the batch itself. */
export interface BatchLossSpec<S extends OptionsSchema> extends LossSpecBase<S> {
  readonly scope: 'batch';
  /** Build the loss on a prepared input with validated options. */
  compute(input: LossInput, options: ResolvedOptions<S>): LossResult;
}

/** Everything a loss file declares: a per-example form, or a batch-level `compute`. */
export type LossSpec<S extends OptionsSchema> = PerExampleLossSpec<S> | BatchLossSpec<S>;

/** A loss: its declaration plus `compute` (for every scope), `resolve` and `apply`. */
export interface LossDefinition<S extends OptionsSchema = OptionsSchema> extends LossSpecBase<S> {
  readonly scope: LossScope;
  /** Per-example losses only: the declared per-row form (see `PerExampleLossSpec`); absent for batch losses. */
  readonly perExample?: (input: LossInput, options: ResolvedOptions<S>) => PerExampleRows;
  /** The loss on a prepared input with validated options (per-example losses: their rows, reduced). */
  compute(input: LossInput, options: ResolvedOptions<S>): LossResult;
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

/**
 * The reduction of every per-example loss: perExample = m ⊙ ℓ (ℓ itself without an ignore mask), loss =
 * Σ perExample / count (`LossInput.count`: max(Σ m, 1), or M), and each term the same masked mean of its rows (a term
 * given as `rows` is the loss itself).
 */
export function reducePerExample(input: LossInput, { rows, terms }: PerExampleRows): LossResult {
  const perExample = input.masked(rows);
  const loss = sum(perExample).div(input.count);
  const reduced: Record<string, Tensor> = {};
  for (const [key, part] of Object.entries(terms)) reduced[key] = part === rows ? loss : input.mean(part);
  return { loss, terms: reduced, perExample };
}

/** Declare a loss (the spec plus `compute`/`resolve`/`apply`), keeping the literal option schema type. */
export function defineLoss<const S extends OptionsSchema>(spec: LossSpec<S>): LossDefinition<S> {
  const compute =
    spec.scope === 'per-example'
      ? (input: LossInput, options: ResolvedOptions<S>): LossResult => reducePerExample(input, spec.perExample(input, options))
      : (input: LossInput, options: ResolvedOptions<S>): LossResult => spec.compute(input, options);
  const def: LossDefinition<S> = {
    ...spec,
    compute,
    resolve: (options) => resolveOptions(spec.name, spec.options, options),
    apply(logits, targets, options) {
      const resolved = resolveOptions(spec.name, spec.options, options);
      return compute(LossInput.prepare(spec.name, logits, targets, spec.targets, resolved.ignoreIndex), resolved);
    },
    applyTo(input, options) {
      return compute(input, resolveOptions(spec.name, spec.options, options));
    },
  };
  return Object.freeze(def);
}
