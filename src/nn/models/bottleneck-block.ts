/**
 * The bottleneck residual block of He et al. (2016, §4.1) in torchvision's layout ("ResNet v1.5": the stride
 * sits on the 3×3 convolution):
 *   out = ReLU( BN3(conv1×1(ReLU(BN2(conv3×3(ReLU(BN1(conv1×1(x))), stride))))) + downsample(x) )
 * with `planes` channels inside (or `innerWidth`, the 3×3 in `groups` groups: ResNeXt) and 4·planes out; downsample = conv1×1(stride) + BN when the shape changes.
 * Paths: conv1, bn1, conv2, bn2, conv3, bn3, downsample.0, downsample.1 (torchvision's names).
 */
import type { Tensor } from '../../engine/index.js';
import { batchNorm } from '../batch-norm.js';
import { conv2d } from '../conv2d.js';
import type { ForwardContext } from '../forward-context.js';
import type { Initializer } from '../init.js';
import type { DeclarationBuilder } from '../model.js';
import { joinPath } from '../tree.js';

/** Channel expansion of the bottleneck block (out = 4 · planes). */
export const BOTTLENECK_EXPANSION = 4;

/** Options of `bottleneckBlock`. */
export interface BottleneckBlockOptions {
  readonly inChannels: number;
  /** Width of the 1×1 → 3×3 → 1×1 path; the block outputs 4 · planes channels. */
  readonly planes: number;
  readonly stride: number;
  readonly weightInit: Initializer;
  /** Channels of the 3×3 convolution (default `planes`; ResNeXt: planes · baseWidth/64 · groups). */
  readonly innerWidth?: number;
  /** Groups of the 3×3 convolution (default 1; ResNeXt's cardinality). */
  readonly groups?: number;
}

/** Declare one bottleneck block under `path`; returns its apply function. */
export function bottleneckBlock(b: DeclarationBuilder, path: string, o: BottleneckBlockOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const out = o.planes * BOTTLENECK_EXPANSION;
  const inner = o.innerWidth ?? o.planes;
  const conv = (name: string, inC: number, outC: number, kernel: number, stride = 1, groups = 1) =>
    conv2d(b, joinPath(path, name), { inChannels: inC, outChannels: outC, kernel, stride, padding: kernel === 3 ? 1 : 0, groups, bias: false, weightInit: o.weightInit });
  const conv1 = conv('conv1', o.inChannels, inner, 1);
  const bn1 = batchNorm(b, joinPath(path, 'bn1'), { channels: inner });
  const conv2 = conv('conv2', inner, inner, 3, o.stride, o.groups ?? 1);
  const bn2 = batchNorm(b, joinPath(path, 'bn2'), { channels: inner });
  const conv3 = conv('conv3', inner, out, 1);
  const bn3 = batchNorm(b, joinPath(path, 'bn3'), { channels: out });
  let downsample: ((ctx: ForwardContext, x: Tensor) => Tensor) | null = null;
  if (o.stride !== 1 || o.inChannels !== out) {
    const dc = conv('downsample.0', o.inChannels, out, 1, o.stride);
    const dbn = batchNorm(b, joinPath(path, 'downsample.1'), { channels: out });
    downsample = (ctx, x) => dbn(ctx, dc(ctx, x));
  }
  return (ctx, x) => {
    let h = bn1(ctx, conv1(ctx, x)).relu();
    h = bn2(ctx, conv2(ctx, h)).relu();
    h = bn3(ctx, conv3(ctx, h));
    return h.add(downsample ? downsample(ctx, x) : x).relu();
  };
}
