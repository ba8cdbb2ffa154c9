/**
 * What a model of the zoo declares about itself, once, in its own file: `defineModel({...})`. The `MODELS`
 * registry (zoo.ts) lists the declarations; from it come the model kinds (`ModelKind`, `MODEL_KINDS`),
 * `createModel` / `ModelSpec`, the option schemas (`MODEL_OPTIONS`, checked before a run loads data), the typo hints
 * of `calib train --model` and the README's model table (`npm run docs`).
 */
import type { ObjectSchema, Schema } from '../../util/schema.js';
import type { Model } from '../model.js';

/** A model's option schema (util/schema.ts). */
export type ModelOptionSchema = ObjectSchema<Readonly<Record<string, Schema<unknown>>>>;

/** What a model maps: images to class logits, images to per-pixel logits, or token ids to class logits. */
export type ModelTask = 'image' | 'segmentation' | 'text';

/** The declaration of one model. */
export interface ModelDefinition<N extends string = string, O = Readonly<Record<string, unknown>>> {
  /** The kind (`createModel({ kind })`, `calib train --model`; checkpoints store it). */
  readonly name: N;
  /** One line for the README: the architecture and its source. */
  readonly summary: string;
  /** The data it takes (`calib train` refuses a model for another task's dataset). */
  readonly task: ModelTask;
  /** Its options, with defaults and descriptions. */
  readonly options: ModelOptionSchema;
  /** Build the model from options validated against `options` (`path` names them in errors). */
  readonly create: (options: O, path?: string) => Model;
}

/** Declare a model (frozen; the summary must be non-empty). */
export function defineModel<const N extends string, O>(definition: ModelDefinition<N, O>): ModelDefinition<N, O> {
  if (definition.summary.trim() === '') throw new Error(`model ${definition.name}: empty summary`);
  return Object.freeze({ ...definition });
}
