/**
 * CIFAR ResNet-(6n+2) of He et al. (2016, §4.2): ResNet-20/32/44/56/110 with n = 3/5/7/9/18. x [N, 3, 32, 32] →
 * conv3×3(16) → BN → ReLU → 3 stages of n basic blocks (16, 32, 64 channels; stride 2 at the start of stages
 * 2 and 3; option-A shortcuts) → global average pool → (dropout, option `dropout`) → Linear(64 → C). Init as akamaster/pytorch_resnet_cifar10:
 * kaiming_normal (fan_in, gain √2) for every conv and linear weight; linear bias PyTorch default; BN 1/0.
 * Parameter paths follow that code: conv1, bn1, layer{1,2,3}.{i}.{conv1,bn1,conv2,bn2}, linear.
 * Feature layers: 'input', 'stem', 'layer1', 'layer2', 'layer3', 'pool' ([N, 64·width]).
 */
import { InvalidArgumentError } from '../../util/errors.js';
import { object, optional, string } from '../../util/schema.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { basicBlock } from './basic-block.js';
import { type ClassifierOptions, convBnStem, countOption, depth6nOption, dropoutOption, initOption, inputShapeOption, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

/** The options of `cifarResNet`: what each accepts, its default and description (util/schema.ts). */
export const CIFAR_RESNET_OPTIONS = object({
  depth: depth6nOption(2, 20, '20, 32, 44, 56, 110', 'depth 6n + 2 (n basic blocks per stage)'),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 32, 32], 3),
  width: countOption(16, 'base width (stages width, 2·width, 4·width; even for option-A shortcuts)'),
  shortcut: optional(string(['A', 'B'] as const), 'A', "shortcut type (A: the paper's CIFAR choice, zero-padded identity; B: 1×1 projection)"),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('kaiming-normal'),
});

/** Options of `cifarResNet` (defaults and descriptions: `CIFAR_RESNET_OPTIONS`). */
export interface CifarResNetOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly width?: number;
  readonly shortcut?: 'A' | 'B';
}

/** Build a CIFAR ResNet model description (`path` names the options in errors). */
export function cifarResNet(options: CifarResNetOptions = {}, path = 'cifar-resnet options'): Model {
  const o = parseModelOptions(CIFAR_RESNET_OPTIONS, options, path);
  const { depth, numClasses, width, shortcut, dropout: drop, init } = o;
  const inputShape = o.inputShape as [number, number, number];
  if (shortcut === 'A' && width % 2 !== 0) throw new InvalidArgumentError(`${path}.width`, 'an even width for option-A shortcuts', String(width));
  const n = (depth - 2) / 6;
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stem = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem: 'cifar', weightInit: wi });
  const { stages } = residualStages({ counts: [n, n, n], inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    basicBlock(b, path, { inChannels, outChannels, stride, shortcut, weightInit: wi }),
  );
  const head = linear(b, 'linear', { inFeatures: 4 * width, outFeatures: numClasses, weightInit: wi });
  const config = { depth, numClasses, inputShape, width, shortcut, dropout: drop, init };
  return stagedClassifier(b, { kind: 'cifar-resnet', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}

/** The zoo's declaration of `cifar-resnet` (zoo.ts lists it). */
export const cifarResnetDefinition = defineModel({
  name: 'cifar-resnet',
  summary: 'CIFAR ResNet-(6n+2) of He et al. 2016 §4.2 (basic blocks, option-A shortcuts; aliases resnet20 … resnet110, cifar-resnet-D)',
  task: 'image',
  options: CIFAR_RESNET_OPTIONS,
  create: cifarResNet,
});
