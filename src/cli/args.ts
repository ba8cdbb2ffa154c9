/**
 * A small, dependency-free command-line flag parser with typed flag specs.
 *
 * Accepted forms: `--flag value`, `--flag=value`, booleans as `--flag` (or `--flag=true|false`), repeated flags
 * for specs with `multiple: true` (`--opt k=v --opt k2=v2`), `--` to end the flags. Unknown flags, a missing value,
 * a value that is not a number, a value outside `choices`, a non-repeatable flag given twice, a missing required
 * flag and positional arguments are `UsageError`s (one line, exit code 2 in the CLI).
 */

import { didYouMean } from '../util/typo-hint.js';

export type FlagType = 'string' | 'number' | 'integer' | 'boolean';

export interface FlagSpec {
  readonly type: FlagType;
  /** One line for --help. */
  readonly description: string;
  /** Placeholder in --help (default by type: FILE-like names are chosen per flag, else VALUE / N). */
  readonly valueName?: string;
  readonly required?: boolean;
  /** The flag may be repeated; the value is an array in the order given. */
  readonly multiple?: boolean;
  /** Allowed values (string flags). */
  readonly choices?: readonly string[];
  /** Default value when the flag is absent (shown in --help). */
  readonly default?: string | number | boolean;
  /**
   * A default that is not filled in by the parser but applied later by someone else — a configuration schema whose
   * fallback it is (`calib train`: the flag stays absent so a --config file's value is kept): shown in --help only.
   */
  readonly shownDefault?: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type ValueOf<S extends FlagSpec> = S['type'] extends 'boolean' ? boolean : S['type'] extends 'number' | 'integer' ? number : string;

/** The parsed flags: arrays for `multiple`, booleans always present, required/defaulted flags never undefined. */
export type ParsedFlags<F extends FlagSpecs> = {
  -readonly [K in keyof F]: F[K] extends { multiple: true }
    ? ValueOf<F[K]>[]
    : F[K] extends { type: 'boolean' }
      ? boolean
      : F[K] extends { required: true } | { default: string | number | boolean }
        ? ValueOf<F[K]>
        : ValueOf<F[K]> | undefined;
};

/** A mistake in how the command line was written (not in the data): printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function convert(name: string, spec: FlagSpec, raw: string): string | number | boolean {
  switch (spec.type) {
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new UsageError(`--${name}: expected true or false, got ${JSON.stringify(raw)}`);
    case 'number':
    case 'integer': {
      const v = NUMBER.test(raw.trim()) ? Number(raw) : Number.NaN;
      if (!Number.isFinite(v) || (spec.type === 'integer' && !Number.isInteger(v))) {
        throw new UsageError(`--${name}: expected ${spec.type === 'integer' ? 'an integer' : 'a number'}, got ${JSON.stringify(raw)}`);
      }
      return v;
    }
    case 'string':
      if (spec.choices && !spec.choices.includes(raw)) {
        throw new UsageError(`--${name}: expected one of ${spec.choices.map((c) => `'${c}'`).join(', ')}, got ${JSON.stringify(raw)}${didYouMean(raw, spec.choices)}`);
      }
      return raw;
  }
}

/** Result of `parseArgs`: the flags, or a request for help. */
export type ParseResult<F extends FlagSpecs> = { readonly help: true } | { readonly help: false; readonly flags: ParsedFlags<F> };

/**
 * Parse `argv` (the arguments after the command name) against `specs`. `-h`/`--help` anywhere returns
 * `{ help: true }` before any other check, so help always works.
 */
export function parseArgs<F extends FlagSpecs>(specs: F, argv: readonly string[], command: string): ParseResult<F> {
  const prefix = command ? `${command}: ` : '';
  const seeHelp = ` (see calib ${command ? command + ' ' : ''}--help)`;
  if (argv.some((a) => a === '--help' || a === '-h')) return { help: true };
  const values: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      if (i + 1 < argv.length) throw new UsageError(`${prefix}unexpected argument ${JSON.stringify(argv[i + 1])}${seeHelp}`);
      break;
    }
    if (!arg.startsWith('--') || arg.length === 2) {
      throw new UsageError(`${prefix}unexpected argument ${JSON.stringify(arg)}${seeHelp}`);
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const spec = Object.prototype.hasOwnProperty.call(specs, name) ? specs[name] : undefined;
    if (!spec) {
      const known = Object.keys(specs).filter((k) => k.startsWith(name.slice(0, 3)));
      const hint = known.length ? ` (did you mean ${known.map((k) => `--${k}`).join(', ')}?)` : seeHelp;
      throw new UsageError(`${prefix}unknown flag --${name}${hint}`);
    }
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (spec.type === 'boolean') raw = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw new UsageError(`${prefix}--${name} needs a value${spec.valueName ? ` (${spec.valueName})` : ''}`);
      }
      raw = next;
      i++;
    }
    const value = convert(name, spec, raw);
    if (spec.multiple) ((values[name] ??= []) as unknown[]).push(value);
    else if (name in values) throw new UsageError(`${prefix}--${name} given more than once`);
    else values[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (name in values) continue;
    if (spec.required) throw new UsageError(`${prefix}missing required flag --${name}${seeHelp}`);
    if (spec.multiple) values[name] = [];
    else if (spec.default !== undefined) values[name] = spec.default;
    else if (spec.type === 'boolean') values[name] = false;
  }
  return { help: false, flags: values as ParsedFlags<F> };
}

/**
 * Parse repeated `key=value` options (`--opt maxIter=200 --opt grid=0.1,0.2`) into an object. Values that are
 * numbers become numbers, `true`/`false` become booleans, comma-separated lists of numbers become arrays; the rest
 * stay strings.
 */
export function parseKeyValues(flag: string, items: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const scalar = (s: string): unknown => (NUMBER.test(s) ? Number(s) : s === 'true' ? true : s === 'false' ? false : s);
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`--${flag}: expected key=value, got ${JSON.stringify(item)}`);
    const key = item.slice(0, eq);
    const raw = item.slice(eq + 1);
    if (key in out) throw new UsageError(`--${flag}: key ${JSON.stringify(key)} given more than once`);
    const parts = raw.split(',');
    out[key] = parts.length > 1 && parts.every((p) => NUMBER.test(p)) ? parts.map(Number) : scalar(raw);
  }
  return out;
}
