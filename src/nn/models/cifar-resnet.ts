/**
 * CIFAR ResNet-(6n+2) of He et al. (2016, §4.2): ResNet-20/32/44/56/110 with n = 3/5/7/9/18. x [N, 3, 32, 32] →
 * conv3×3(16) → BN → ReLU → 3 stages of n basic blocks (16, 32, 64 channels; stride 2 at the start of stages
 * 2 and 3; option-A shortcuts) → global average pool → (dropout, option `dropout`) → Linear(64 → C). Init as akamaster/pytorch_resnet_cifar10:
 * kaiming_normal (fan_in, gain √2) for every conv and linear weight; linear bias PyTorch default; BN 1/0.
 * Parameter paths follow that code: conv1, bn1, layer{1,2,3}.{i}.{conv1,bn1,conv2,bn2}, linear.
 * Feature layers: 'input', 'stem', 'layer1', 'layer2', 'layer3', 'pool' ([N, 64·width]).
 */
import { globalAvgPool } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { basicBlock } from './basic-block.js';
import { checkInitScheme, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

/** Options of `cifarResNet`. */
export interface CifarResNetOptions {
  /** 6n + 2: 20, 32, 44, 56, 110, … (default 20). */
  readonly depth?: number;
  readonly numClasses?: number;
  /** [Ci, H, W] (default [3, 32, 32]). */
  readonly inputShape?: readonly [number, number, number];
  /** Base width (default 16: stages 16, 32, 64). */
  readonly width?: number;
  /** Shortcut type (default 'A', the paper's CIFAR choice). */
  readonly shortcut?: 'A' | 'B';
  /** Dropout rate before the classifier (default 0). */
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/** Build a CIFAR ResNet model description. */
export function cifarResNet(options: CifarResNetOptions = {}): Model {
  checkOptions('cifar-resnet', options, ['depth', 'numClasses', 'inputShape', 'width', 'shortcut', 'dropout', 'init']);
  const depth = positiveInt('cifar-resnet options.depth', options.depth ?? 20);
  if ((depth - 2) % 6 !== 0 || depth < 8) throw new InvalidArgumentError('cifar-resnet options.depth', '6n + 2 with n ≥ 1 (20, 32, 44, 56, 110)', describe(depth));
  const n = (depth - 2) / 6;
  const numClasses = positiveInt('cifar-resnet options.numClasses', options.numClasses ?? 10);
  const inputShape = checkShape('cifar-resnet options.inputShape', options.inputShape ?? [3, 32, 32], 3) as [number, number, number];
  const width = positiveInt('cifar-resnet options.width', options.width ?? 16);
  const shortcut = options.shortcut ?? 'A';
  if (shortcut !== 'A' && shortcut !== 'B') throw new InvalidArgumentError('cifar-resnet options.shortcut', 'A or B', describe(shortcut));
  if (shortcut === 'A' && width % 2 !== 0) throw new InvalidArgumentError('cifar-resnet options.width', 'an even width for option-A shortcuts', describe(width));
  const drop = rate('cifar-resnet options.dropout', options.dropout ?? 0);
  const init = checkInitScheme('cifar-resnet options.init', options.init ?? 'kaiming-normal');
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const conv1 = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const bn1 = batchNorm(b, 'bn1', { channels: width });
  const stages = [1, 2, 4].map((mult, s) => {
    const out = width * mult;
    return Array.from({ length: n }, (_, i) =>
      basicBlock(b, `layer${s + 1}.${i}`, {
        inChannels: i === 0 ? (s === 0 ? width : out / 2) : out,
        outChannels: out,
        stride: i === 0 && s > 0 ? 2 : 1,
        shortcut,
        weightInit: wi,
      }),
    );
  });
  const head = linear(b, 'linear', { inFeatures: 4 * width, outFeatures: numClasses, weightInit: wi });
  return {
    kind: 'cifar-resnet',
    config: { depth, numClasses, inputShape, width, shortcut, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', 'layer1', 'layer2', 'layer3', 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = ctx.feature('stem', bn1(ctx, conv1(ctx, h)).relu());
      stages.forEach((blocks, s) => {
        for (const block of blocks) h = block(ctx, h);
        h = ctx.feature(`layer${s + 1}`, h);
      });
      h = ctx.feature('pool', ctx.dropout('pool', globalAvgPool(h), drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
