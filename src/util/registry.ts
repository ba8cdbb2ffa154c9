/**
 * One shape for every kind of named thing the toolkit looks up by name — datasets (data/datasets.ts), models
 * (nn/models/zoo.ts), optimizers (optim/create.ts), built-in suites (suite/builtin-suites.ts) — as the calibrators
 * (posthoc/calibrators.ts) and losses (losses/registry.ts) have it: each thing is declared once, in its own file, as
 * a definition carrying its `name`; `defineRegistry(what, [definitions])` lists them, and from that list come the
 * name union (`NameOf<typeof REGISTRY>`), the names in order, lookup by name with a typo hint naming the argument
 * (`--ood-dataset: expected one of mnist, …, got "fashion-mnsit" (did you mean fashion-mnist?)`), the generated
 * docs tables and the "every file that declares one is registered" tests.
 */
import { describe, invalidArgument } from './errors.js';
import { didYouMean } from './typo-hint.js';

/** A declaration that can be registered: it carries its own name. */
export interface Named<N extends string = string> {
  readonly name: N;
}

/** The definitions of one kind, by name. */
export interface Registry<D extends Named> {
  /** What the kind is called in messages ("dataset", "model"). */
  readonly what: string;
  /** Every name, in declaration order (help texts and docs tables list them in this order). */
  readonly names: readonly D['name'][];
  /** Every definition, in declaration order. */
  readonly definitions: readonly D[];
  /** Whether `value` names a definition. */
  has(value: unknown): value is D['name'];
  /**
   * The definition named `value`, or an `InvalidArgumentError` naming `argument` (a flag `--ood-dataset`, a key path
   * `config.oodDataset`), the known names and the close ones.
   */
  get<N extends D['name']>(argument: string, value: N): Extract<D, Named<N>>;
  get(argument: string, value: unknown): D;
}

/** The name union of a registry. */
export type NameOf<R> = R extends Registry<infer D> ? D['name'] : never;

/** The definition type of a registry. */
export type DefinitionOf<R> = R extends Registry<infer D> ? D : never;

/** `one of a, b, c (did you mean b?)` for messages refusing `value`. */
export function expectedName(names: readonly string[], value: unknown): string {
  return `one of ${names.join(', ')}${didYouMean(value, names)}`;
}

/** List the definitions of a kind (names must be unique and non-empty; the registry is frozen). */
export function defineRegistry<const Ds extends readonly Named[]>(what: string, definitions: Ds): Registry<Ds[number]> {
  type D = Ds[number];
  const byName = new Map<string, D>();
  for (const d of definitions) {
    if (typeof d.name !== 'string' || d.name === '') throw new Error(`${what} registry: a definition without a name`);
    if (byName.has(d.name)) throw new Error(`${what} registry: ${d.name} declared twice`);
    byName.set(d.name, d);
  }
  const names = Object.freeze(definitions.map((d) => d.name as D['name']));
  const has = (value: unknown): value is D['name'] => typeof value === 'string' && byName.has(value);
  return Object.freeze({
    what,
    names,
    definitions: Object.freeze([...definitions]) as readonly D[],
    has,
    get(argument: string, value: unknown): D {
      if (!has(value)) invalidArgument(argument, expectedName(names, value), describe(value));
      return byName.get(value)!;
    },
  }) as Registry<D>;
}
