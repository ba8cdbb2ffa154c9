import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { CommonLossOptions } from './types.js';

/**
 * Declarative option schemas of the losses: one schema per loss is the source of its option types, defaults and
 * validation (and of the CLI's `--opt key=value` help). Errors name the loss and the option:
 * `mbls.margin: expected a finite number ≥ 0, got -1`.
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

/**
 * Validate `raw` against `schema` for loss `loss`: unknown keys, wrong types and out-of-range values are
 * `InvalidArgumentError`s naming `loss.option`; missing options take their defaults. `ignoreIndex` (any integer)
 * is accepted by every loss.
 */
export function resolveOptions<S extends OptionsSchema>(loss: string, schema: S, raw: unknown): ResolvedOptions<S> {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) invalidArgument(`${loss} options`, 'an object of option values', describe(raw));
  const given = raw as Record<string, unknown>;
  const known = [...Object.keys(schema), ...COMMON_OPTION_NAMES];
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) {
      invalidArgument(`${loss} options`, known.length ? `one of ${known.join(', ')}` : 'no options', `unknown option ${JSON.stringify(key)}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(schema)) {
    const value = given[key];
    out[key] = value === undefined ? defaultValue(spec) : checkValue(`${loss}.${key}`, spec, value);
  }
  if (given['ignoreIndex'] !== undefined) out['ignoreIndex'] = requireNumber(`${loss}.ignoreIndex`, given['ignoreIndex'], { integer: true });
  return out as ResolvedOptions<S>;
}

function defaultValue(spec: OptionSpec): unknown {
  return spec.type === 'number-list' ? [...spec.default] : spec.default;
}

function checkValue(argument: string, spec: OptionSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'number':
      return checkNumber(argument, spec, value);
    case 'choice':
      if (typeof value !== 'string' || !spec.choices.includes(value)) {
        invalidArgument(argument, `one of ${spec.choices.map((c) => `'${c}'`).join(', ')}`, describe(value));
      }
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') invalidArgument(argument, 'true or false', describe(value));
      return value;
    case 'number-list': {
      const list = typeof value === 'number' ? [value] : value;
      if (!Array.isArray(list) || list.length === 0) invalidArgument(argument, 'a number or a non-empty list of numbers', describe(value));
      return list.map((v: unknown, i: number) =>
        requireNumber(list.length > 1 ? `${argument}[${i}]` : argument, v, {
          ...(spec.min !== undefined ? { min: spec.min } : {}),
          ...(spec.integer ? { integer: true } : {}),
        }),
      );
    }
  }
}

function checkNumber(argument: string, spec: NumberOption, value: unknown): number {
  const v = requireNumber(argument, value, {
    ...(spec.min !== undefined ? { min: spec.min, exclusiveMin: spec.exclusiveMin === true } : {}),
    ...(spec.integer ? { integer: true } : {}),
  });
  if (spec.max !== undefined && (spec.exclusiveMax ? v >= spec.max : v > spec.max)) {
    invalidArgument(argument, `${spec.integer ? 'an integer' : 'a finite number'} ${spec.exclusiveMax ? '<' : '≤'} ${spec.max}`, describe(v));
  }
  return v;
}

/** One line per option for help texts: `name (default d): description`. */
export function describeOptions(schema: OptionsSchema): string[] {
  return Object.entries(schema).map(([name, spec]) => {
    const d = spec.type === 'number-list' ? spec.default.join(',') : String(spec.default);
    const choices = spec.type === 'choice' ? ` [${spec.choices.join('|')}]` : '';
    return `${name}${choices} (default ${d}): ${spec.description}`;
  });
}
