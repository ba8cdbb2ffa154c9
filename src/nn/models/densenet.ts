/**
 * DenseNet-BC of Huang et al. (2017) in torchvision's layout: stem → dense blocks ([6, 12, 24, 16] layers for
 * DenseNet-121, [6, 12, 32, 32] for 169, [6, 12, 48, 32] for 201) separated by transitions → BN → ReLU → global
 * average pool → (dropout) → Linear → logits. A dense layer appends k = `growth` channels:
 * new = conv3×3(ReLU(BN2(conv1×1(ReLU(BN1(concat(previous))), 4k)))), concatenated after its inputs (torchvision's
 * order). A transition halves the channels (⌊c/2⌋): conv1×1(ReLU(BN(x))) → average pool 2×2.
 * Stems: 'imagenet' (conv0 7×7/2 with 2k channels, norm0, ReLU, max-pool 3×3/2; torchvision) or 'cifar'
 * (conv0 3×3/1, norm0, ReLU, no pool: the small-input variant). Init as torchvision: kaiming_normal (fan_in,
 * ReLU gain) for convolutions, BN 1/0, classifier bias 0 (weight: PyTorch's Linear default).
 * Paths: features.{conv0,norm0}, features.denseblock{b}.denselayer{l}.{norm1,conv1,norm2,conv2},
 * features.transition{b}.{norm,conv}, features.norm5, classifier.
 * Feature layers: 'input', 'stem', 'block1' … 'block4', 'pool'.
 */
import { avgPool2d, concat } from '../../engine/index.js';
import { object } from '../../util/schema.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { torchDefaultWeight, zerosInit } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model } from '../model.js';
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
import { type Apply, stagedClassifier } from './staged-classifier.js';
import { defineModel } from './model-definition.js';

const DEPTHS: Readonly<Record<number, readonly number[]>> = { 121: [6, 12, 24, 16], 169: [6, 12, 32, 32], 201: [6, 12, 48, 32] };

/** The options of `densenet`: what each accepts, its default and description (util/schema.ts). */
export const DENSENET_OPTIONS = object({
  depth: depthOption(DEPTHS, 121, 'depth (dense layers per block from torchvision)'),
  numClasses: numClassesOption(),
  inputShape: inputShapeOption([3, 224, 224], 3),
  stem: stemOption(),
  growth: countOption(32, 'growth rate k (the stem has 2k channels, the bottleneck 4k)'),
  dropout: dropoutOption(0, 'dropout rate before the classifier'),
  init: initOption('kaiming-normal', "convolution init (torchvision's)"),
});

/** Options of `densenet` (defaults and descriptions: `DENSENET_OPTIONS`). */
export interface DenseNetOptions extends ClassifierOptions {
  readonly depth?: number;
  readonly stem?: 'imagenet' | 'cifar' | 'auto';
  readonly growth?: number;
}

/** Build a DenseNet model description (`path` names the options in errors). */
export function densenet(options: DenseNetOptions = {}, path = 'densenet options'): Model {
  const o = parseModelOptions(DENSENET_OPTIONS, options, path);
  const { depth, numClasses, growth: k, dropout: drop, init } = o;
  const blocks = DEPTHS[depth]!;
  const inputShape = o.inputShape as [number, number, number];
  const stem = resolveStem(o.stem, inputShape);
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const stemApply = convBnStem(b, { conv: 'features.conv0', bn: 'features.norm0', inChannels: inputShape[0], outChannels: 2 * k, stem, weightInit: wi });
  let c = 2 * k;
  // A stage: its dense layers, then a transition (but after the last block).
  const stages = blocks.map((count, bi) => {
    const stage = Array.from({ length: count }, (_, li): Apply => {
      const p = `features.denseblock${bi + 1}.denselayer${li + 1}`;
      const norm1 = batchNorm(b, `${p}.norm1`, { channels: c });
      const conv1 = conv2d(b, `${p}.conv1`, { inChannels: c, outChannels: 4 * k, kernel: 1, bias: false, weightInit: wi });
      const norm2 = batchNorm(b, `${p}.norm2`, { channels: 4 * k });
      const conv2 = conv2d(b, `${p}.conv2`, { inChannels: 4 * k, outChannels: k, kernel: 3, padding: 1, bias: false, weightInit: wi });
      c += k;
      return (ctx, x) => concat([x, conv2(ctx, norm2(ctx, conv1(ctx, norm1(ctx, x).relu())).relu())], 1);
    });
    if (bi < blocks.length - 1) {
      const p = `features.transition${bi + 1}`;
      const norm = batchNorm(b, `${p}.norm`, { channels: c });
      const out = Math.floor(c / 2);
      const conv = conv2d(b, `${p}.conv`, { inChannels: c, outChannels: out, kernel: 1, bias: false, weightInit: wi });
      c = out;
      stage.push((ctx, x) => avgPool2d(conv(ctx, norm(ctx, x).relu()), { kernel: 2, stride: 2 }));
    }
    return stage;
  });
  const norm5 = batchNorm(b, 'features.norm5', { channels: c });
  const head = linear(b, 'classifier', { inFeatures: c, outFeatures: numClasses, weightInit: torchDefaultWeight, biasInit: zerosInit });
  const config = { depth, numClasses, inputShape, stem, growth: k, dropout: drop, init };
  const neck: Apply = (ctx, x) => norm5(ctx, x).relu();
  return stagedClassifier(b, { kind: 'densenet', config, inputShape, numClasses, stem: stemApply, stages, stageName: 'block', neck, dropout: drop, head });
}

/** The zoo's declaration of `densenet` (zoo.ts lists it). */
export const densenetDefinition = defineModel({
  name: 'densenet',
  summary: "DenseNet-BC-121/169/201 (Huang et al. 2017) in torchvision's layout (aliases densenet121, …)",
  task: 'image',
  options: DENSENET_OPTIONS,
  create: densenet,
});
