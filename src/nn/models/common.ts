/**
 * Shared helpers of the zoo: option validation, the weight-initialisation schemes models offer and the input stems.
 */
import { maxPool2d, type Tensor } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import type { ForwardContext } from '../forward-context.js';
import { type Initializer, kaimingNormal, torchDefaultWeight, xavierUniform } from '../init.js';
import { type DeclarationBuilder, positiveInt, rate } from '../model.js';

/**
 * Weight initialisation schemes: 'torch' (PyTorch layer default, kaiming_uniform a = √5), 'kaiming-normal'
 * (He et al. 2015, fan_in, ReLU gain — the CIFAR ResNet code), 'kaiming-normal-fan-out' (Wide-ResNet code),
 * 'xavier-uniform' (Glorot & Bengio 2010).
 */
export type InitScheme = 'torch' | 'kaiming-normal' | 'kaiming-normal-fan-out' | 'xavier-uniform';

/** Validate an init scheme name. */
export function checkInitScheme(argument: string, value: unknown): InitScheme {
  const ok = ['torch', 'kaiming-normal', 'kaiming-normal-fan-out', 'xavier-uniform'];
  if (typeof value !== 'string' || !ok.includes(value)) throw new InvalidArgumentError(argument, ok.join(', '), describe(value));
  return value as InitScheme;
}

/** The weight initializer of a scheme. */
export function weightInit(scheme: InitScheme): Initializer {
  switch (scheme) {
    case 'torch':
      return torchDefaultWeight;
    case 'kaiming-normal':
      return kaimingNormal({ mode: 'fan_in', nonlinearity: 'relu' });
    case 'kaiming-normal-fan-out':
      return kaimingNormal({ mode: 'fan_out', nonlinearity: 'relu' });
    case 'xavier-uniform':
      return xavierUniform();
  }
}

/** Validate an options object and reject unknown keys (typos should fail loudly). */
export function checkOptions(kind: string, options: unknown, known: readonly string[]): Readonly<Record<string, unknown>> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new InvalidArgumentError(`${kind} options`, 'an object', describe(options));
  for (const k of Object.keys(options)) {
    if (k !== 'kind' && !known.includes(k)) throw new InvalidArgumentError(`${kind} options.${k}`, `one of ${known.join(', ')}`, 'an unknown option');
  }
  return options as Record<string, unknown>;
}

/** Validate a per-example shape of positive integers. */
export function checkShape(argument: string, value: unknown, rank?: number): number[] {
  const ok = Array.isArray(value) && value.every((d) => Number.isInteger(d) && d > 0) && (rank === undefined || value.length === rank);
  if (!ok) throw new InvalidArgumentError(argument, rank === undefined ? 'an array of positive integers' : `${rank} positive integers`, describe(value));
  return [...(value as number[])];
}

/** Validate an array of positive integers (possibly empty). */
export function checkIntList(argument: string, value: unknown, minLength = 0): number[] {
  const ok = Array.isArray(value) && value.length >= minLength && value.every((d) => Number.isInteger(d) && d > 0);
  if (!ok) throw new InvalidArgumentError(argument, `an array of at least ${minLength} positive integers`, describe(value));
  return [...(value as number[])];
}

/** Options the image classifiers of the ResNet family share; each model documents its defaults. */
export interface ClassifierOptions {
  /** Number of classes (default 10). */
  readonly numClasses?: number;
  /** Per-example input [Ci, H, W]. */
  readonly inputShape?: readonly [number, number, number];
  /** Dropout rate before the classifier (default 0). */
  readonly dropout?: number;
  /** Convolution weight initialisation. */
  readonly init?: InitScheme;
}

/** `ClassifierOptions` validated (numClasses, inputShape, dropout, init, in that order), with the initializer of `init`. */
export interface CheckedClassifierOptions {
  readonly numClasses: number;
  readonly inputShape: [number, number, number];
  readonly dropout: number;
  readonly init: InitScheme;
  readonly weightInit: Initializer;
}

/** Validate the `ClassifierOptions` of model `kind` (errors name `<kind> options.<option>`), given the model's defaults. */
export function checkClassifierOptions(kind: string, options: ClassifierOptions, defaults: { readonly inputShape: readonly [number, number, number]; readonly init: InitScheme }): CheckedClassifierOptions {
  const numClasses = positiveInt(`${kind} options.numClasses`, options.numClasses ?? 10);
  const inputShape = checkShape(`${kind} options.inputShape`, options.inputShape ?? defaults.inputShape, 3) as [number, number, number];
  const dropout = rate(`${kind} options.dropout`, options.dropout ?? 0);
  const init = checkInitScheme(`${kind} options.init`, options.init ?? defaults.init);
  return { numClasses, inputShape, dropout, init, weightInit: weightInit(init) };
}

/**
 * Validate a depth against a model's table of configurations (depth → blocks or convolutions per stage); returns
 * the depth and its entry. The error lists the table's depths ("50, 101 or 152").
 */
export function checkDepth<T>(argument: string, table: Readonly<Record<number, T>>, value: unknown): [number, T] {
  const depth = positiveInt(argument, value);
  const entry = table[depth];
  if (entry === undefined) {
    const depths = Object.keys(table);
    throw new InvalidArgumentError(argument, `${depths.slice(0, -1).join(', ')} or ${depths[depths.length - 1]}`, describe(depth));
  }
  return [depth, entry];
}

/**
 * Validate a depth of the form 6n + `offset` with n ≥ 1 (CIFAR ResNets: 6n + 2, He et al. 2016 §4.2; Wide-ResNets:
 * 6n + 4, Zagoruyko & Komodakis 2016); returns the depth and n, the blocks per stage. `examples` lists usual depths.
 */
export function checkDepth6n(argument: string, value: unknown, offset: number, examples: string): [number, number] {
  const depth = positiveInt(argument, value);
  if ((depth - offset) % 6 !== 0 || depth < offset + 6) throw new InvalidArgumentError(argument, `6n + ${offset} with n ≥ 1 (${examples})`, describe(depth));
  return [depth, (depth - offset) / 6];
}

/**
 * Input stems of the ImageNet-style models: 'imagenet' = conv 7×7 stride 2 padding 3 → BN → ReLU → max-pool 3×3
 * stride 2 padding 1 (torchvision); 'cifar' = conv 3×3 stride 1 padding 1 → BN → ReLU, no pooling (the
 * small-input variant of kuangliu/pytorch-cifar and the calibration papers' CIFAR/Tiny-ImageNet code).
 * 'auto' picks 'cifar' below 128 pixels on the shorter side, else 'imagenet'; the resolved name is what a
 * model's config records.
 */
export type Stem = 'imagenet' | 'cifar';

/** Validate a stem name, resolving 'auto' from the input shape [C, H, W]. */
export function checkStem(argument: string, value: unknown, inputShape: readonly number[]): Stem {
  if (value === 'auto') return Math.min(inputShape[1]!, inputShape[2]!) < 128 ? 'cifar' : 'imagenet';
  if (value !== 'imagenet' && value !== 'cifar') throw new InvalidArgumentError(argument, 'imagenet, cifar or auto', describe(value));
  return value;
}

/** Convolution geometry of a stem (the max-pool follows only for 'imagenet'). */
export function stemGeometry(stem: Stem): { kernel: number; stride: number; padding: number; pool: boolean } {
  return stem === 'imagenet' ? { kernel: 7, stride: 2, padding: 3, pool: true } : { kernel: 3, stride: 1, padding: 1, pool: false };
}

/** Options of `convBnStem`. */
export interface ConvBnStemOptions {
  /** Parameter paths of the convolution and the batch norm ('conv1', 'bn1' in torchvision's ResNets). */
  readonly conv: string;
  readonly bn: string;
  readonly inChannels: number;
  readonly outChannels: number;
  readonly stem: Stem;
  readonly weightInit: Initializer;
}

/**
 * Declare a stem conv (no bias) → BN → ReLU (→ max-pool 3×3 stride 2 padding 1 for 'imagenet') with the geometry
 * of `stem` (`stemGeometry`); returns its apply function.
 */
export function convBnStem(b: DeclarationBuilder, o: ConvBnStemOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const g = stemGeometry(o.stem);
  const conv = conv2d(b, o.conv, { inChannels: o.inChannels, outChannels: o.outChannels, kernel: g.kernel, stride: g.stride, padding: g.padding, bias: false, weightInit: o.weightInit });
  const bn = batchNorm(b, o.bn, { channels: o.outChannels });
  return (ctx, x) => {
    const h = bn(ctx, conv(ctx, x)).relu();
    return g.pool ? maxPool2d(h, { kernel: 3, stride: 2, padding: 1 }) : h;
  };
}
