/**
 * The pluggable loss of a compiled train step: (logits [N, C], targets, extras) → { loss, terms }. Targets are
 * hard labels (int32 [N]) or soft targets (float32 [N, C], e.g. mixup or label smoothing); extras are the
 * step's extra inputs by name (mixup λ, permutations, per-sample weights, …). `loss` is the scalar that is
 * differentiated; `terms` are scalar diagnostics reported per step (e.g. { ce, ece }).
 */
import { softmaxCrossEntropy, type Tensor } from '../../engine/index.js';
import { InvalidArgumentError } from '../../util/errors.js';
import type { TensorTree } from '../../nn/tree.js';

/** Output of a loss function: the scalar to minimise and named scalar terms. */
export interface LossOutput {
  readonly loss: Tensor;
  readonly terms: Readonly<Record<string, Tensor>>;
}

/** A loss function traced into the train step. */
export type LossFn = (logits: Tensor, targets: Tensor, extras: TensorTree) => LossOutput;

/**
 * Mean softmax cross-entropy: hard labels y → (1/N) Σ_i −log softmax(z_i)_{y_i} (fused, stable for |z| ~ 1e3);
 * soft targets q → (1/N) Σ_i Σ_k −q_ik log softmax(z_i)_k (METHODS.md: CE / soft-label CE).
 */
export const crossEntropy: LossFn = (logits, targets) => {
  if (targets.dtype === 'int32' || targets.dtype === 'int64') {
    const { loss } = softmaxCrossEntropy(logits, targets);
    return { loss, terms: { ce: loss } };
  }
  if (targets.shape.join(',') !== logits.shape.join(',')) {
    throw new InvalidArgumentError('targets', `integer labels [N] or soft targets [${logits.shape.join(', ')}]`, `${targets.dtype}[${targets.shape.join(', ')}]`);
  }
  const loss = targets.mul(logits.logSoftmax(1)).sum(1).mean().neg();
  return { loss, terms: { ce: loss } };
};
