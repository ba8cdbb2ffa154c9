/**
 * Parameter initializers with PyTorch's definitions (torch.nn.init), drawing from a seeded `Random` (no global
 * generator). Fans follow `torch.nn.init._calculate_fan_in_and_fan_out`: for a weight of shape
 * [out, in, k…] (Linear [out, in], Conv2d [Co, Ci/groups, kh, kw]), fan_in = in · Πk, fan_out = out · Πk.
 *
 * Defaults of the layers (PyTorch):
 * - nn.Linear / nn.Conv2d weight: kaiming_uniform(a = √5) = U(±1/√fan_in); bias: U(±1/√fan_in).
 * - CIFAR ResNet code (He et al. 2016; akamaster/pytorch_resnet_cifar10): kaiming_normal (fan_in, ReLU gain √2)
 *   for conv and linear weights; Wide-ResNet code: kaiming_normal (fan_out, ReLU) for convs.
 * - nn.Embedding: N(0, 1). BatchNorm: weight 1, bias 0.
 */
import { describe, InvalidArgumentError, requireNumber } from '../util/errors.js';
import type { Random } from '../util/random.js';
import type { Shape } from '../engine/index.js';

/** Draws the initial values of a tensor of `shape` (row-major float32). */
export type Initializer = (shape: Shape, rng: Random) => Float32Array;

/** Nonlinearities known to `gain`. */
export type Nonlinearity = 'linear' | 'conv' | 'sigmoid' | 'tanh' | 'relu' | 'leaky_relu';

/**
 * torch.nn.init.calculate_gain: 1 for linear/conv/sigmoid, 5/3 for tanh, √2 for ReLU,
 * √(2 / (1 + a²)) for leaky ReLU with negative slope a.
 */
export function gain(nonlinearity: Nonlinearity, a = 0.01): number {
  switch (nonlinearity) {
    case 'linear':
    case 'conv':
    case 'sigmoid':
      return 1;
    case 'tanh':
      return 5 / 3;
    case 'relu':
      return Math.SQRT2;
    case 'leaky_relu':
      return Math.sqrt(2 / (1 + a * a));
    default:
      throw new InvalidArgumentError('nonlinearity', 'linear, conv, sigmoid, tanh, relu or leaky_relu', describe(nonlinearity));
  }
}

/** fan_in and fan_out of a weight shape (rank ≥ 2), as PyTorch computes them. */
export function fans(shape: Shape): { fanIn: number; fanOut: number } {
  if (!Array.isArray(shape) || shape.length < 2) {
    throw new InvalidArgumentError('shape', 'a weight shape of rank ≥ 2 ([out, in, …])', JSON.stringify(shape));
  }
  const receptive = shape.slice(2).reduce((a, b) => a * b, 1);
  return { fanIn: shape[1]! * receptive, fanOut: shape[0]! * receptive };
}

function size(shape: Shape): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** U(low, high) in every element. */
export function uniform(low: number, high: number): Initializer {
  requireNumber('low', low);
  requireNumber('high', high);
  if (!(high >= low)) throw new InvalidArgumentError('high', `a number ≥ low (${low})`, describe(high));
  return (shape, rng) => Float32Array.from({ length: size(shape) }, () => low + (high - low) * rng.uniform());
}

/** N(mean, std²) in every element. */
export function normal(mean: number, std: number): Initializer {
  requireNumber('mean', mean);
  requireNumber('std', std, { min: 0 });
  return (shape, rng) => Float32Array.from({ length: size(shape) }, () => mean + std * rng.normal());
}

/** Every element equal to `value`. */
export function constantInit(value: number): Initializer {
  requireNumber('value', value);
  return (shape) => new Float32Array(size(shape)).fill(value);
}

/** All zeros. */
export const zerosInit: Initializer = (shape) => new Float32Array(size(shape));

/** All ones. */
export const onesInit: Initializer = (shape) => new Float32Array(size(shape)).fill(1);

/** Options of the Kaiming (He et al. 2015) initializers. */
export interface KaimingOptions {
  /** Negative slope of the leaky ReLU (used when nonlinearity is leaky_relu; default 0). */
  readonly a?: number;
  /** Which fan preserves the variance (default fan_in). */
  readonly mode?: 'fan_in' | 'fan_out';
  /** Default leaky_relu (PyTorch's default; with a = 0 that is the ReLU gain √2). */
  readonly nonlinearity?: Nonlinearity;
}

function kaimingStd(shape: Shape, o: KaimingOptions): number {
  const a = requireNumber('options.a', o.a ?? 0);
  const mode = o.mode ?? 'fan_in';
  if (mode !== 'fan_in' && mode !== 'fan_out') throw new InvalidArgumentError('options.mode', 'fan_in or fan_out', describe(mode));
  const { fanIn, fanOut } = fans(shape);
  return gain(o.nonlinearity ?? 'leaky_relu', a) / Math.sqrt(mode === 'fan_in' ? fanIn : fanOut);
}

/** kaiming_uniform_: U(±√3 · gain / √fan). With a = √5 (nn.Linear/Conv2d default) the bound is 1/√fan_in. */
export function kaimingUniform(options: KaimingOptions = {}): Initializer {
  return (shape, rng) => {
    const bound = Math.sqrt(3) * kaimingStd(shape, options);
    return uniform(-bound, bound)(shape, rng);
  };
}

/** kaiming_normal_: N(0, (gain / √fan)²). */
export function kaimingNormal(options: KaimingOptions = {}): Initializer {
  return (shape, rng) => normal(0, kaimingStd(shape, options))(shape, rng);
}

/** xavier_uniform_ (Glorot & Bengio 2010): U(±gain · √(6 / (fan_in + fan_out))). */
export function xavierUniform(gainValue = 1): Initializer {
  requireNumber('gain', gainValue, { min: 0 });
  return (shape, rng) => {
    const { fanIn, fanOut } = fans(shape);
    const bound = gainValue * Math.sqrt(6 / (fanIn + fanOut));
    return uniform(-bound, bound)(shape, rng);
  };
}

/** xavier_normal_: N(0, gain² · 2 / (fan_in + fan_out)). */
export function xavierNormal(gainValue = 1): Initializer {
  requireNumber('gain', gainValue, { min: 0 });
  return (shape, rng) => {
    const { fanIn, fanOut } = fans(shape);
    return normal(0, gainValue * Math.sqrt(2 / (fanIn + fanOut)))(shape, rng);
  };
}

/** PyTorch's default nn.Linear / nn.Conv2d weight: kaiming_uniform(a = √5), i.e. U(±1/√fan_in). */
export const torchDefaultWeight: Initializer = kaimingUniform({ a: Math.sqrt(5) });

/** PyTorch's default nn.Linear / nn.Conv2d bias for a layer whose weight has fan-in `fanIn`: U(±1/√fan_in). */
export function torchDefaultBias(fanIn: number): Initializer {
  requireNumber('fanIn', fanIn, { min: 1, integer: true });
  const bound = 1 / Math.sqrt(fanIn);
  return uniform(-bound, bound);
}
