/**
 * Batch normalisation layer (Ioffe & Szegedy 2015; PyTorch nn.BatchNorm2d semantics) over x [N, C, ...]:
 * parameters `<path>.weight` γ [C] (init 1) and `<path>.bias` β [C] (init 0); buffers `<path>.running_mean`
 * (init 0) and `<path>.running_var` (init 1). Training: y = γ (x − μ_B)/√(σ²_B + ε) + β with the biased batch
 * variance, running statistics updated rm' = (1 − m) rm + m μ_B, rv' = (1 − m) rv + m σ²_B · M/(M − 1)
 * (M = N·H·W); inference: the running statistics. Defaults ε = 1e-5, m = 0.1. The engine's fused op is used.
 */
import { batchNorm as batchNormOp, type Tensor } from '../engine/index.js';
import { requireNumber } from '../util/errors.js';
import type { ForwardContext } from './forward-context.js';
import { onesInit, zerosInit } from './init.js';
import { type DeclarationBuilder, positiveInt } from './model.js';
import { joinPath } from './tree.js';

/** Options of `batchNorm`. */
export interface BatchNormLayerOptions {
  readonly channels: number;
  /** ε (default 1e-5). */
  readonly epsilon?: number;
  /** Running-average momentum (PyTorch convention, default 0.1). */
  readonly momentum?: number;
  /** Initial γ (default 1; residual branches sometimes start at 0). */
  readonly weightInit?: 'ones' | 'zeros';
}

/** Declare γ, β, running mean and variance under `path`; returns the layer's apply function. */
export function batchNorm(b: DeclarationBuilder, path: string, o: BatchNormLayerOptions): (ctx: ForwardContext, x: Tensor) => Tensor {
  const c = positiveInt(`${path}.channels`, o.channels);
  const epsilon = requireNumber(`${path}.epsilon`, o.epsilon ?? 1e-5, { min: 0, exclusiveMin: true });
  const momentum = requireNumber(`${path}.momentum`, o.momentum ?? 0.1, { min: 0, max: 1 });
  const p = {
    weight: joinPath(path, 'weight'),
    bias: joinPath(path, 'bias'),
    mean: joinPath(path, 'running_mean'),
    var: joinPath(path, 'running_var'),
  };
  b.param(p.weight, [c], o.weightInit === 'zeros' ? zerosInit : onesInit);
  b.param(p.bias, [c], zerosInit);
  b.buffer(p.mean, [c], zerosInit);
  b.buffer(p.var, [c], onesInit);
  return (ctx, x) => {
    const r = batchNormOp(x, ctx.param(p.weight), ctx.param(p.bias), ctx.buffer(p.mean), ctx.buffer(p.var), { training: ctx.training, momentum, epsilon });
    if (ctx.training) {
      ctx.setBuffer(p.mean, r.runningMean);
      ctx.setBuffer(p.var, r.runningVar);
    }
    return r.y;
  };
}
