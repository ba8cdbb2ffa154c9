/**
 * ResNet-18 for small inputs (CIFAR-style stem, as kuangliu/pytorch-cifar): x [N, 3, 32, 32] → conv3×3(64) →
 * BN → ReLU → 4 stages of 2 basic blocks (64, 128, 256, 512 channels; stride 2 at stages 2–4; projection
 * shortcuts conv1×1 + BN) → global average pool → (dropout, option `dropout`) → Linear(512 → C). PyTorch default init (that code's choice).
 * Parameter paths: conv1, bn1, layer{1..4}.{0,1}.{conv1,bn1,conv2,bn2,shortcut.0,shortcut.1}, linear.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { object } from '../../util/schema.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { basicBlock } from './basic-block.js';
import { type ClassifierOptions, convBnStem, countOption, countsOption, dropoutOption, initOption, inputShapeOption, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

/** The options of `resnet18`: what each accepts, its default and description (util/schema.ts). */
export const RESNET18_OPTIONS = object({
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 32, 32], 3),
  width: countOption(64, 'base width'),
  blocks: countsOption([2, 2, 2, 2], 1, 'blocks per stage (3,4,6,3 gives ResNet-34)'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('torch'),
});

/** Options of `resnet18` (defaults and descriptions: `RESNET18_OPTIONS`). */
export interface ResNet18Options extends ClassifierOptions {
  readonly width?: number;
  readonly blocks?: readonly number[];
}

/** Build a ResNet-18 (small-input) model description (`path` names the options in errors). */
export function resnet18(options: ResNet18Options = {}, path = 'resnet18 options'): Model {
  const o = parseModelOptions(RESNET18_OPTIONS, options, path);
  const { numClasses, width, blocks, dropout: drop, init } = o;
  const inputShape = o.inputShape as [number, number, number];
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stem = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem: 'cifar', weightInit: wi });
  const { stages, channels } = residualStages({ counts: blocks, inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    basicBlock(b, path, { inChannels, outChannels, stride, shortcut: 'B', weightInit: wi }),
  );
  const head = linear(b, 'linear', { inFeatures: channels, outFeatures: numClasses, weightInit: wi });
  const config = { numClasses, inputShape, width, blocks, dropout: drop, init };
  return stagedClassifier(b, { kind: 'resnet18', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}

/** The zoo's declaration of `resnet18` (zoo.ts lists it). */
export const resnet18Definition = defineModel({
  name: 'resnet18',
  summary: 'ResNet-18 for small inputs (CIFAR stem, as kuangliu/pytorch-cifar)',
  task: 'image',
  options: RESNET18_OPTIONS,
  create: resnet18,
});
