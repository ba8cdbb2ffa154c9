/**
 * Fully connected layer (PyTorch nn.Linear): y = x Wᵀ + b, x [N, in], W [out, in], b [out] → y [N, out].
 * Default init as PyTorch: W ~ kaiming_uniform(a = √5) = U(±1/√in), b ~ U(±1/√in).
 */
import type { Tensor } from '../engine/index.js';
import type { ForwardContext } from './forward-context.js';
import { type Initializer, torchDefaultBias, torchDefaultWeight } from './init.js';
import { type DeclarationBuilder, positiveInt } from './model.js';
import { joinPath } from './tree.js';

/** Options of `linear`. */
export interface LinearOptions {
  readonly inFeatures: number;
  readonly outFeatures: number;
  /** Default true. */
  readonly bias?: boolean;
  readonly weightInit?: Initializer;
  readonly biasInit?: Initializer;
}

/** Declare `<path>.weight` [out, in] (and `<path>.bias` [out]); returns the layer's apply function. */
export function linear(b: DeclarationBuilder, path: string, o: LinearOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const nIn = positiveInt(`${path}.inFeatures`, o.inFeatures);
  const nOut = positiveInt(`${path}.outFeatures`, o.outFeatures);
  const wPath = joinPath(path, 'weight');
  const bPath = joinPath(path, 'bias');
  b.param(wPath, [nOut, nIn], o.weightInit ?? torchDefaultWeight);
  const withBias = o.bias !== false;
  if (withBias) b.param(bPath, [nOut], o.biasInit ?? torchDefaultBias(nIn));
  return (ctx, x) => {
    const y = x.matmul(ctx.param(wPath), { transB: true });
    return withBias ? y.add(ctx.param(bPath)) : y;
  };
}
