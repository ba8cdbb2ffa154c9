/**
 * A small, dependency-free command-line flag parser over flags declared as option-schema fields (flag.ts).
 *
 * Accepted forms: `--flag value`, `--flag=value`, booleans as `--flag` (or `--flag=true|false`), repeated flags
 * for `repeatable` flags (`--opt k=v --opt k2=v2`), `--` to end the flags. A value is read as its schema's JSON
 * type (a number for `number()`, true/false for `boolean()`) and checked by the schema's own `parse`, the code
 * that checks configuration files: `--bins: expected an integer ≥ 1, got 0`. Unknown flags, a missing value, a
 * value the schema refuses, a non-repeatable flag given twice, a missing required flag and positional arguments
 * are `UsageError`s (one line, exit code 2 in the CLI).
 */

import { InvalidArgumentError } from '../util/errors.js';
import { type Flag, type Flags, isRequired, type ParsedFlags } from './flag.js';

export type { Flag, Flags, ParsedFlags } from './flag.js';

/** A mistake in how the command line was written (not in the data): printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value of `--name raw`: the text read as the schema's JSON type, then checked by the schema. */
function convert(name: string, f: Flag, raw: string): unknown {
  const type = f.schema.type;
  const value = type === 'number' ? (NUMBER.test(raw.trim()) ? Number(raw) : raw) : type === 'boolean' ? (raw === 'true' ? true : raw === 'false' ? false : raw) : raw;
  try {
    return f.schema.parse(value, `--${name}`);
  } catch (error) {
    if (error instanceof InvalidArgumentError) throw new UsageError(error.message);
    throw error;
  }
}

/** Result of `parseArgs`: the flags, or a request for help. */
export type ParseResult<F extends Flags> = { readonly help: true } | { readonly help: false; readonly flags: ParsedFlags<F> };

/**
 * Parse `argv` (the arguments after the command name) against `specs`. `-h`/`--help` anywhere returns
 * `{ help: true }` before any other check, so help always works.
 */
export function parseArgs<F extends Flags>(specs: F, argv: readonly string[], command: string): ParseResult<F> {
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
    else if (spec.schema.type === 'boolean') raw = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        throw new UsageError(`${prefix}--${name} needs a value${spec.valueName ? ` (${spec.valueName})` : ''}`);
      }
      raw = next;
      i++;
    }
    const value = convert(name, spec, raw);
    if (spec.repeatable) ((values[name] ??= []) as unknown[]).push(value);
    else if (name in values) throw new UsageError(`${prefix}--${name} given more than once`);
    else values[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (name in values) continue;
    if (isRequired(spec)) throw new UsageError(`${prefix}missing required flag --${name}${seeHelp}`);
    const fallback = (spec.schema as { fallback?: unknown }).fallback;
    if (spec.repeatable) values[name] = [];
    else if (fallback !== undefined) values[name] = structuredClone(fallback);
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
