/**
 * 2-D transposed convolution layer (PyTorch nn.ConvTranspose2d), NCHW: x [N, Ci, H, W], W [Ci, Co, k, k], optional
 * b [Co] → [N, Co, Ho, Wo], Ho = (H − 1)·s − 2p + k + outputPadding. Default init as PyTorch: W ~
 * kaiming_uniform(a = √5) and b ~ U(±1/√fan_in) with fan_in = Co · k² (PyTorch reads dim 1 of the weight as fan-in).
 */
import { add, convTranspose2d as convTranspose2dOp, reshape, type Tensor } from '../engine/index.js';
import type { ForwardContext } from './forward-context.js';
import { fans, type Initializer, torchDefaultBias, torchDefaultWeight } from './init.js';
import { type DeclarationBuilder, positiveInt } from './model.js';
import { joinPath } from './tree.js';

/** Options of `convTranspose2d`. */
export interface ConvTranspose2dLayerOptions {
  readonly inChannels: number;
  readonly outChannels: number;
  /** Square kernel size. */
  readonly kernel: number;
  readonly stride?: number;
  readonly padding?: number;
  /** Default true (PyTorch); pass false before batch norm. */
  readonly bias?: boolean;
  readonly weightInit?: Initializer;
}

/** Declare `<path>.weight` (and `<path>.bias`); returns the layer's apply function. */
export function convTranspose2d(b: DeclarationBuilder, path: string, o: ConvTranspose2dLayerOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const ci = positiveInt(`${path}.inChannels`, o.inChannels);
  const co = positiveInt(`${path}.outChannels`, o.outChannels);
  const k = positiveInt(`${path}.kernel`, o.kernel);
  const shape = [ci, co, k, k];
  const wPath = joinPath(path, 'weight');
  const bPath = joinPath(path, 'bias');
  b.param(wPath, shape, o.weightInit ?? torchDefaultWeight);
  const withBias = o.bias !== false;
  if (withBias) b.param(bPath, [co], torchDefaultBias(fans(shape).fanIn));
  const stride = o.stride ?? 1;
  const padding = o.padding ?? 0;
  return (ctx, x) => {
    const y = convTranspose2dOp(x, ctx.param(wPath), { stride, padding });
    return withBias ? add(y, reshape(ctx.param(bPath), [co, 1, 1])) : y;
  };
}
