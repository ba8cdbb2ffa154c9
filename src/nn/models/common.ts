/**
 * Shared helpers of the zoo: the option schemas models share (util/schema.ts, the toolkit's one option-schema
 * language: each model declares its options once — default, what it accepts, a description — in an `…_OPTIONS`
 * object schema, which validates them with errors naming the path, `cifar-resnet options.depth: expected 6n + 2 with
 * n ≥ 1 (20, 32, 44, 56, 110), got 21`, or `config.modelOptions.depth: …` under `calib train`), the
 * weight-initialisation schemes models offer and the input stems.
 */
import { maxPool2d, type Tensor } from '../../engine/index.js';
import { type FieldSchema, type Infer, list, number, type ObjectSchema, oneOf, optional, refine, type Schema, string } from '../../util/schema.js';
import { ACTIVATION_SCHEMA, type Activation } from '../activation.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import type { ForwardContext } from '../forward-context.js';
import { type Initializer, kaimingNormal, torchDefaultWeight, xavierUniform } from '../init.js';
import type { DeclarationBuilder } from '../model.js';

/**
 * Weight initialisation schemes: 'torch' (PyTorch layer default, kaiming_uniform a = √5), 'kaiming-normal'
 * (He et al. 2015, fan_in, ReLU gain — the CIFAR ResNet code), 'kaiming-normal-fan-out' (Wide-ResNet code),
 * 'xavier-uniform' (Glorot & Bengio 2010).
 */
export const INIT_SCHEMES = ['torch', 'kaiming-normal', 'kaiming-normal-fan-out', 'xavier-uniform'] as const;
export type InitScheme = (typeof INIT_SCHEMES)[number];

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

/** A positive integer (widths, depths, counts). */
export const COUNT: Schema<number> = number({ integer: true, min: 1 });

/** A positive-integer option. */
export function countOption(fallback: number, description: string): FieldSchema<number> {
  return optional(COUNT, fallback, description);
}

/** The class count C (calib train takes it from the dataset). */
export function numClassesOption(fallback = 10): FieldSchema<number> {
  return countOption(fallback, 'classes C (from the dataset under calib train)');
}

/** A dropout rate in [0, 1). */
export function dropoutOption(fallback: number, description: string): FieldSchema<number> {
  return optional(number({ min: 0, max: 1, exclusiveMax: true }), fallback, description);
}

/** A weight-initialisation scheme. */
export function initOption(fallback: InitScheme, description = 'weight initialisation scheme'): FieldSchema<InitScheme> {
  return optional(string(INIT_SCHEMES), fallback, description);
}

/** An activation. */
export function activationOption(fallback: Activation = 'relu'): FieldSchema<Activation> {
  return optional(ACTIVATION_SCHEMA, fallback, 'activation');
}

/** A list of at least `minLength` positive integers (hidden widths, blocks per stage). */
export function countsOption(fallback: readonly number[], minLength: number, description: string): FieldSchema<number[]> {
  return optional(list(COUNT, minLength), [...fallback], description);
}

/** A per-example input shape of positive integers (with `rank` entries when given; calib train takes it from the dataset). */
export function inputShapeOption(fallback: readonly number[], rank?: number): FieldSchema<number[]> {
  const shape = rank === undefined ? list(COUNT) : refine(list(COUNT), (s) => s.length === rank, `${rank} integers ≥ 1 ([C, H, W])`);
  return optional(shape, [...fallback], 'per-example input shape (from the dataset under calib train)');
}

/**
 * A depth option taken from a model's table of configurations (depth → blocks or convolutions per stage): one of
 * the table's depths (`expected one of 50, 101, 152`).
 */
export function depthOption(table: Readonly<Record<number, unknown>>, fallback: number, description = 'depth'): FieldSchema<number> {
  return optional(oneOf(Object.keys(table).map(Number)), fallback, description);
}

/**
 * A depth option of the form 6n + `offset` with n ≥ 1 (CIFAR ResNets: 6n + 2, He et al. 2016 §4.2; Wide-ResNets:
 * 6n + 4, Zagoruyko & Komodakis 2016); n = (depth − offset) / 6 blocks per stage. `examples` lists usual depths.
 */
export function depth6nOption(offset: number, fallback: number, examples: string, description: string): FieldSchema<number> {
  const depth = refine(number({ integer: true }), (d) => d >= offset + 6 && (d - offset) % 6 === 0, `6n + ${offset} with n ≥ 1 (${examples})`);
  return optional(depth, fallback, description);
}

/**
 * Options the image classifiers of the ResNet family share (what each accepts, its default and description: the
 * model's `…_OPTIONS` schema).
 */
export interface ClassifierOptions {
  readonly numClasses?: number;
  /** Per-example input [Ci, H, W]. */
  readonly inputShape?: readonly [number, number, number];
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/**
 * Validate a model's options against its schema (`kind`, the zoo's discriminator, is left out): unknown keys and
 * bad values are errors naming `path.key`; absent keys take their defaults.
 */
export function parseModelOptions<O extends ObjectSchema<Readonly<Record<string, Schema<unknown>>>>>(schema: O, options: unknown, path: string): Infer<O> {
  let given = options ?? {};
  if (typeof given === 'object' && given !== null && !Array.isArray(given) && 'kind' in given) {
    given = Object.fromEntries(Object.entries(given).filter(([k]) => k !== 'kind'));
  }
  return schema.parse(given, path) as unknown as Infer<O>;
}

/**
 * Input stems of the ImageNet-style models: 'imagenet' = conv 7×7 stride 2 padding 3 → BN → ReLU → max-pool 3×3
 * stride 2 padding 1 (torchvision); 'cifar' = conv 3×3 stride 1 padding 1 → BN → ReLU, no pooling (the
 * small-input variant of kuangliu/pytorch-cifar and the calibration papers' CIFAR/Tiny-ImageNet code).
 * 'auto' picks 'cifar' below 128 pixels on the shorter side, else 'imagenet'; the resolved name is what a
 * model's config records.
 */
export type Stem = 'imagenet' | 'cifar';

/** The stem option ('auto' by default; `resolveStem` turns it into a stem). */
export function stemOption(): FieldSchema<Stem | 'auto'> {
  return optional(string(['imagenet', 'cifar', 'auto'] as const), 'auto', "input stem: imagenet, cifar, or auto ('cifar' below 128 pixels on the shorter side)");
}

/** The stem of a stem option, resolving 'auto' from the input shape [C, H, W]. */
export function resolveStem(value: Stem | 'auto', inputShape: readonly number[]): Stem {
  return value === 'auto' ? (Math.min(inputShape[1]!, inputShape[2]!) < 128 ? 'cifar' : 'imagenet') : value;
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
