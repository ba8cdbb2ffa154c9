/**
 * The basic residual block of He et al. (2016) for the CIFAR ResNets and ResNet-18:
 *   out = ReLU( BN(conv3×3(ReLU(BN(conv3×3(x, stride))))) + shortcut(x) )
 * Shortcuts when the shape changes (stride ≠ 1 or channels differ):
 * - 'A' (parameter-free, He et al. §4.2 option A, as akamaster/pytorch_resnet_cifar10): x[:, :, ::s, ::s]
 *   zero-padded with (out − in)/2 channels on each side. Emitted as ONE 1×1 convolution with a constant
 *   channel-selection kernel and stride s, whose input gradient is a single ConvTranspose (ENGINE-NOTES).
 * - 'B' (projection): conv1×1(stride s) + BN (kuangliu/pytorch-cifar ResNet-18).
 */
import { constant, conv2d as conv2dOp, type Tensor } from '../../engine/index.js';
import { InvalidArgumentError } from '../../util/errors.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import type { ForwardContext } from '../forward-context.js';
import type { Initializer } from '../init.js';
import type { DeclarationBuilder } from '../model.js';
import { joinPath } from '../tree.js';

/** Options of `basicBlock`. */
export interface BasicBlockOptions {
  readonly inChannels: number;
  readonly outChannels: number;
  readonly stride: number;
  readonly shortcut: 'A' | 'B';
  readonly weightInit: Initializer;
}

/**
 * Host values of the option-A selection kernel [out, in, 1, 1]: W[o, i] = 1 iff o = i + (out − in)/2, so a
 * strided 1×1 convolution subsamples space and zero-pads channels symmetrically.
 */
export function optionAKernel(inChannels: number, outChannels: number): Float32Array {
  const padBefore = (outChannels - inChannels) / 2;
  if (!Number.isInteger(padBefore) || padBefore < 0) {
    throw new InvalidArgumentError('option-A shortcut', 'outChannels − inChannels even and ≥ 0', `${inChannels} → ${outChannels}`);
  }
  const w = new Float32Array(outChannels * inChannels);
  for (let i = 0; i < inChannels; i++) w[(i + padBefore) * inChannels + i] = 1;
  return w;
}

/** Declare one basic block under `path`; returns its apply function. */
export function basicBlock(b: DeclarationBuilder, path: string, o: BasicBlockOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const conv1 = conv2d(b, joinPath(path, 'conv1'), { inChannels: o.inChannels, outChannels: o.outChannels, kernel: 3, stride: o.stride, padding: 1, bias: false, weightInit: o.weightInit });
  const bn1 = batchNorm(b, joinPath(path, 'bn1'), { channels: o.outChannels });
  const conv2 = conv2d(b, joinPath(path, 'conv2'), { inChannels: o.outChannels, outChannels: o.outChannels, kernel: 3, padding: 1, bias: false, weightInit: o.weightInit });
  const bn2 = batchNorm(b, joinPath(path, 'bn2'), { channels: o.outChannels });
  let shortcut: ((ctx: ForwardContext, x: Tensor) => Tensor) | null = null;
  if (o.stride !== 1 || o.inChannels !== o.outChannels) {
    if (o.shortcut === 'A') {
      const kernel = optionAKernel(o.inChannels, o.outChannels);
      const stride = o.stride;
      shortcut = (_ctx, x) => conv2dOp(x, constant(kernel, { shape: [o.outChannels, o.inChannels, 1, 1], dtype: x.dtype }), { stride });
    } else {
      const conv = conv2d(b, joinPath(path, 'shortcut.0'), { inChannels: o.inChannels, outChannels: o.outChannels, kernel: 1, stride: o.stride, bias: false, weightInit: o.weightInit });
      const bn = batchNorm(b, joinPath(path, 'shortcut.1'), { channels: o.outChannels });
      shortcut = (ctx, x) => bn(ctx, conv(ctx, x));
    }
  }
  return (ctx, x) => {
    const h = bn1(ctx, conv1(ctx, x)).relu();
    const y = bn2(ctx, conv2(ctx, h));
    return y.add(shortcut ? shortcut(ctx, x) : x).relu();
  };
}
