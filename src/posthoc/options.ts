/**
 * Declarative fit options: each method declares its options once (default, what it accepts, a description); the
 * same declaration validates user options in `fit…`, fills in defaults (the result is stored as `settings` in the
 * JSON), validates `settings` again when a calibrator is read back from JSON, and describes the option in
 * `calib fit --help` and the README's calibrator table (src/cli/docs/generated-tables.ts). Values are checked by
 * the toolkit's one schema language (util/schema.ts), so messages read as everywhere else:
 * `temperature options.bins: expected an integer ≥ 1, got 0`.
 */
import { describe, invalidArgument } from '../util/errors.js';
import { type FieldSchema, number, object, optional, string, type NumberSchemaOptions, type Schema } from '../util/schema.js';

/**
 * One option: a key of util/schema.ts with its default (`fallback`), what it accepts (`expected`, for help) and a
 * one-line description — `optional(schema, default, description)`, the declaration every option of the toolkit uses.
 */
export type OptionSpec<T> = FieldSchema<T> & { readonly fallback: T; readonly description: string };

export type OptionSpecs = Readonly<Record<string, OptionSpec<unknown>>>;

/** The settings type produced by a spec: every option present with its type. */
export type SettingsOf<S extends OptionSpecs> = { readonly [K in keyof S]: S[K] extends OptionSpec<infer T> ? T : never };

/** The options type accepted by a fit function: every option optional. */
export type OptionsOf<S extends OptionSpecs> = { readonly [K in keyof S]?: S[K] extends OptionSpec<infer T> ? T : never };

/** An option checked by `schema` (util/schema.ts), with its default and description. */
export function schemaOption<T>(schema: Schema<T>, defaultValue: T, description: string): OptionSpec<T> {
  return optional(schema, defaultValue, description) as OptionSpec<T>;
}

/** A number option (finite, optional bounds / integrality). */
export function numberOption(defaultValue: number, bounds: NumberSchemaOptions, description: string): OptionSpec<number> {
  return schemaOption(number(bounds), defaultValue, description);
}

/** A string option restricted to `values`. */
export function enumOption<const T extends string>(values: readonly T[], defaultValue: T, description: string): OptionSpec<T> {
  return schemaOption(string(values), defaultValue, description);
}

/** `name=default` and what it accepts and does: one line of `calib fit --help` / the README table. */
export function describeOption(name: string, spec: OptionSpec<unknown>): string {
  return `${name}=${String(spec.fallback)} (${spec.expected}): ${spec.description}`;
}

/**
 * Validate `raw` (undefined or a plain object) against `spec` with util/schema.ts's `object`: unknown keys (with a
 * typo hint) and invalid values throw `InvalidArgumentError` naming `${prefix}.${key}`; missing keys take their
 * defaults. Keys are returned in the spec's order, so equal settings serialise identically.
 */
export function parseOptions<S extends OptionSpecs>(prefix: string, raw: unknown, spec: S): SettingsOf<S> {
  if (raw === undefined) raw = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    invalidArgument(prefix, 'an object of options', describe(raw));
  }
  const extra = Object.keys(raw as object)[0];
  if (Object.keys(spec).length === 0 && extra !== undefined) invalidArgument(`${prefix}.${extra}`, 'no options (this method has none)', 'an unknown option');
  return object(spec as Record<string, Schema<unknown>>).parse(raw, prefix) as SettingsOf<S>;
}
