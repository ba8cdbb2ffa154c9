/**
 * The model zoo by name: `createModel({ kind: 'cifar-resnet', depth: 20 })`. `kind` is the discriminator;
 * the other keys are the model's options. `model.config` plus `kind` recreates the same model (checkpoints
 * store it).
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { Model } from '../model.js';
import { type CifarResNetOptions, cifarResNet } from './cifar-resnet.js';
import { type DenseNetOptions, densenet } from './densenet.js';
import { type LeNetOptions, lenet } from './lenet.js';
import { type MlpOptions, mlp } from './mlp.js';
import { type PreActResNetOptions, preactResNet } from './preact-resnet.js';
import { type ResNetOptions, resnet } from './resnet.js';
import { type ResNet18Options, resnet18 } from './resnet18.js';
import { type TextCnnOptions, textCnn } from './text-cnn.js';
import { type VggOptions, vgg } from './vgg.js';
import { type WideResNetOptions, wideResNet } from './wide-resnet.js';

/** A model specification: its kind plus options. */
export type ModelSpec =
  | ({ readonly kind: 'mlp' } & MlpOptions)
  | ({ readonly kind: 'lenet' } & LeNetOptions)
  | ({ readonly kind: 'cifar-resnet' } & CifarResNetOptions)
  | ({ readonly kind: 'resnet18' } & ResNet18Options)
  | ({ readonly kind: 'resnet' } & ResNetOptions)
  | ({ readonly kind: 'preact-resnet' } & PreActResNetOptions)
  | ({ readonly kind: 'densenet' } & DenseNetOptions)
  | ({ readonly kind: 'wide-resnet' } & WideResNetOptions)
  | ({ readonly kind: 'vgg' } & VggOptions)
  | ({ readonly kind: 'text-cnn' } & TextCnnOptions);

/** Names of the zoo's models. */
export const MODEL_KINDS = ['mlp', 'lenet', 'cifar-resnet', 'resnet18', 'resnet', 'preact-resnet', 'densenet', 'wide-resnet', 'vgg', 'text-cnn'] as const;

/** Build a model from its specification. */
export function createModel(spec: ModelSpec): Model {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  switch (kind) {
    case 'mlp':
      return mlp(options);
    case 'lenet':
      return lenet(options);
    case 'cifar-resnet':
      return cifarResNet(options);
    case 'resnet18':
      return resnet18(options);
    case 'resnet':
      return resnet(options);
    case 'preact-resnet':
      return preactResNet(options);
    case 'densenet':
      return densenet(options);
    case 'wide-resnet':
      return wideResNet(options);
    case 'vgg':
      return vgg(options);
    case 'text-cnn':
      return textCnn(options as unknown as TextCnnOptions);
    default:
      throw new InvalidArgumentError('spec.kind', MODEL_KINDS.join(', '), describe(kind));
  }
}

/** The spec that recreates `model` (its kind plus normalised config). */
export function modelSpec(model: Model): ModelSpec {
  return { kind: model.kind, ...model.config } as ModelSpec;
}
