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
import { globalAvgPool, maxPool2d } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { torchDefaultWeight } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { BOTTLENECK_EXPANSION, bottleneckBlock } from './bottleneck-block.js';
import { checkInitScheme, checkOptions, checkShape, checkStem, type InitScheme, stemGeometry, weightInit } from './common.js';

/** Blocks per stage of each depth. */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 50: [3, 4, 6, 3], 101: [3, 4, 23, 3], 152: [3, 8, 36, 3] };

/** Options of `resnet`. */
export interface ResNetOptions {
  /** 50, 101 or 152 (default 50). */
  readonly depth?: number;
  readonly numClasses?: number;
  /** [Ci, H, W] (default [3, 224, 224]). */
  readonly inputShape?: readonly [number, number, number];
  /** 'imagenet', 'cifar' or 'auto' (default: 'cifar' below 128 pixels, else 'imagenet'). */
  readonly stem?: 'imagenet' | 'cifar' | 'auto';
  /** Stem width (default 64; stages use width, 2·width, 4·width, 8·width planes). */
  readonly width?: number;
  /** Dropout rate before the classifier (default 0). */
  readonly dropout?: number;
  /** Convolution init (default 'kaiming-normal-fan-out', torchvision's). */
  readonly init?: InitScheme;
}

/** Build a bottleneck ResNet model description. */
export function resnet(options: ResNetOptions = {}): Model {
  checkOptions('resnet', options, ['depth', 'numClasses', 'inputShape', 'stem', 'width', 'dropout', 'init']);
  const depth = positiveInt('resnet options.depth', options.depth ?? 50);
  const blocks = DEPTHS[depth];
  if (!blocks) throw new InvalidArgumentError('resnet options.depth', '50, 101 or 152', describe(depth));
  const numClasses = positiveInt('resnet options.numClasses', options.numClasses ?? 10);
  const inputShape = checkShape('resnet options.inputShape', options.inputShape ?? [3, 224, 224], 3) as [number, number, number];
  const stem = checkStem('resnet options.stem', options.stem ?? 'auto', inputShape);
  const width = positiveInt('resnet options.width', options.width ?? 64);
  const drop = rate('resnet options.dropout', options.dropout ?? 0);
  const init = checkInitScheme('resnet options.init', options.init ?? 'kaiming-normal-fan-out');
  const wi = weightInit(init);
  const g = stemGeometry(stem);
  const b = new DeclarationBuilder();
  const conv1 = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: g.kernel, stride: g.stride, padding: g.padding, bias: false, weightInit: wi });
  const bn1 = batchNorm(b, 'bn1', { channels: width });
  let inC = width;
  const stages = blocks.map((count, s) => {
    const planes = width * 2 ** s;
    return Array.from({ length: count }, (_, i) => {
      const block = bottleneckBlock(b, `layer${s + 1}.${i}`, { inChannels: inC, planes, stride: i === 0 && s > 0 ? 2 : 1, weightInit: wi });
      inC = planes * BOTTLENECK_EXPANSION;
      return block;
    });
  });
  const head = linear(b, 'fc', { inFeatures: inC, outFeatures: numClasses, weightInit: torchDefaultWeight });
  return {
    kind: 'resnet',
    config: { depth, numClasses, inputShape, stem, width, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', 'layer1', 'layer2', 'layer3', 'layer4', 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = bn1(ctx, conv1(ctx, h)).relu();
      if (g.pool) h = maxPool2d(h, { kernel: 3, stride: 2, padding: 1 });
      h = ctx.feature('stem', h);
      stages.forEach((stage, s) => {
        for (const block of stage) h = block(ctx, h);
        h = ctx.feature(`layer${s + 1}`, h);
      });
      h = ctx.feature('pool', ctx.dropout('pool', globalAvgPool(h), drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
