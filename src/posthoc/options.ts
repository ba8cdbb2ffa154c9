/**
 * Declarative fit options: each method declares its options once (default + validator); the same declaration
 * validates user options in `fit…`, fills in defaults (the result is stored as `settings` in the JSON) and
 * validates `settings` again when a calibrator is read back from JSON.
 */
import { describe, invalidArgument, requireNumber } from '../util/errors.js';

/** One option: its default and a validator that returns the value or throws naming `argument`. */
export interface OptionSpec<T> {
  readonly default: T;
  parse(argument: string, value: unknown): T;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec<unknown>>>;

/** The settings type produced by a spec: every option present with its type. */
export type SettingsOf<S extends OptionSpecs> = { readonly [K in keyof S]: S[K] extends OptionSpec<infer T> ? T : never };

/** The options type accepted by a fit function: every option optional. */
export type OptionsOf<S extends OptionSpecs> = { readonly [K in keyof S]?: S[K] extends OptionSpec<infer T> ? T : never };

/** A number option (finite, optional bounds / integrality). */
export function numberOption(
  defaultValue: number,
  bounds: { min?: number; max?: number; integer?: boolean; exclusiveMin?: boolean } = {},
): OptionSpec<number> {
  return { default: defaultValue, parse: (argument, value) => requireNumber(argument, value, bounds) };
}

/** A string option restricted to `values`. */
export function enumOption<T extends string>(values: readonly T[], defaultValue: T): OptionSpec<T> {
  return {
    default: defaultValue,
    parse(argument, value) {
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
        invalidArgument(argument, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, describe(value));
      }
      return value as T;
    },
  };
}

/**
 * Validate `raw` (undefined or a plain object) against `spec`: unknown keys and invalid values throw
 * `InvalidArgumentError` naming `${prefix}.${key}`; missing keys take their defaults. Keys are returned in the
 * spec's order, so equal settings serialise identically.
 */
export function parseOptions<S extends OptionSpecs>(prefix: string, raw: unknown, spec: S): SettingsOf<S> {
  if (raw === undefined) raw = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    invalidArgument(prefix, 'an object of options', describe(raw));
  }
  const record = raw as Record<string, unknown>;
  const known = Object.keys(spec);
  for (const key of Object.keys(record)) {
    if (!Object.prototype.hasOwnProperty.call(spec, key)) {
      invalidArgument(
        `${prefix}.${key}`,
        known.length > 0 ? `one of the known options (${known.join(', ')})` : 'no options',
        'an unknown option',
      );
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of known) {
    const value = record[key];
    out[key] = value === undefined ? spec[key]!.default : spec[key]!.parse(`${prefix}.${key}`, value);
  }
  return out as SettingsOf<S>;
}
