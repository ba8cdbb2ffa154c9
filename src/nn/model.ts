/**
 * The model contract of the zoo. A model is a static description — hyperparameters, the declared parameters
 * and buffers (path, shape, initializer) — plus a pure forward function of explicit values:
 *
 *   forward(params, buffers, x, { training }) → { logits, buffers }
 *
 * (Equinox-style: no hidden train mode, batch-norm state passed in and returned.) `init(model, rng)` draws the
 * initial parameters from a seeded generator. A `features` hook is called at every named layer boundary
 * (`model.featureLayers`, in order); it may return a replacement activation (manifold mixup mixes hidden
 * activations of a chosen layer this way) or just record it.
 */
import { describe, InvalidArgumentError } from '../util/errors.js';
import { Random } from '../util/random.js';
import type { Shape, Tensor } from '../engine/index.js';
import type { Initializer } from './init.js';
import type { HostTree, ShapeTree, TensorTree } from './tree.js';

/** One declared parameter or buffer. */
export interface LeafDecl {
  readonly path: string;
  readonly shape: Shape;
  readonly init: Initializer;
}

/** Called at each feature layer with its activation; returns the activation to continue with. */
export type FeatureHook = (layer: string, h: Tensor) => Tensor;

/**
 * Supplies a keep-mask for dropout at `layer` (same shape as the activation, 1 = keep), or null to skip
 * dropout there. Masks are graph inputs drawn on the host from a seeded generator (DESIGN: randomness as inputs).
 */
export type DropoutMasks = (layer: string, shape: Shape, rate: number) => Tensor | null;

/** Options of a forward pass. */
export interface ForwardOptions {
  /** Training mode: batch statistics (and running-statistics updates) in batch norm, dropout active. */
  readonly training: boolean;
  /** Hook at the feature layers (identity when absent). */
  readonly features?: FeatureHook;
  /** Dropout keep-masks: dropout is active exactly when given (train step; MC dropout at inference), skipped when absent. */
  readonly dropout?: DropoutMasks;
}

/** Result of a forward pass. */
export interface ForwardResult {
  /** [N, numClasses]. */
  readonly logits: Tensor;
  /** Buffers after the pass (updated running statistics in training; the inputs themselves in inference). */
  readonly buffers: TensorTree;
}

/** Per-example input of a model: float images/vectors or int32 token ids. */
export interface InputSpec {
  readonly dtype: 'float32' | 'int32';
  readonly shape: Shape;
}

/** A model of the zoo. */
export interface Model {
  /** Zoo name ('mlp', 'lenet', 'cifar-resnet', …). */
  readonly kind: string;
  /** Normalised hyperparameters (JSON-serialisable; recreate the model with `createModel({ kind, ...config })`). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Per-example input (the batch axis is prepended). */
  readonly input: InputSpec;
  readonly numClasses: number;
  /**
   * Dense (per-position) models only, e.g. segmentation: the spatial shape [H, W] of the logits, which are then
   * [N, numClasses, H, W] with labels [N, H, W]. Absent for classifiers (logits [N, numClasses]).
   */
  readonly outputSpatial?: Shape;
  readonly params: readonly LeafDecl[];
  readonly buffers: readonly LeafDecl[];
  /** Names passed to the feature hook, in forward order ('input' first). */
  readonly featureLayers: readonly string[];
  /** x [N, ...input.shape] → logits [N, numClasses] and the buffers after the pass. */
  forward(params: TensorTree, buffers: TensorTree, x: Tensor, options: ForwardOptions): ForwardResult;
}

/** Host values of a model's parameters and buffers. */
export interface ModelState {
  readonly params: HostTree;
  readonly buffers: HostTree;
}

/** Logit values per example: numClasses · Π outputSpatial (numClasses for classifiers). */
export function outputSize(model: Model): number {
  return model.numClasses * (model.outputSpatial ?? []).reduce((a, b) => a * b, 1);
}

/** Parameter shapes of a model, in declaration order. */
export function paramShapes(model: Model): ShapeTree {
  return Object.fromEntries(model.params.map((d) => [d.path, d.shape]));
}

/** Buffer shapes of a model, in declaration order. */
export function bufferShapes(model: Model): ShapeTree {
  return Object.fromEntries(model.buffers.map((d) => [d.path, d.shape]));
}

/** Number of trainable scalars. */
export function parameterCount(model: Model): number {
  return model.params.reduce((n, d) => n + d.shape.reduce((a, b) => a * b, 1), 0);
}

/**
 * Draw initial parameters and buffers, in declaration order, from `rng` (a `Random` or an integer seed).
 * Returns fresh float32 arrays.
 */
export function initModel(model: Model, rng: Random | number): ModelState {
  const r = typeof rng === 'number' ? new Random(rng) : rng;
  if (!(r instanceof Random)) throw new InvalidArgumentError('rng', 'a Random or an integer seed', describe(rng));
  const draw = (decls: readonly LeafDecl[]): HostTree => Object.fromEntries(decls.map((d) => [d.path, d.init(d.shape, r)]));
  return { params: draw(model.params), buffers: draw(model.buffers) };
}

/** Collects declarations while a model is built (paths must be unique). */
export class DeclarationBuilder {
  readonly params: LeafDecl[] = [];
  readonly buffers: LeafDecl[] = [];
  private readonly seen = new Set<string>();

  /** Declare a trainable parameter. */
  param(path: string, shape: Shape, init: Initializer): void {
    this.add(this.params, path, shape, init);
  }

  /** Declare a buffer (non-trainable state such as running statistics). */
  buffer(path: string, shape: Shape, init: Initializer): void {
    this.add(this.buffers, path, shape, init);
  }

  private add(list: LeafDecl[], path: string, shape: Shape, init: Initializer): void {
    if (this.seen.has(path)) throw new InvalidArgumentError('path', 'a unique parameter path', JSON.stringify(path));
    if (!shape.every((d) => Number.isInteger(d) && d > 0)) throw new InvalidArgumentError(`shape of ${path}`, 'positive integers', JSON.stringify(shape));
    this.seen.add(path);
    list.push({ path, shape: [...shape], init });
  }
}

/** Fetch a leaf from a tensor tree, failing with the path when it is missing. */
export function leaf(tree: TensorTree, path: string): Tensor {
  const t = tree[path];
  if (!t) throw new InvalidArgumentError(`params["${path}"]`, 'a tensor', 'nothing');
  return t;
}

/** Validate a positive integer hyperparameter. */
export function positiveInt(argument: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new InvalidArgumentError(argument, 'a positive integer', describe(value));
  return value;
}

/** Validate a rate in [0, 1). */
export function rate(argument: string, value: unknown): number {
  if (typeof value !== 'number' || !(value >= 0 && value < 1)) throw new InvalidArgumentError(argument, 'a number in [0, 1)', describe(value));
  return value;
}
