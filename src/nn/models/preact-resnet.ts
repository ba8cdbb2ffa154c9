/**
 * Pre-activation ResNet-18/34 of He et al. (2016b, "Identity mappings"), as kuangliu/pytorch-cifar's
 * preact_resnet.py (the network of the mixup papers' CIFAR code): x → conv3×3(64) → 4 stages of pre-activation
 * blocks (64, 128, 256, 512 channels × width/64; stride 2 at stages 2–4) → global average pool → (dropout) →
 * Linear(512 → C). A block: a = ReLU(BN1(x)); shortcut = conv1×1(a, stride) when the shape changes, else x;
 * out = conv3×3(ReLU(BN2(conv3×3(a, stride)))) + shortcut. As in that code there is no BN-ReLU after the last
 * stage, and its 4×4 average pool on 32×32 inputs is the global average pool used here. PyTorch default init.
 * Paths: conv1, layer{1..4}.{i}.{bn1,conv1,bn2,conv2,shortcut.0}, linear.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { object } from '../../util/schema.js';
import { conv2d } from '../conv2d.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { type ClassifierOptions, countOption, depthOption, dropoutOption, initOption, inputShapeOption, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { preactBlock } from './preact-block.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

const DEPTHS: Readonly<Record<number, readonly number[]>> = { 18: [2, 2, 2, 2], 34: [3, 4, 6, 3] };

/** The options of `preactResNet`: what each accepts, its default and description (util/schema.ts). */
export const PREACT_RESNET_OPTIONS = object({
  depth: depthOption(DEPTHS, 18),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 32, 32], 3),
  width: countOption(64, 'base width'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('torch'),
});

/** Options of `preactResNet` (defaults and descriptions: `PREACT_RESNET_OPTIONS`). */
export interface PreActResNetOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly width?: number;
}

/** Build a PreActResNet model description (`path` names the options in errors). */
export function preactResNet(options: PreActResNetOptions = {}, path = 'preact-resnet options'): Model {
  const o = parseModelOptions(PREACT_RESNET_OPTIONS, options, path);
  const { depth, numClasses, width, dropout: drop, init } = o;
  const blocks = DEPTHS[depth]!;
  const inputShape = o.inputShape as [number, number, number];
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stem = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const { stages, channels } = residualStages({ counts: blocks, inChannels: width, planes: width }, (path, inChannels, outChannels, stride) =>
    preactBlock(b, path, { inChannels, outChannels, stride, weightInit: wi, shortcutPath: 'shortcut.0' }),
  );
  const head = linear(b, 'linear', { inFeatures: channels, outFeatures: numClasses, weightInit: wi });
  const config = { depth, numClasses, inputShape, width, dropout: drop, init };
  return stagedClassifier(b, { kind: 'preact-resnet', config, inputShape, numClasses, stem, stages, stageName: 'layer', dropout: drop, head });
}

/** The zoo's declaration of `preact-resnet` (zoo.ts lists it). */
export const preactResnetDefinition = defineModel({
  name: 'preact-resnet',
  summary: 'Pre-activation ResNet-18/34 (He et al. 2016b), as kuangliu/pytorch-cifar (aliases preact-resnet18, preact-resnet34)',
  task: 'image',
  options: PREACT_RESNET_OPTIONS,
  create: preactResNet,
});
