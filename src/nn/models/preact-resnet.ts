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
import { globalAvgPool, type Tensor } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import type { Initializer } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { joinPath } from '../tree.js';
import { checkInitScheme, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

const DEPTHS: Readonly<Record<number, readonly number[]>> = { 18: [2, 2, 2, 2], 34: [3, 4, 6, 3] };

/** Options of `preactResNet`. */
export interface PreActResNetOptions {
  /** 18 or 34 (default 18). */
  readonly depth?: number;
  readonly numClasses?: number;
  /** [Ci, H, W] (default [3, 32, 32]). */
  readonly inputShape?: readonly [number, number, number];
  /** Base width (default 64). */
  readonly width?: number;
  /** Dropout rate before the classifier (default 0). */
  readonly dropout?: number;
  readonly init?: InitScheme;
}

function preactBlock(b: DeclarationBuilder, path: string, inC: number, outC: number, stride: number, wi: Initializer): (ctx: ForwardContext, x: Tensor) => Tensor {
  const bn1 = batchNorm(b, joinPath(path, 'bn1'), { channels: inC });
  const conv1 = conv2d(b, joinPath(path, 'conv1'), { inChannels: inC, outChannels: outC, kernel: 3, stride, padding: 1, bias: false, weightInit: wi });
  const bn2 = batchNorm(b, joinPath(path, 'bn2'), { channels: outC });
  const conv2 = conv2d(b, joinPath(path, 'conv2'), { inChannels: outC, outChannels: outC, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const shortcut = stride !== 1 || inC !== outC
    ? conv2d(b, joinPath(path, 'shortcut.0'), { inChannels: inC, outChannels: outC, kernel: 1, stride, bias: false, weightInit: wi })
    : null;
  return (ctx, x) => {
    const a = bn1(ctx, x).relu();
    const s = shortcut ? shortcut(ctx, a) : x;
    return conv2(ctx, bn2(ctx, conv1(ctx, a)).relu()).add(s);
  };
}

/** Build a PreActResNet model description. */
export function preactResNet(options: PreActResNetOptions = {}): Model {
  checkOptions('preact-resnet', options, ['depth', 'numClasses', 'inputShape', 'width', 'dropout', 'init']);
  const depth = positiveInt('preact-resnet options.depth', options.depth ?? 18);
  const blocks = DEPTHS[depth];
  if (!blocks) throw new InvalidArgumentError('preact-resnet options.depth', '18 or 34', describe(depth));
  const numClasses = positiveInt('preact-resnet options.numClasses', options.numClasses ?? 10);
  const inputShape = checkShape('preact-resnet options.inputShape', options.inputShape ?? [3, 32, 32], 3) as [number, number, number];
  const width = positiveInt('preact-resnet options.width', options.width ?? 64);
  const drop = rate('preact-resnet options.dropout', options.dropout ?? 0);
  const init = checkInitScheme('preact-resnet options.init', options.init ?? 'torch');
  const wi = weightInit(init);
  const b = new DeclarationBuilder();
  const conv1 = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: width, kernel: 3, padding: 1, bias: false, weightInit: wi });
  let inC = width;
  const stages = blocks.map((count, s) => {
    const out = width * 2 ** s;
    return Array.from({ length: count }, (_, i) => {
      const block = preactBlock(b, `layer${s + 1}.${i}`, inC, out, i === 0 && s > 0 ? 2 : 1, wi);
      inC = out;
      return block;
    });
  });
  const head = linear(b, 'linear', { inFeatures: inC, outFeatures: numClasses, weightInit: wi });
  return {
    kind: 'preact-resnet',
    config: { depth, numClasses, inputShape, width, dropout: drop, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', 'layer1', 'layer2', 'layer3', 'layer4', 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = ctx.feature('stem', conv1(ctx, h));
      stages.forEach((stage, s) => {
        for (const block of stage) h = block(ctx, h);
        h = ctx.feature(`layer${s + 1}`, h);
      });
      h = ctx.feature('pool', ctx.dropout('pool', globalAvgPool(h), drop));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
