/**
 * Shared helpers of the zoo: option validation and the weight-initialisation schemes models offer.
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { type Initializer, kaimingNormal, torchDefaultWeight, xavierUniform } from '../init.js';

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
