/**
 * A small encoder–decoder for semantic segmentation (the shape of a U-Net without skips / SegNet-lite; a stand-in
 * for the DeepLabV3 of Liu et al. CVPR 2022 §4, Table 5, at toolkit scale): x [N, Ci, H, W] →
 *
 *   encoder  conv 3×3 (w) → BN → ReLU → max-pool 2 → conv 3×3 (2w) → BN → ReLU → max-pool 2
 *   middle   conv 3×3 (2w) → BN → ReLU, plus an image-level context branch broadcast over the positions:
 *            global average pool → conv 1×1 (2w) → ReLU (DeepLabV3's image pooling in ASPP, Chen et al. 2017 §3.3;
 *            without it a pixel only sees its ~18-pixel receptive field and cannot tell the digit)
 *   decoder  conv-transpose 2×2 stride 2 (w) → BN → ReLU → conv-transpose 2×2 stride 2 (w) → BN → ReLU
 *   head     conv 1×1 → logits [N, C, H, W] (`outputSpatial` [H, W])
 *
 * H and W must be divisible by 4 (two poolings undone by two stride-2 transposed convolutions).
 * Feature layers: 'input', 'enc1', 'enc2', 'middle' (after adding the context), 'dec1', 'dec2'.
 */
import { add, globalAvgPool, maxPool2d, relu, type Tensor } from '../../engine/index.js';
import { InvalidArgumentError } from '../../util/errors.js';
import { object } from '../../util/schema.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import { convTranspose2d } from '../conv-transpose2d.js';
import { ForwardContext } from '../forward-context.js';
import { DeclarationBuilder, type Model } from '../model.js';
import { countOption, initOption, inputShapeOption, type InitScheme, numClassesOption, parseModelOptions, weightInit } from './common.js';

/** The options of `seg-net` (util/schema.ts). */
export const SEG_NET_OPTIONS = object({
  inputShape: inputShapeOption([1, 28, 28], 3),
  numClasses: numClassesOption(11),
  width: countOption(16, 'channels w of the first encoder stage (the second and the middle have 2w, the decoder w)'),
  init: initOption('kaiming-normal'),
});

/** Options of `seg-net` (defaults and descriptions: `SEG_NET_OPTIONS`). */
export interface SegNetOptions {
  readonly inputShape?: readonly [number, number, number];
  readonly numClasses?: number;
  readonly width?: number;
  readonly init?: InitScheme;
}

/** Build the encoder–decoder description (`path` names the options in errors). */
export function segNet(options: SegNetOptions = {}, path = 'seg-net options'): Model {
  const o = parseModelOptions(SEG_NET_OPTIONS, options, path);
  const [ci, h, w] = o.inputShape as [number, number, number];
  if (h % 4 !== 0 || w % 4 !== 0) throw new InvalidArgumentError(`${path}.inputShape`, 'H and W divisible by 4', `${h}×${w}`);
  const { numClasses, width, init } = o;
  const b = new DeclarationBuilder();
  const wi = weightInit(init);
  const block = (name: string, cin: number, cout: number) => {
    const conv = conv2d(b, name, { inChannels: cin, outChannels: cout, kernel: 3, padding: 1, bias: false, weightInit: wi });
    const bn = batchNorm(b, `${name}_bn`, { channels: cout });
    return (ctx: ForwardContext, x: Tensor) => relu(bn(ctx, conv(ctx, x)));
  };
  const up = (name: string, cin: number, cout: number) => {
    const conv = convTranspose2d(b, name, { inChannels: cin, outChannels: cout, kernel: 2, stride: 2, bias: false, weightInit: wi });
    const bn = batchNorm(b, `${name}_bn`, { channels: cout });
    return (ctx: ForwardContext, x: Tensor) => relu(bn(ctx, conv(ctx, x)));
  };
  const enc1 = block('enc1', ci, width);
  const enc2 = block('enc2', width, 2 * width);
  const middle = block('middle', 2 * width, 2 * width);
  const context = conv2d(b, 'context', { inChannels: 2 * width, outChannels: 2 * width, kernel: 1, weightInit: wi });
  const dec1 = up('dec1', 2 * width, width);
  const dec2 = up('dec2', width, width);
  const head = conv2d(b, 'head', { inChannels: width, outChannels: numClasses, kernel: 1, weightInit: wi });
  return {
    kind: 'seg-net',
    config: { inputShape: [ci, h, w], numClasses, width, init },
    input: { dtype: 'float32', shape: [ci, h, w] },
    numClasses,
    outputSpatial: [h, w],
    params: b.params,
    buffers: b.buffers,
    featureLayers: ['input', 'enc1', 'enc2', 'middle', 'dec1', 'dec2'],
    forward(params, buffers, x, fo) {
      const ctx = new ForwardContext(params, buffers, fo);
      let t = ctx.feature('input', x);
      t = ctx.feature('enc1', maxPool2d(enc1(ctx, t), { kernel: 2 }));
      t = ctx.feature('enc2', maxPool2d(enc2(ctx, t), { kernel: 2 }));
      const m = middle(ctx, t);
      t = ctx.feature('middle', add(m, relu(context(ctx, globalAvgPool(m, true)))));
      t = ctx.feature('dec1', dec1(ctx, t));
      t = ctx.feature('dec2', dec2(ctx, t));
      return { logits: head(ctx, t), buffers: ctx.finish() };
    },
  };
}
