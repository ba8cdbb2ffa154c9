/**
 * 2-D convolution layer (PyTorch nn.Conv2d), NCHW: x [N, Ci, H, W], W [Co, Ci/groups, k, k], optional b [Co]
 * → [N, Co, Ho, Wo], Ho = ⌊(H + 2p − k)/s⌋ + 1. Default init as PyTorch: W ~ kaiming_uniform(a = √5) =
 * U(±1/√fan_in), b ~ U(±1/√fan_in), fan_in = Ci/groups · k².
 */
import { conv2d as conv2dOp, type Tensor } from '../engine/index.js';
import type { ForwardContext } from './forward-context.js';
import { fans, type Initializer, torchDefaultBias, torchDefaultWeight } from './init.js';
import { type DeclarationBuilder, positiveInt } from './model.js';
import { joinPath } from './tree.js';

/** Options of `conv2d`. */
export interface Conv2dLayerOptions {
  readonly inChannels: number;
  readonly outChannels: number;
  /** Square kernel size, or [kh, kw]. */
  readonly kernel: number | readonly [number, number];
  readonly stride?: number;
  readonly padding?: number | readonly [number, number];
  readonly groups?: number;
  /** Default true (PyTorch); convolutions followed by batch norm usually pass false. */
  readonly bias?: boolean;
  readonly weightInit?: Initializer;
  readonly biasInit?: Initializer;
}

/** Declare `<path>.weight` (and `<path>.bias`); returns the layer's apply function. */
export function conv2d(b: DeclarationBuilder, path: string, o: Conv2dLayerOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const ci = positiveInt(`${path}.inChannels`, o.inChannels);
  const co = positiveInt(`${path}.outChannels`, o.outChannels);
  const groups = positiveInt(`${path}.groups`, o.groups ?? 1);
  const [kh, kw] = typeof o.kernel === 'number' ? [o.kernel, o.kernel] : o.kernel;
  positiveInt(`${path}.kernel`, kh);
  positiveInt(`${path}.kernel`, kw);
  const shape = [co, ci / groups, kh, kw];
  positiveInt(`${path}.inChannels / groups`, ci / groups);
  const wPath = joinPath(path, 'weight');
  const bPath = joinPath(path, 'bias');
  b.param(wPath, shape, o.weightInit ?? torchDefaultWeight);
  const withBias = o.bias !== false;
  if (withBias) b.param(bPath, [co], o.biasInit ?? torchDefaultBias(fans(shape).fanIn));
  const stride = o.stride ?? 1;
  const padding = o.padding ?? 0;
  return (ctx, x) => conv2dOp(x, ctx.param(wPath), { stride, padding, groups, ...(withBias ? { bias: ctx.param(bPath) } : {}) });
}
