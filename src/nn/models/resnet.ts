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
import { torchDefaultWeight } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt } from '../model.js';
import { BOTTLENECK_EXPANSION, bottleneckBlock } from './bottleneck-block.js';
import { checkClassifierOptions, checkDepth, checkOptions, checkStem, type ClassifierOptions, convBnStem } from './common.js';
import { residualStages, stagedClassifier } from './staged-classifier.js';

/** Blocks per stage of each depth. */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3] };

/** Options of `resnet` (defaults: inputShape [3, 224, 224], init 'kaiming-normal-fan-out', torchvision's). */
export interface ResNetOptions extends ClassifierOptions {
  /** 50, 101 or 152 (default 50). */
  readonly depth?: number;
  /** 'imagenet', 'cifar' or 'auto' (default: 'cifar' below 128 pixels, else 'imagenet'). */
  readonly stem?: 'imagenet' | 'cifar' | 'auto';
  /** Stem width (default 64; stages use width, 2·width, 4·width, 8·width planes). */
  readonly width?: number;
}

/** Build a bottleneck ResNet model description. */
export function resnet(options: ResNetOptions = {}): Model {
  checkOptions('resnet', options, ['depth', 'numClasses', 'inputShape', 'stem', 'width', 'dropout', 'init']);
  const [depth, blocks] = checkDepth('resnet options.depth', DEPTHS, options.depth ?? 50);
  const { numClasses, inputShape, dropout: drop, init, weightInit: wi } = checkClassifierOptions('resnet', options, { inputShape: [3, 224, 224], init: 'kaiming-normal-fan-out' });
  const stem = checkStem('resnet options.stem', options.stem ?? 'auto', inputShape);
  const width = positiveInt('resnet options.width', options.width ?? 64);
  const b = new DeclarationBuilder();
  const stemApply = convBnStem(b, { conv: 'conv1', bn: 'bn1', inChannels: inputShape[0], outChannels: width, stem, weightInit: wi });
  const layout = { counts: blocks, inChannels: width, planes: width, expansion: BOTTLENECK_EXPANSION };
  const { stages, channels } = residualStages(layout, (path, inChannels, planes, stride) => bottleneckBlock(b, path, { inChannels, planes, stride, weightInit: wi }));
  const head = linear(b, 'fc', { inFeatures: channels, outFeatures: numClasses, weightInit: torchDefaultWeight });
  const config = { depth, numClasses, inputShape, stem, width, dropout: drop, init };
  return stagedClassifier(b, { kind: 'resnet', config, inputShape, numClasses, stem: stemApply, stages, stageName: 'layer', dropout: drop, head });
}
