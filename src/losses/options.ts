import { boolean, described, number, numberList, object, type ObjectSchema, optional, type Schema, string } from '../util/schema.js';
import type { CommonLossOptions } from './types.js';

/**
 * Declarative option schemas of the losses: one schema per loss is the source of its option types, defaults and
 * validation (and of the CLI's `--opt key=value` help, the README's loss table). Values are checked by the toolkit's
 * one schema language (util/schema.ts), so errors read as the configuration's and the calibrators' do, naming the
 * loss and the option: `mbls.margin: expected a finite number ≥ 0, got -1`.
 */

/** A real-valued (or integer) option with bounds. */
export interface NumberOption {
  readonly type: 'number';
  readonly default: number;
  readonly description: string;
  readonly min?: number;
  readonly max?: number;
  /** Strict lower bound (value > min). */
  readonly exclusiveMin?: boolean;
  /** Strict upper bound (value < max). */
  readonly exclusiveMax?: boolean;
  readonly integer?: boolean;
}

/** One of a fixed set of strings. */
export interface ChoiceOption<V extends string = string> {
  readonly type: 'choice';
  readonly choices: readonly V[];
  readonly default: V;
  readonly description: string;
}

/** A number or a non-empty list of numbers (e.g. ARC's bins = 5,15,30). */
export interface NumberListOption {
  readonly type: 'number-list';
  readonly default: readonly number[];
  readonly description: string;
  readonly min?: number;
  readonly integer?: boolean;
}

/** A boolean flag. */
export interface BooleanOption {
  readonly type: 'boolean';
  readonly default: boolean;
  readonly description: string;
}

export type OptionSpec = NumberOption | ChoiceOption | NumberListOption | BooleanOption;
export type OptionsSchema = Readonly<Record<string, OptionSpec>>;

/** The value a caller may give for an option. */
export type OptionInput<O> = O extends ChoiceOption<infer V>
  ? V
  : O extends NumberListOption
    ? number | readonly number[]
    : O extends BooleanOption
      ? boolean
      : number;

/** The value after defaults and validation. */
export type OptionValue<O> = O extends NumberListOption ? readonly number[] : OptionInput<O>;

/** Options a caller may pass to a loss with schema S (all optional). */
export type LossOptions<S extends OptionsSchema> = { readonly [K in keyof S]?: OptionInput<S[K]> } & CommonLossOptions;

/** Options after `resolveOptions`: every schema option present. */
export type ResolvedOptions<S extends OptionsSchema> = { readonly [K in keyof S]: OptionValue<S[K]> } & CommonLossOptions;

/** Name of the option shared by every loss. */
export const COMMON_OPTION_NAMES = ['ignoreIndex'] as const;

/** The value schema (util/schema.ts) of one declared option. */
export function optionValueSchema(spec: OptionSpec): Schema<unknown> {
  switch (spec.type) {
    case 'number':
      return number({
        ...(spec.min !== undefined ? { min: spec.min, exclusiveMin: spec.exclusiveMin === true } : {}),
        ...(spec.max !== undefined ? { max: spec.max, exclusiveMax: spec.exclusiveMax === true } : {}),
        ...(spec.integer ? { integer: true } : {}),
      });
    case 'choice':
      return string(spec.choices);
    case 'boolean':
      return boolean();
    case 'number-list':
      return numberList(number({ ...(spec.min !== undefined ? { min: spec.min } : {}), ...(spec.integer ? { integer: true } : {}) }));
  }
}

/** The object schema of a loss's options (declared options with their defaults, plus `ignoreIndex`), built once. */
const OBJECT_SCHEMAS = new WeakMap<OptionsSchema, ObjectSchema<Readonly<Record<string, Schema<unknown>>>>>();

export function optionsObjectSchema(schema: OptionsSchema): ObjectSchema<Readonly<Record<string, Schema<unknown>>>> {
  let s = OBJECT_SCHEMAS.get(schema);
  if (s === undefined) {
    const shape: Record<string, Schema<unknown>> = {};
    for (const [key, spec] of Object.entries(schema)) {
      shape[key] = optional(optionValueSchema(spec), spec.type === 'number-list' ? [...spec.default] : (spec.default as unknown), spec.description);
    }
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

/** One line per option for help texts: `name (default d): description`. */
export function describeOptions(schema: OptionsSchema): string[] {
  return Object.entries(schema).map(([name, spec]) => {
    const d = spec.type === 'number-list' ? spec.default.join(',') : String(spec.default);
    const choices = spec.type === 'choice' ? ` [${spec.choices.join('|')}]` : '';
    return `${name}${choices} (default ${d}): ${spec.description}`;
  });
}
