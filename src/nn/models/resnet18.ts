/**
 * ResNet-18 for small inputs (CIFAR-style stem, as kuangliu/pytorch-cifar): x [N, 3, 32, 32] → conv3×3(64) →
 * BN → ReLU → 4 stages of 2 basic blocks (64, 128, 256, 512 channels; stride 2 at stages 2–4; projection
 * shortcuts conv1×1 + BN) → global average pool → (dropout, option `dropout`) → Linear(512 → C). PyTorch default init (that code's choice).
 * Parameter paths: conv1, bn1, layer{1..4}.{0,1}.{conv1,bn1,conv2,bn2,shortcut.0,shortcut.1}, linear.
 * Feature layers: 'input', 'stem', 'layer1' … 'layer4', 'pool'.
 */
import { globalAvgPool } from '../../engine/index.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { basicBlock } from './basic-block.js';
import { checkInitScheme, checkIntList, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

/** Options of `resnet18`. */
export interface ResNet18Options {
  readonly numClasses?: number;
  /** [Ci, H, W] (default [3, 32, 32]). */
  readonly inputShape?: readonly [number, number, number];
  /** Base width (default 64). */
  readonly width?: number;
  /** Blocks per stage (default [2, 2, 2, 2]; [3, 4, 6, 3] gives ResNet-34). */
  readonly blocks?: readonly number[];
  /** Dropout rate before the classifier (default 0). */
  readonly dropout?: number;
  readonly init?: InitScheme;
}

/** Build a ResNet-18 (small-input) model description. */
export function resnet18(options: ResNet18Options = {}): Model {
  checkOptions('resnet18', options, ['numClasses', 'inputShape', 'width', 'blocks', 'dropout', 'init']);
  const numClasses = positiveInt('resnet18 options.numClasses', options.numClasses ?? 10);
  const inputShape = checkShape('resnet18 options.inputShape', options.inputShape ?? [3, 32, 32], 3) as [number, number, number];
  const width = positiveInt('resnet18 options.width', options.width ?? 64);
  const blocks = checkIntList('resnet18 options.blocks', options.blocks ?? [2, 2, 2, 2], 1);
  const drop = rate('resnet18 options.dropout', options.dropout ?? 0);
  const init = checkInitScheme('resnet18 options.init', options.init ?? 'torch');
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const conv1 = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const bn1 = batchNorm(b, 'bn1', { channels: width });
  let inC = width;
  const stages = blocks.map((count, s) => {
    const out = width * 2 ** s;
    return Array.from({ length: count }, (_, i) => {
      const block = basicBlock(b, `layer${s + 1}.${i}`, { inChannels: inC, outChannels: out, stride: i === 0 && s > 0 ? 2 : 1, shortcut: 'B', weightInit: wi });
      inC = out;
      return block;
    });
  });
  const head = linear(b, 'linear', { inFeatures: inC, outFeatures: numClasses, weightInit: wi });
  return {
    kind: 'resnet18',
    config: { numClasses, inputShape, width, blocks, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', ...blocks.map((_, s) => `layer${s + 1}`), 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = ctx.feature('stem', bn1(ctx, conv1(ctx, h)).relu());
      stages.forEach((stage, s) => {
        for (const block of stage) h = block(ctx, h);
        h = ctx.feature(`layer${s + 1}`, h);
      });
      h = ctx.feature('pool', ctx.dropout('pool', globalAvgPool(h), drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
