/**
 * A command-line flag is a field of the toolkit's one option-schema language (util/schema.ts) plus how the command
 * line shows it: the schema states the value's type, choices, range, default (an optional field's fallback) and
 * one-line description — the same constructors as configuration files, suite files and calibrator options — and the
 * parser (args.ts) validates a flag's value with that schema's `parse`, so a flag's rules and its `--help` line are
 * written once. A `train` flag that sets a configuration key takes the key's own schema (commands/train.ts).
 *
 *   bins:   flag(optional(number({ integer: true, min: 1 }), 15, 'number of bins'), { valueName: 'N' })
 *   labels: flag(described(string(), 'labels file'), { valueName: 'FILE' })          (required: not optional)
 *   json:   flag(optional(boolean(), false, 'print JSON'))
 *   opt:    flag(described(string(), 'calibrator option'), { repeatable: true, valueName: 'KEY=VALUE' })
 */
import { optional, type Schema } from '../util/schema.js';

/** How a flag appears on the command line, beside what its schema says about its value. */
export interface FlagPresentation {
  /** Placeholder in --help (default: the choices joined by '|', else VALUE for strings and N for numbers). */
  readonly valueName?: string;
  /** The flag may be repeated; its value is the list of the given values in order (empty when absent). */
  readonly repeatable?: boolean;
  /**
   * A default that the parser does not fill in but someone else applies later — a configuration schema whose
   * fallback it is (`calib train`: the flag stays absent so a --config file's value is kept): shown in --help only.
   */
  readonly shownDefault?: string;
}

/**
 * A flag: `schema` validates one value (for a repeatable flag, each value). A schema that is not optional makes the
 * flag required; an optional one with a fallback fills it in when the flag is absent.
 */
export interface Flag<T = unknown> extends FlagPresentation {
  readonly schema: Schema<T>;
}

/** A command's flags by name (kebab-case, without the leading `--`). */
export type Flags = Readonly<Record<string, Flag>>;

/** Declare a flag (see the module comment); the presentation's literal types are kept (`repeatable: true`). */
export function flag<T>(schema: Schema<T>): Flag<T>;
export function flag<T, const P extends FlagPresentation>(schema: Schema<T>, presentation: P): Flag<T> & P;
export function flag<T>(schema: Schema<T>, presentation: FlagPresentation = {}): Flag<T> {
  return { ...presentation, schema };
}

/** `f` made optional without a fallback, for a command where other flags can stand in for it (eval's --labels). */
export function optionalFlag<T, P extends FlagPresentation>(f: Flag<T> & P): Flag<T | undefined> & P {
  return { ...f, schema: optional(f.schema) };
}

/** Whether a flag must be given: its schema is not optional and it is not repeatable. */
export function isRequired(f: Flag): boolean {
  return !f.repeatable && (f.schema as { optional?: boolean }).optional !== true;
}

type ValueOf<F> = F extends Flag<infer T> ? (F extends { repeatable: true } ? Exclude<T, undefined>[] : T) : never;

/** The parsed flags: a list for a repeatable flag, the schema's type otherwise (undefined only for an optional flag without fallback). */
export type ParsedFlags<F extends Flags> = { -readonly [K in keyof F]: ValueOf<F[K]> };
