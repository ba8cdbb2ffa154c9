/**
 * The model zoo, in the order the README lists it: `createModel({ kind: 'cifar-resnet', depth: 20 })`. `kind` is the
 * discriminator; the other keys are the model's options. `model.config` plus `kind` recreates the same model
 * (checkpoints store it). Each entry is the declaration in the model's own file (model-definition.ts); from this list
 * come the kinds (`ModelKind`, `MODEL_KINDS`), `ModelSpec`, the option schemas (`MODEL_OPTIONS`), the typo hints of
 * `calib train --model` and the README's model table (`npm run docs`).
 *
 * ## How to add a model (one file plus one test)
 * 1. Write `src/nn/models/<name>.ts`: its option schema (util/schema.ts, nn/models/common.ts helpers), the builder
 *    returning a `Model`, and `export const <name>Definition = defineModel({ name, summary, task, options, create })`.
 * 2. Add the definition to `MODELS` below, then `npm run docs` to refresh the README table.
 * 3. Write `test/nn/<name>.test.ts` against the reference (parameter shapes of the PyTorch code, a forward pass);
 *    test/nn/model-registry.test.ts already checks that every declaring file is listed.
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { defineRegistry, type NameOf } from '../../util/registry.js';
import type { Model } from '../model.js';
import { cifarResnetDefinition } from './cifar-resnet.js';
import { densenetDefinition } from './densenet.js';
import { lenetDefinition } from './lenet.js';
import { mlpDefinition } from './mlp.js';
import type { ModelOptionSchema } from './model-definition.js';
import { preactResnetDefinition } from './preact-resnet.js';
import { resnetDefinition } from './resnet.js';
import { resnet18Definition } from './resnet18.js';
import { resnextDefinition } from './resnext.js';
import { segNetDefinition } from './seg-net.js';
import { textCnnDefinition } from './text-cnn.js';
import { vggDefinition } from './vgg.js';
import { wideResnetDefinition } from './wide-resnet.js';

/** Every model's declaration, by kind. */
export const MODELS = defineRegistry('model', [
  mlpDefinition,
  lenetDefinition,
  cifarResnetDefinition,
  resnet18Definition,
  resnetDefinition,
  preactResnetDefinition,
  densenetDefinition,
  resnextDefinition,
  wideResnetDefinition,
  vggDefinition,
  textCnnDefinition,
  segNetDefinition,
]);

/** Names of the zoo's models. */
export type ModelKind = NameOf<typeof MODELS>;

/** Every model kind, in the registry's order. */
export const MODEL_KINDS: readonly ModelKind[] = MODELS.names;

type Definitions = (typeof MODELS.definitions)[number];

/** A model specification: its kind plus the options its `create` takes. */
export type ModelSpec = Definitions extends infer D ? (D extends { name: infer N; create: (options: infer O, path?: string) => Model } ? { readonly kind: N } & O : never) : never;

/** Each model's option schema (util/schema.ts): what each option accepts, its default and description. */
export const MODEL_OPTIONS: { readonly [K in ModelKind]: ModelOptionSchema } = Object.freeze(
  Object.fromEntries(MODELS.definitions.map((d) => [d.name, d.options])) as Record<ModelKind, ModelOptionSchema>,
);

/**
 * Build a model from its specification. `path` names the options in errors (default `<kind> options`:
 * `cifar-resnet options.depth: expected …`; `calib train` passes `config.modelOptions`).
 */
export function createModel(spec: ModelSpec, path?: string): Model {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  return (MODELS.get('spec.kind', kind).create as (options: Record<string, unknown>, path?: string) => Model)(options, path);
}

/** The spec that recreates `model` (its kind plus normalised config). */
export function modelSpec(model: Model): ModelSpec {
  return { kind: model.kind, ...model.config } as ModelSpec;
}
