/**
 * Wide-ResNet-d-k (Zagoruyko & Komodakis 2016), pre-activation blocks as xternalz/WideResNet-pytorch:
 * conv3×3(16) → 3 groups of n = (d − 4)/6 blocks with 16k, 32k, 64k channels (stride 1, 2, 2) → BN → ReLU →
 * global average pool → Linear(64k → C). Block: a = ReLU(BN(x)); h = conv3×3(ReLU(BN(conv3×3(a, stride))))
 * with dropout before the second conv; out = h + (x if shapes agree, else conv1×1(a, stride)).
 * Init as that code: kaiming_normal(fan_out, ReLU) for convs, BN 1/0, linear bias 0 (weight PyTorch default).
 * Paths: conv1, block{1,2,3}.layer.{i}.{bn1,conv1,bn2,conv2,convShortcut}, bn1, fc.
 * Feature layers: 'input', 'stem', 'block1', 'block2', 'block3', 'pool'. Dropout layers: 'block{g}.layer.{i}'.
 */
import { object } from '../../util/schema.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { zerosInit } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { type ClassifierOptions, countOption, depth6nOption, dropoutOption, initOption, inputShapeOption, numClassesOption, parseModelOptions, weightInit } from './common.js';
import { preactBlock } from './preact-block.js';
import { type Apply, residualStages, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

/** The options of `wideResNet`: what each accepts, its default and description (util/schema.ts). */
export const WIDE_RESNET_OPTIONS = object({
  depth: depth6nOption(4, 28, '16, 22, 28, 40', 'depth 6n + 4'),
  widen: countOption(10, 'widening factor k'),
  numClasses: numClassesOption(),
  dropout: dropoutOption(0, 'dropout rate inside each block (the paper uses 0.3 on some runs)'),
  inputShape: inputShapeOption([3, 32, 32], 3),
  init: initOption('kaiming-normal-fan-out'),
});

/** Options of `wideResNet` (defaults and descriptions: `WIDE_RESNET_OPTIONS`; the dropout is inside the blocks, none before the classifier). */
export interface WideResNetOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly widen?: number;
}

/** Build a Wide-ResNet model description (`path` names the options in errors). */
export function wideResNet(options: WideResNetOptions = {}, path = 'wide-resnet options'): Model {
  const o = parseModelOptions(WIDE_RESNET_OPTIONS, options, path);
  const { depth, widen, numClasses, dropout: drop, init } = o;
  const inputShape = o.inputShape as [number, number, number];
  const n = (depth - 4) / 6;
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stem = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: 16, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const layout = { counts: [n, n, n], inChannels: 16, planes: 16 * widen, path: (g: number, i: number) => `block${g + 1}.layer.${i}` };
  const { stages, channels } = residualStages(layout, (path, inChannels, outChannels, stride) =>
    preactBlock(b, path, { inChannels, outChannels, stride, weightInit: wi, shortcutPath: 'convShortcut', dropout: drop }),
  );
  const bnFinal = batchNorm(b, 'bn1', { channels });
  const head = linear(b, 'fc', { inFeatures: channels, outFeatures: numClasses, biasInit: zerosInit });
  const config = { depth, widen, numClasses, dropout: drop, inputShape, init };
  const neck: Apply = (ctx, x) => bnFinal(ctx, x).relu();
  // The dropout is inside the blocks: none on the pooled features.
  return stagedClassifier(b, { kind: 'wide-resnet', config, inputShape, numClasses, stem, stages, stageName: 'block', neck, dropout: 0, head });
}

/** The zoo's declaration of `wide-resnet` (zoo.ts lists it). */
export const wideResnetDefinition = defineModel({
  name: 'wide-resnet',
  summary: 'Wide-ResNet-d-k (Zagoruyko & Komodakis 2016), as xternalz/WideResNet-pytorch (alias wrn-D-W)',
  task: 'image',
  options: WIDE_RESNET_OPTIONS,
  create: wideResNet,
});
