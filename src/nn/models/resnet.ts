/**
 * Bottleneck ResNet-50/101/152 of He et al. (2016) in torchvision's layout (the papers' ResNet-50 for CIFAR,
 * Tiny-ImageNet and ImageNet): stem → 4 stages of bottleneck blocks ([3, 4, 6, 3], [3, 4, 23, 3], [3, 8, 36, 3];
 * planes 64, 128, 256, 512 × `width`/64; stride 2 at the first block of stages 2–4) → global average pool →
 * (dropout) → Linear(2048 → C). Stem 'imagenet' (conv 7×7/2 + max-pool 3×3/2, torchvision) or 'cifar'
 * (conv 3×3/1, no pool: the small-input variant), see `Stem`.
 * Init as torchvision: convolutions kaiming_normal (fan_out, ReLU gain) by default, BN weight 1 bias 0, the
 * classifier PyTorch's Linear default.
 * Paths (torchvision's): conv1, bn1, layer{1..4}.{i}.{conv1,bn1,conv2,bn2,conv3,bn3,downsample.0,downsample.1}, fc.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { object } from '../../util/schema.js';
import { torchDefaultWeight } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { BOTTLENECK_EXPANSION, bottleneckBlock } from './bottleneck-block.js';
import {
  type ClassifierOptions,
  convBnStem,
  countOption,
  depthOption,
  dropoutOption,
  initOption,
  inputShapeOption,
  numClassesOption,
  parseModelOptions,
  resolveStem,
  stemOption,
  weightInit,
} from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

/** Blocks per stage of each depth. */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3] };

/** The options of `resnet`: what each accepts, its default and description (util/schema.ts). */
export const RESNET_OPTIONS = object({
  depth: depthOption(DEPTHS, 50),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 224, 224], 3),
  stem: stemOption(),
  width: countOption(64, 'stem width (stages use width, 2·width, 4·width, 8·width planes)'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('kaiming-normal-fan-out', "convolution init (torchvision's)"),
});

/** Options of `resnet` (defaults and descriptions: `RESNET_OPTIONS`). */
export interface ResNetOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly stem?: 'imagenet' | 'cifar' | 'auto';
  readonly width?: number;
}

/** Build a bottleneck ResNet model description (`path` names the options in errors). */
export function resnet(options: ResNetOptions = {}, path = 'resnet options'): Model {
  const o = parseModelOptions(RESNET_OPTIONS, options, path);
  const { depth, numClasses, width, dropout: drop, init } = o;
  const blocks = DEPTHS[depth]!;
  const inputShape = o.inputShape as [number, number, number];
  const stem = resolveStem(o.stem, inputShape);
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stemApply = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem, weightInit: wi });
  const layout = { counts: blocks, inChannels: width, planes: width, expansion: BOTTLENECK_EXPANSION };
  const { stages, channels } = residualStages(layout, (path, inChannels, planes, stride) => bottleneckBlock(b, path, { inChannels, planes, stride, weightInit: wi }));
  const head = linear(b, 'fc', { inFeatures: channels, outFeatures: numClasses, weightInit: torchDefaultWeight });
  const config = { depth, numClasses, inputShape, stem, width, dropout: drop, init };
  return stagedClassifier(b, { kind: 'resnet', config, inputShape, numClasses, stem: stemApply, stages, stageName: 'layer', dropout: drop, head });
}

/** The zoo's declaration of `resnet` (zoo.ts lists it). */
export const resnetDefinition = defineModel({
  name: 'resnet',
  summary: "Bottleneck ResNet-50/101/152 (He et al. 2016) in torchvision's layout (aliases resnet50, resnet101, resnet152)",
  task: 'image',
  options: RESNET_OPTIONS,
  create: resnet,
});
