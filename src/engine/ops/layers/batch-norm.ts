import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { add } from '../math/add.js';
import { type BatchStats, batchNormTraining } from './batch-norm-training.js';
import { channelAffine } from './channel-affine.js';
import { div } from '../math/div.js';
import { mean as reduceMean } from '../reduce/mean.js';
import { mul } from '../math/mul.js';
import { reshape } from '../shape/reshape.js';
import { sqrt } from '../math/sqrt.js';
import { stopGradient } from '../stop-gradient.js';
import { sub } from '../math/sub.js';

/** Options of `batchNorm`. */
export interface BatchNormOptions {
  /** Training mode (batch statistics, running statistics updated) or inference (running statistics used). */
  readonly training: boolean;
  /** Weight of the new batch statistic in the running average (PyTorch convention, default 0.1). */
  readonly momentum?: number;
  /** ε added to the variance (default 1e-5). */
  readonly epsilon?: number;
}

/** Output of `batchNorm`: the normalised tensor and the (updated, in training) running statistics. */
export interface BatchNormResult {
  readonly y: Tensor;
  readonly runningMean: Tensor;
  readonly runningVar: Tensor;
}

/**
 * Batch normalisation with explicit state (Equinox style: the mode is an argument, the running statistics
 * go in and come out). x [N, C, ...]; scale, bias, runningMean, runningVar [C].
 * Training: y from the batch statistics (fused primitive); running statistics updated with PyTorch semantics
 * rm' = (1 − m)·rm + m·μ, rv' = (1 − m)·rv + m·σ²·M/(M − 1) (unbiased), without gradient.
 * Inference: y = γ (x − rm)/√(rv + ε) + β.
 */
export function batchNorm(x: Tensor, scale: Tensor, bias: Tensor, runningMean: Tensor, runningVar: Tensor, options: BatchNormOptions): BatchNormResult {
  const epsilon = options.epsilon ?? 1e-5;
  if (!options.training) return { y: batchNormInference(x, scale, bias, runningMean, runningVar, epsilon), runningMean, runningVar };
  const stats = batchNormTraining(x, scale, bias, epsilon);
  const count = x.size / (x.shape[1] ?? 1);
  const updated = updateRunningStats(runningMean, runningVar, stats, count, options.momentum ?? 0.1);
  return { y: stats.y, ...updated };
}

/**
 * y = γ (x − rm)/√(rv + ε) + β per channel of x [N, C, ...], computed as y = k·x + (β − k·rm) with
 * k = γ/√(rv + ε): one `channelAffine` pass over x instead of Sub, Mul and Add (issue 24 notebook).
 */
export function batchNormInference(x: Tensor, scale: Tensor, bias: Tensor, runningMean: Tensor, runningVar: Tensor, epsilon = 1e-5): Tensor {
  const c = x.shape[1];
  if (c === undefined) shapeError('batchNormInference', 'input must have rank ≥ 2');
  const k = div(scale, sqrt(add(runningVar, epsilon)));
  return channelAffine(x, k, sub(bias, mul(k, runningMean)));
}

/**
 * PyTorch running-statistics update from batch statistics over `count` = N·H·W elements per channel:
 * rm' = (1 − m) rm + m μ, rv' = (1 − m) rv + m σ² · count/(count − 1). No gradient flows.
 */
export function updateRunningStats(
  runningMean: Tensor,
  runningVar: Tensor,
  stats: Pick<BatchStats, 'mean' | 'variance'>,
  count: number,
  momentum: number,
): { runningMean: Tensor; runningVar: Tensor } {
  if (!(momentum >= 0 && momentum <= 1)) shapeError('batchNorm', `momentum must be in [0, 1], got ${momentum}`);
  const unbiased = count > 1 ? count / (count - 1) : 1;
  const mu = stopGradient(stats.mean);
  const v = stopGradient(stats.variance);
  return {
    runningMean: add(mul(runningMean, 1 - momentum), mul(mu, momentum)),
    runningVar: add(mul(runningVar, 1 - momentum), mul(v, momentum * unbiased)),
  };
}

/**
 * Training-mode batch normalisation built from ReduceMean primitives only (no fused BatchNormalization):
 * the fallback path ENGINE-NOTES asks to keep, against which the fused primitive is tested.
 */
export function batchNormTrainingComposite(x: Tensor, scale: Tensor, bias: Tensor, epsilon = 1e-5): BatchStats {
  const c = x.shape[1]!;
  const axes = [0, ...x.shape.slice(2).map((_, i) => i + 2)];
  const mu = reduceMean(x, axes, true);
  const centered = sub(x, mu);
  const variance = reduceMean(mul(centered, centered), axes, true);
  const col = (t: Tensor) => reshape(t, [c, ...x.shape.slice(2).map(() => 1)]);
  const y = add(mul(div(centered, sqrt(add(variance, epsilon))), col(scale)), col(bias));
  return { y, mean: reshape(mu, [c]), variance: reshape(variance, [c]) };
}
