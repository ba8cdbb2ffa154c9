import { apply } from '../../ir/apply.js';
import { isInteger } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { logSoftmaxFibre, mapAlongAxis } from '../../reference/kernels.js';
import { add } from '../math/add.js';
import { checkDType } from '../math/elementwise.js';
import { exp } from '../math/exp.js';
import { mul } from '../math/mul.js';
import { oneHot } from '../shape/one-hot.js';
import { reshape } from '../shape/reshape.js';
import { sub } from '../math/sub.js';
import { sum } from './sum.js';

/** How per-example losses are combined. */
export type Reduction = 'mean' | 'sum' | 'none';

/** Reduction of the softmax-cross-entropy primitive. */
export interface SoftmaxCrossEntropyAttrs {
  readonly reduction: Reduction;
}

/**
 * Fused softmax cross-entropy: logits z [N, C], integer labels y [N] (int32/int64, in [0, C)) → (loss,
 * logProb) with logProb = log softmax(z) [N, C] and loss_i = −logProb_{i,y_i}, reduced by mean (scalar),
 * sum (scalar) or none ([N]). Lowered to ONNX SoftmaxCrossEntropyLoss with its log_prob output (the fast path,
 * ENGINE-NOTES). VJP: dz = (exp(logProb) − onehot(y)) · ĝ_i with ĝ_i = g/N (mean), g (sum) or g_i (none),
 * plus, if logProb itself is used downstream with cotangent h, h − exp(logProb) · Σ_k h.
 */
export const softmaxCrossEntropyOp: Primitive<SoftmaxCrossEntropyAttrs> = {
  name: 'softmaxCrossEntropy',
  infer([z, y], { reduction }) {
    checkDType('softmaxCrossEntropy', z!.dtype, 'float');
    if (!isInteger(y!.dtype)) shapeError('softmaxCrossEntropy', `labels must be int32 or int64, got ${y!.dtype}`);
    if (z!.shape.length !== 2 || y!.shape.length !== 1 || y!.shape[0] !== z!.shape[0]) {
      shapeError('softmaxCrossEntropy', `logits [N,C] and labels [N] expected, got ${formatShape(z!.shape)} and ${formatShape(y!.shape)}`);
    }
    const loss = reduction === 'none' ? [z!.shape[0]!] : [];
    return [
      { dtype: z!.dtype, shape: loss },
      { dtype: z!.dtype, shape: z!.shape },
    ];
  },
  emit(node, ctx) {
    ctx.node('SoftmaxCrossEntropyLoss', node.inputs, node.outputs, { reduction: { type: 'string', value: node.attrs.reduction } });
  },
  vjp(args) {
    const [z, y] = args.inputs as [Tensor, Tensor];
    const [gLoss, gLogProb] = args.cotangents;
    const logProb = args.outputs[1]!;
    const p = exp(logProb);
    const [n, c] = z.shape as [number, number];
    let dz: Tensor | null = null;
    if (gLoss) {
      const scale = args.attrs.reduction === 'none' ? reshape(gLoss, [n, 1]) : args.attrs.reduction === 'mean' ? mul(gLoss, 1 / n) : gLoss;
      dz = mul(sub(p, oneHot(y, c, z.dtype)), scale);
    }
    if (gLogProb) {
      const part = sub(gLogProb, mul(p, sum(gLogProb, 1, true)));
      dz = dz ? add(dz, part) : part;
    }
    return [dz, null];
  },
  reference([z, y], { reduction }) {
    const [n, c] = z!.shape as [number, number];
    const logProb = mapAlongAxis(z!, 1, logSoftmaxFibre);
    const losses = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const label = y!.data[i]!;
      if (!(label >= 0 && label < c)) throw new RangeError(`softmaxCrossEntropy: label ${label} of example ${i} is outside [0, ${c})`);
      losses[i] = -logProb[i * c + label]!;
    }
    const total = losses.reduce((a, b) => a + b, 0);
    const loss = reduction === 'none' ? losses : Float64Array.of(reduction === 'mean' ? total / n : total);
    return [
      { dtype: z!.dtype, shape: reduction === 'none' ? [n] : [], data: loss },
      { dtype: z!.dtype, shape: z!.shape, data: logProb },
    ];
  },
  formatAttrs: (a) => `reduction=${a.reduction}`,
};

/** Result of `softmaxCrossEntropy`. */
export interface SoftmaxCrossEntropyResult {
  /** Mean/sum (scalar) or per-example ([N]) cross-entropy −log p_y. */
  readonly loss: Tensor;
  /** log softmax of the logits, [N, C] (free: ORT computes it anyway). */
  readonly logProb: Tensor;
}

/** Softmax cross-entropy of logits [N, C] against integer labels [N] (default reduction: mean). */
export function softmaxCrossEntropy(logits: Tensor, labels: Tensor, options: { reduction?: Reduction } = {}): SoftmaxCrossEntropyResult {
  const reduction = options.reduction ?? 'mean';
  if (reduction !== 'mean' && reduction !== 'sum' && reduction !== 'none') {
    shapeError('softmaxCrossEntropy', `reduction must be "mean", "sum" or "none", got ${JSON.stringify(reduction)}`);
  }
  const [loss, logProb] = apply(softmaxCrossEntropyOp, [logits, labels], { reduction }) as [Tensor, Tensor];
  return { loss, logProb };
}
