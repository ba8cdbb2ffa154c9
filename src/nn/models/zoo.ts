/**
 * The model zoo by name: `createModel({ kind: 'cifar-resnet', depth: 20 })`. `kind` is the discriminator;
 * the other keys are the model's options. `model.config` plus `kind` recreates the same model (checkpoints
 * store it).
 */
import { describe, InvalidArgumentError } from '../../util/errors.js';
import type { ObjectSchema, Schema } from '../../util/schema.js';
import type { Model } from '../model.js';
import { CIFAR_RESNET_OPTIONS, type CifarResNetOptions, cifarResNet } from './cifar-resnet.js';
import { DENSENET_OPTIONS, type DenseNetOptions, densenet } from './densenet.js';
import { LENET_OPTIONS, type LeNetOptions, lenet } from './lenet.js';
import { MLP_OPTIONS, type MlpOptions, mlp } from './mlp.js';
import { PREACT_RESNET_OPTIONS, type PreActResNetOptions, preactResNet } from './preact-resnet.js';
import { RESNET_OPTIONS, type ResNetOptions, resnet } from './resnet.js';
import { RESNET18_OPTIONS, type ResNet18Options, resnet18 } from './resnet18.js';
import { SEG_NET_OPTIONS, type SegNetOptions, segNet } from './seg-net.js';
import { TEXT_CNN_OPTIONS, type TextCnnOptions, textCnn } from './text-cnn.js';
import { VGG_OPTIONS, type VggOptions, vgg } from './vgg.js';
import { WIDE_RESNET_OPTIONS, type WideResNetOptions, wideResNet } from './wide-resnet.js';

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
  | ({ readonly kind: 'text-cnn' } & TextCnnOptions)
  | ({ readonly kind: 'seg-net' } & SegNetOptions);

/** Names of the zoo's models. */
export const MODEL_KINDS = ['mlp', 'lenet', 'cifar-resnet', 'resnet18', 'resnet', 'preact-resnet', 'densenet', 'wide-resnet', 'vgg', 'text-cnn', 'seg-net'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** Each model's option schema (util/schema.ts): what each option accepts, its default and description. */
export const MODEL_OPTIONS: { readonly [K in ModelKind]: ObjectSchema<Readonly<Record<string, Schema<unknown>>>> } = {
  mlp: MLP_OPTIONS,
  lenet: LENET_OPTIONS,
  'cifar-resnet': CIFAR_RESNET_OPTIONS,
  resnet18: RESNET18_OPTIONS,
  resnet: RESNET_OPTIONS,
  'preact-resnet': PREACT_RESNET_OPTIONS,
  densenet: DENSENET_OPTIONS,
  'wide-resnet': WIDE_RESNET_OPTIONS,
  vgg: VGG_OPTIONS,
  'text-cnn': TEXT_CNN_OPTIONS,
  'seg-net': SEG_NET_OPTIONS,
};

/**
 * Build a model from its specification. `path` names the options in errors (default `<kind> options`:
 * `cifar-resnet options.depth: expected …`; `calib train` passes `config.modelOptions`).
 */
export function createModel(spec: ModelSpec, path?: string): Model {
  if (typeof spec !== 'object' || spec === null) throw new InvalidArgumentError('spec', 'an object with a "kind"', describe(spec));
  const { kind, ...options } = spec as { kind: string } & Record<string, unknown>;
  switch (kind) {
    case 'mlp':
      return mlp(options, path);
    case 'lenet':
      return lenet(options, path);
    case 'cifar-resnet':
      return cifarResNet(options, path);
    case 'resnet18':
      return resnet18(options, path);
    case 'resnet':
      return resnet(options, path);
    case 'preact-resnet':
      return preactResNet(options, path);
    case 'densenet':
      return densenet(options, path);
    case 'wide-resnet':
      return wideResNet(options, path);
    case 'vgg':
      return vgg(options, path);
    case 'text-cnn':
      return textCnn(options as unknown as TextCnnOptions, path);
    case 'seg-net':
      return segNet(options, path);
    default:
      throw new InvalidArgumentError('spec.kind', MODEL_KINDS.join(', '), describe(kind));
  }
}

/** The spec that recreates `model` (its kind plus normalised config). */
export function modelSpec(model: Model): ModelSpec {
  return { kind: model.kind, ...model.config } as ModelSpec;
}
