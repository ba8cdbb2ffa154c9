import { defaultText, described, type FieldSchema, number, object, type ObjectSchema, optional, type Schema } from '../util/schema.js';
import type { CommonLossOptions } from './types.js';

/**
 * Declarative option schemas of the losses: one schema per loss is the source of its option types, defaults and
 * validation (and of the CLI's `--opt key=value` help, the README's loss table). Values are checked by the toolkit's
 * one schema language (util/schema.ts), so errors read as the configuration's and the calibrators' do, naming the
 * loss and the option: `mbls.margin: expected a finite number ≥ 0, got -1`.
 */

/**
 * One option of a loss: a key of util/schema.ts with its default and description,
 * `optional(number({ min: 0 }), 10, 'margin m')` — the same declaration as the optimizers', models' and run
 * configuration's options.
 */
export type LossOption<T = unknown> = FieldSchema<T>;

/** A loss's options, by name. */
export type OptionsSchema = Readonly<Record<string, LossOption>>;

/** The value of an option after defaults and validation. */
export type OptionValue<O> = O extends FieldSchema<infer T> ? T : never;

/** The value a caller may give for an option (a list option also takes one number). */
export type OptionInput<O> = OptionValue<O> extends readonly number[] ? number | readonly number[] : OptionValue<O>;

/** Options a caller may pass to a loss with schema S (all optional). */
export type LossOptions<S extends OptionsSchema> = { readonly [K in keyof S]?: OptionInput<S[K]> } & CommonLossOptions;

/** Options after `resolveOptions`: every schema option present. */
export type ResolvedOptions<S extends OptionsSchema> = { readonly [K in keyof S]: OptionValue<S[K]> } & CommonLossOptions;

/** Name of the option shared by every loss. */
export const COMMON_OPTION_NAMES = ['ignoreIndex'] as const;

/** The object schema of a loss's options (declared options with their defaults, plus `ignoreIndex`), built once. */
const OBJECT_SCHEMAS = new WeakMap<OptionsSchema, ObjectSchema<Readonly<Record<string, Schema<unknown>>>>>();

export function optionsObjectSchema(schema: OptionsSchema): ObjectSchema<Readonly<Record<string, Schema<unknown>>>> {
  let s = OBJECT_SCHEMAS.get(schema);
  if (s === undefined) {
    const shape: Record<string, Schema<unknown>> = { ...schema };
    shape['ignoreIndex'] = described(optional(number({ integer: true })), 'label value marking positions to leave out (default: none)');
    s = object(shape);
    OBJECT_SCHEMAS.set(schema, s);
  }
  return s;
}

/**
 * Validate `raw` against `schema` for loss `loss` with the toolkit's schema language (util/schema.ts): unknown keys,
 * wrong types and out-of-range values are `InvalidArgumentError`s naming `loss.option` (`mbls.margin: expected a
 * finite number ≥ 0, got -1`; `mbls.margn: expected a known key (did you mean margin?), got an unknown key`);
 * missing options take their defaults. `ignoreIndex` (any integer) is accepted by every loss.
 */
export function resolveOptions<S extends OptionsSchema>(loss: string, schema: S, raw: unknown): ResolvedOptions<S> {
  return optionsObjectSchema(schema).parse(raw ?? {}, loss) as unknown as ResolvedOptions<S>;
}

/** One line per option for help texts: `name [choices] (default d): description`. */
export function describeOptions(schema: OptionsSchema): string[] {
  return Object.entries(schema).map(([name, option]) => {
    const choices = option.choices ? ` [${option.choices.join('|')}]` : '';
    return `${name}${choices} (default ${defaultText(option)}): ${option.description}`;
  });
}
