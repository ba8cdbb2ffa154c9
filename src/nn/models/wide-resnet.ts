/**
 * Wide-ResNet-d-k (Zagoruyko & Komodakis 2016), pre-activation blocks as xternalz/WideResNet-pytorch:
 * conv3×3(16) → 3 groups of n = (d − 4)/6 blocks with 16k, 32k, 64k channels (stride 1, 2, 2) → BN → ReLU →
 * global average pool → Linear(64k → C). Block: a = ReLU(BN(x)); h = conv3×3(ReLU(BN(conv3×3(a, stride))))
 * with dropout before the second conv; out = h + (x if shapes agree, else conv1×1(a, stride)).
 * Init as that code: kaiming_normal(fan_out, ReLU) for convs, BN 1/0, linear bias 0 (weight PyTorch default).
 * Paths: conv1, block{1,2,3}.layer.{i}.{bn1,conv1,bn2,conv2,convShortcut}, bn1, fc.
 * Feature layers: 'input', 'stem', 'block1', 'block2', 'block3', 'pool'. Dropout layers: 'block{g}.layer.{i}'.
 */
import { globalAvgPool, type Tensor } from '../../engine/index.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { ForwardContext } from '../forward-context.js';
import { zerosInit } from '../init.js';
import { linear } from '../linear.js';
import { DeclarationBuilder, type Model, positiveInt, rate } from '../model.js';
import { checkInitScheme, checkOptions, checkShape, type InitScheme, weightInit } from './common.js';

/** Options of `wideResNet`. */
export interface WideResNetOptions {
  /** 6n + 4: 16, 22, 28, 40 (default 28). */
  readonly depth?: number;
  /** Widening factor k (default 10). */
  readonly widen?: number;
  readonly numClasses?: number;
  /** Dropout rate inside each block (default 0; the paper uses 0.3 on some runs). */
  readonly dropout?: number;
  /** [Ci, H, W] (default [3, 32, 32]). */
  readonly inputShape?: readonly [number, number, number];
  readonly init?: InitScheme;
}

/** Build a Wide-ResNet model description. */
export function wideResNet(options: WideResNetOptions = {}): Model {
  checkOptions('wide-resnet', options, ['depth', 'widen', 'numClasses', 'dropout', 'inputShape', 'init']);
  const depth = positiveInt('wide-resnet options.depth', options.depth ?? 28);
  if ((depth - 4) % 6 !== 0 || depth < 10) throw new InvalidArgumentError('wide-resnet options.depth', '6n + 4 with n ≥ 1 (16, 22, 28, 40)', describe(depth));
  const n = (depth - 4) / 6;
  const widen = positiveInt('wide-resnet options.widen', options.widen ?? 10);
  const numClasses = positiveInt('wide-resnet options.numClasses', options.numClasses ?? 10);
  const drop = rate('wide-resnet options.dropout', options.dropout ?? 0);
  const inputShape = checkShape('wide-resnet options.inputShape', options.inputShape ?? [3, 32, 32], 3) as [number, number, number];
  const init = checkInitScheme('wide-resnet options.init', options.init ?? 'kaiming-normal-fan-out');
  const wi = weightInit(init);
  const widths = [16, 16 * widen, 32 * widen, 64 * widen];
  const b = new DeclarationBuilder();
  const conv1 = conv2d(b, 'conv1', { inChannels: inputShape[0], outChannels: widths[0]!, kernel: 3, padding: 1, bias: false, weightInit: wi });
  const groups = [0, 1, 2].map((g) =>
    Array.from({ length: n }, (_, i) => {
      const path = `block${g + 1}.layer.${i}`;
      const inC = i === 0 ? widths[g]! : widths[g + 1]!;
      const outC = widths[g + 1]!;
      const stride = i === 0 && g > 0 ? 2 : 1;
      const equal = inC === outC && stride === 1;
      const bnA = batchNorm(b, `${path}.bn1`, { channels: inC });
      const convA = conv2d(b, `${path}.conv1`, { inChannels: inC, outChannels: outC, kernel: 3, stride, padding: 1, bias: false, weightInit: wi });
      const bnB = batchNorm(b, `${path}.bn2`, { channels: outC });
      const convB = conv2d(b, `${path}.conv2`, { inChannels: outC, outChannels: outC, kernel: 3, padding: 1, bias: false, weightInit: wi });
      const short = equal ? null : conv2d(b, `${path}.convShortcut`, { inChannels: inC, outChannels: outC, kernel: 1, stride, bias: false, weightInit: wi });
      return (ctx: ForwardContext, x: Tensor): Tensor => {
        const a = bnA(ctx, x).relu();
        let h = bnB(ctx, convA(ctx, a)).relu();
        h = convB(ctx, ctx.dropout(path, h, drop));
        return h.add(short ? short(ctx, a) : x);
      };
    }),
  );
  const bnFinal = batchNorm(b, 'bn1', { channels: widths[3]! });
  const head = linear(b, 'fc', { inFeatures: widths[3]!, outFeatures: numClasses, biasInit: zerosInit });
  return {
    kind: 'wide-resnet',
    config: { depth, widen, numClasses, dropout: drop, inputShape, init },
    input: { dtype: 'float32', shape: inputShape },
    numClasses,
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'stem', 'block1', 'block2', 'block3', 'pool'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let h = ctx.feature('input', x);
      h = ctx.feature('stem', conv1(ctx, h));
      groups.forEach((blocks, g) => {
        for (const block of blocks) h = block(ctx, h);
        h = ctx.feature(`block${g + 1}`, h);
      });
      h = ctx.feature('pool', globalAvgPool(bnFinal(ctx, h).relu()));
      return { logits: head(ctx, h), buffers: ctx.finish() };
    },
  };
}
