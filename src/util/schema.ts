/**
 * The toolkit's one option-schema language (the zod idea, dependency-free): one schema is the source of a
 * configuration's TypeScript type (`Infer<typeof schema>`), its defaults and its validation — `calib train
 * --config` (train/train-config.ts), suite files (suite/suite-schema.ts) and the post-hoc calibrators' options
 * (posthoc/options.ts, whose descriptions feed `calib fit --help` and the README), the losses' options
 * (losses/options.ts), the model zoo's and the optimizers' options (nn/models, optim), and every `calib` flag
 * (cli/flag.ts: a flag is a schema field plus its placeholder; cli/args.ts parses with `parse`). A schema may carry a
 * one-line `description` (`optional(inner, fallback, description)`, `described(schema, description)`): with the
 * fallback it is what `--help` shows, so a default is stated once. Errors are
 * `InvalidArgumentError`s naming the key path: `config.mixup: expected a finite number ≥ 0, got -1`,
 * `config.optimzer: expected a known key (dataset, model, …), got an unknown key`.
 */
import { describe, invalidArgument, requireNumber } from './errors.js';
import { closeNames, didYouMean } from './typo-hint.js';

/** A schema for values of type T. `parse` validates (throwing with `path`) and returns the normalised value. */
export interface Schema<T> {
  /** What the schema accepts, for messages and help ("a positive integer", "one of 'sgd', 'adamw'"). */
  readonly expected: string;
  /** One line for help texts: what the value means (absent: undocumented). */
  readonly description?: string;
  /** The values it accepts when they are a fixed set (`string(choices)`), for help texts and docs tables. */
  readonly choices?: readonly T[];
  /**
   * The JSON type of a scalar schema's values: how a command-line text becomes a value before `parse` sees it
   * (cli/args.ts: '12' → 12 for 'number', 'true' → true for 'boolean'); absent for lists and objects.
   */
  readonly type?: 'number' | 'string' | 'boolean';
  parse(value: unknown, path: string): T;
}

/** A schema for a key of an object: may be absent (then `fallback` applies, or the key stays undefined). */
export interface FieldSchema<T> extends Schema<T> {
  readonly optional: true;
  readonly fallback: T | undefined;
}

/** The type a schema produces. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** Options of `number`. */
export interface NumberSchemaOptions {
  readonly min?: number;
  readonly max?: number;
  readonly exclusiveMin?: boolean;
  readonly exclusiveMax?: boolean;
  readonly integer?: boolean;
}

/** A finite number (optionally an integer within bounds). */
export function number(options: NumberSchemaOptions = {}): Schema<number> {
  const kind = options.integer ? 'an integer' : 'a finite number';
  const bounds = [options.min !== undefined ? `${options.exclusiveMin ? '>' : '≥'} ${options.min}` : '', options.max !== undefined ? `${options.exclusiveMax ? '<' : '≤'} ${options.max}` : ''].filter(
    (s) => s !== '',
  );
  return {
    type: 'number',
    expected: `${kind}${bounds.length ? ' ' + bounds.join(' and ') : ''}`,
    parse: (value, path) => requireNumber(path, value, options),
  };
}

/** A string, optionally one of `choices`. */
export function string<const C extends string = string>(choices?: readonly C[]): Schema<C> {
  return {
    type: 'string',
    expected: choices ? `one of ${choices.map((c) => `'${c}'`).join(', ')}` : 'a string',
    ...(choices ? { choices } : {}),
    parse(value, path) {
      if (typeof value !== 'string' || value === '') invalidArgument(path, choices ? `one of ${choices.map((c) => `'${c}'`).join(', ')}` : 'a non-empty string', describe(value));
      if (choices && !choices.includes(value as C)) invalidArgument(path, `one of ${choices.map((c) => `'${c}'`).join(', ')}${didYouMean(value, choices, (c) => `'${c}'`)}`, describe(value));
      return value as C;
    },
  };
}

/** true or false. */
export function boolean(): Schema<boolean> {
  return {
    type: 'boolean',
    expected: 'true or false',
    parse(value, path) {
      if (typeof value !== 'boolean') invalidArgument(path, 'true or false', describe(value));
      return value;
    },
  };
}

/** An array of items (at least `minLength`, default 1). */
export function list<T>(item: Schema<T>, minLength = 1): Schema<T[]> {
  return {
    expected: `a list of ${item.expected}`,
    parse(value, path) {
      if (!Array.isArray(value) || value.length < minLength) invalidArgument(path, `a list of at least ${minLength} × ${item.expected}`, describe(value));
      return value.map((v, i) => item.parse(v, `${path}[${i}]`));
    },
  };
}

/**
 * A free-form object of JSON scalars and lists (options handed to another validator, e.g. a loss's option schema,
 * which names its own unknown keys).
 */
export function options(): Schema<Record<string, unknown>> {
  return {
    expected: 'an object of options',
    parse(value, path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) invalidArgument(path, 'an object of options', describe(value));
      for (const [k, v] of Object.entries(value)) {
        const ok = (x: unknown): boolean => typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean' || (Array.isArray(x) && x.every(ok));
        if (!ok(v)) invalidArgument(`${path}.${k}`, 'a number, string, boolean or list of them', describe(v));
      }
      return { ...(value as Record<string, unknown>) };
    },
  };
}

/**
 * `inner` or absent; an absent key takes `fallback` (when given) — `null` counts as absent. `description` (one line
 * for `--help`) documents the key; the fallback is its default, stated here only.
 */
export function optional<T>(inner: Schema<T>): FieldSchema<T | undefined>;
export function optional<T>(inner: Schema<T>, fallback: T, description?: string): FieldSchema<T>;
export function optional<T>(inner: Schema<T>, fallback?: T, description?: string): FieldSchema<T | undefined> {
  const text = description ?? inner.description;
  return { ...inner, parse: (v, p) => inner.parse(v, p), optional: true, fallback, ...(text !== undefined ? { description: text } : {}) };
}

/** `schema` with a one-line description for help texts (an optional key without a fallback, a required key). */
export function described<S extends Schema<unknown>>(schema: S, description: string): S {
  return { ...schema, description };
}

/** The default of a key of an object schema as help texts print it (`0.1`, `multistep:0.5,0.75`, `5,15,30`), or undefined. */
export function defaultText(schema: Schema<unknown>): string | undefined {
  const fallback = (schema as Partial<FieldSchema<unknown>>).fallback;
  if (fallback === undefined) return undefined;
  if (Array.isArray(fallback)) return fallback.map(String).join(',');
  if (typeof fallback === 'object' && fallback !== null) return Object.keys(fallback).length ? JSON.stringify(fallback) : undefined;
  return String(fallback);
}

/** One of a fixed set of numbers (a depth of 50, 101 or 152). */
export function oneOf<const V extends number>(values: readonly V[]): Schema<V> {
  const expected = `one of ${values.join(', ')}`;
  return {
    type: 'number',
    expected,
    parse(value, path) {
      if (typeof value !== 'number' || !values.includes(value as V)) invalidArgument(path, expected, describe(value));
      return value as V;
    },
  };
}

/**
 * `inner` with a further condition on its value (`depth` of the form 6n + 2): a value `inner` accepts but `test`
 * refuses is an error expecting `expected`, which is also what the schema says it accepts.
 */
export function refine<T>(inner: Schema<T>, test: (value: T) => boolean, expected: string): Schema<T> {
  return {
    ...inner,
    expected,
    parse(value, path) {
      const v = inner.parse(value, path);
      if (!test(v)) invalidArgument(path, expected, Array.isArray(v) ? JSON.stringify(v) : describe(v));
      return v;
    },
  };
}

/** A number or a non-empty list of numbers, as a list (ARC's bins: 15 or 5,15,30); items checked by `item`. */
export function numberList(item: Schema<number>): Schema<number[]> {
  return {
    expected: `${item.expected} or a non-empty list of them`,
    parse(value, path) {
      if (typeof value === 'number') return [item.parse(value, path)];
      if (!Array.isArray(value) || value.length === 0) invalidArgument(path, 'a number or a non-empty list of numbers', describe(value));
      return value.map((v: unknown, i) => item.parse(v, value.length > 1 ? `${path}[${i}]` : path));
    },
  };
}

type Shape = Readonly<Record<string, Schema<unknown>>>;
type ObjectOf<S extends Shape> = { -readonly [K in keyof S]: Infer<S[K]> };

/** A schema with a known set of keys: unknown keys are errors naming their path; required keys must be present. */
export interface ObjectSchema<S extends Shape> extends Schema<ObjectOf<S>> {
  readonly shape: S;
}

/** An object with exactly the keys of `shape` (absent optional keys take their fallbacks). */
export function object<const S extends Shape>(shape: S): ObjectSchema<S> {
  const keys = Object.keys(shape);
  return {
    shape,
    expected: 'an object',
    parse(value, path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) invalidArgument(path, 'an object', describe(value));
      const given = value as Record<string, unknown>;
      for (const k of Object.keys(given)) {
        if (!Object.prototype.hasOwnProperty.call(shape, k)) {
          const close = closeNames(k, keys);
          invalidArgument(`${path}.${k}`, close.length ? `a known key (did you mean ${close.join(', ')}?)` : `a known key (${keys.join(', ')})`, 'an unknown key');
        }
      }
      const out: Record<string, unknown> = {};
      for (const k of keys) {
        const s = shape[k]! as Schema<unknown> & Partial<FieldSchema<unknown>>;
        const v = given[k];
        if (v === undefined || v === null) {
          if (s.optional) {
            if (s.fallback !== undefined) out[k] = structuredClone(s.fallback);
            continue;
          }
          invalidArgument(`${path}.${k}`, s.expected, 'nothing (the key is required)');
        }
        out[k] = s.parse(v, `${path}.${k}`);
      }
      return out as ObjectOf<S>;
    },
  };
}

/**
 * The same keys as `schema`, each optional without a fallback (absent keys stay absent), minus `omit`: a partial
 * configuration (a suite's base, a method, a scale) that is validated key by key where it is written and in full
 * once the parts are merged.
 */
export function partial<const S extends Shape, const O extends keyof S & string = never>(
  schema: ObjectSchema<S>,
  omit: readonly O[] = [],
): ObjectSchema<{ [K in Exclude<keyof S, O>]: FieldSchema<Infer<S[K]> | undefined> }> {
  const shape: Record<string, Schema<unknown>> = {};
  for (const [k, s] of Object.entries(schema.shape)) {
    if ((omit as readonly string[]).includes(k)) continue;
    shape[k] = optional(s as Schema<unknown>);
  }
  return object(shape) as never;
}

/** A record of string keys to values of `item` (keys checked by `key`, e.g. a name pattern). */
export function record<T>(item: Schema<T>, key?: (k: string, path: string) => void): Schema<Record<string, T>> {
  return {
    expected: `an object of ${item.expected}`,
    parse(value, path) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) invalidArgument(path, `an object of ${item.expected}`, describe(value));
      const out: Record<string, T> = {};
      for (const [k, v] of Object.entries(value)) {
        key?.(k, `${path}.${k}`);
        out[k] = item.parse(v, `${path}.${k}`);
      }
      return out;
    },
  };
}

/** A JSON scalar: a finite number, a string or a boolean (sweep values). */
export function scalar(): Schema<number | string | boolean> {
  return {
    expected: 'a number, string or boolean',
    parse(value, path) {
      if (typeof value === 'string' || typeof value === 'boolean') return value;
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      return invalidArgument(path, 'a number, string or boolean', describe(value));
    },
  };
}
