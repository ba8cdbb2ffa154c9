import { apply1 } from '../../ir/apply.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { formatShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { checkDType } from '../math/elementwise.js';
import { mul } from '../math/mul.js';
import { reshape } from '../shape/reshape.js';
import { sum } from '../reduce/sum.js';

/**
 * Per-channel affine map y[n, c, …] = a_c · x[n, c, …] + b_c of x [N, C, …] with a, b [C], in ONE pass:
 * lowered to an inference-mode BatchNormalization with mean −0, variance ½ and ε = ½, so that
 * a·(x + 0)/√(½ + ½) + b is exactly a·x + b. Mul + Add with broadcast [C, 1, …] vectors take two passes; at
 * [128, 16, 1024] float32 one thread the pair took 0.94 ms CPU, this 0.50 ms (issue 24 notebook). Batch-norm's
 * backward uses it for its b·x + c term. VJP: dx = a·g, da = Σ g·x, db = Σ g (sums over every axis but 1).
 */
export const channelAffineOp: Primitive<Record<string, never>> = {
  name: 'channelAffine',
  infer([x, a, b]) {
    checkDType('channelAffine', x!.dtype, 'float');
    if (x!.shape.length < 2) shapeError('channelAffine', `input must have rank ≥ 2 ([N, C, ...]), got ${formatShape(x!.shape)}`);
    const c = x!.shape[1]!;
    for (const [what, t] of [
      ['scale', a!],
      ['bias', b!],
    ] as [string, TensorType][]) {
      if (t.dtype !== x!.dtype || t.shape.length !== 1 || t.shape[0] !== c) {
        shapeError('channelAffine', `${what} must be ${x!.dtype}[${c}] for input ${formatShape(x!.shape)}, got ${t.dtype}${formatShape(t.shape)}`);
      }
    }
    return [{ dtype: x!.dtype, shape: x!.shape }];
  },
  emit(node, ctx) {
    const x = node.inputTypes[0]!;
    const c = x.shape[1]!;
    // Mean −0 and variance ½ with ε = ½ (√(½ + ½) = 1 exactly): contents no training-mode BatchNormalization
    // initializer has (those hold positive integers, batch-norm-training.ts). ORT merges initializers of equal
    // contents, and a training node's running-stat buffers are not safe to share: a variance of 1 (the content
    // of the first training node's mean initializer) gave NaN batch-norm gradients in the op table.
    const meanZero = ctx.constant(x.dtype, [c], new Float64Array(c).fill(-0));
    const varHalf = ctx.constant(x.dtype, [c], new Float64Array(c).fill(0.5));
    ctx.node('BatchNormalization', [...node.inputs, meanZero, varHalf], node.outputs, { epsilon: { type: 'float', value: 0.5 } });
  },
  vjp(args) {
    const [x, a] = args.inputs as [Tensor, Tensor];
    const g = args.cotangents[0];
    if (!g) return [null, null, null];
    const c = x.shape[1]!;
    const colShape = [1, c, ...x.shape.slice(2).map(() => 1)];
    const axes = [0, ...x.shape.slice(2).map((_, i) => i + 2)];
    return [mul(g, reshape(a, colShape)), reshape(sum(mul(g, x), axes), [c]), reshape(sum(g, axes), [c])];
  },
  reference([x, a, b]) {
    const c = x!.shape[1]!;
    const inner = shapeSize(x!.shape.slice(2));
    const y = new Float64Array(x!.data.length);
    for (let k = 0; k < y.length; k++) {
      const ch = Math.floor(k / inner) % c;
      y[k] = a!.data[ch]! * x!.data[k]! + b!.data[ch]!;
    }
    return [{ dtype: x!.dtype, shape: x!.shape, data: y }];
  },
  formatAttrs: () => '',
};

/** y = a_c · x + b_c per channel (axis 1) of x [N, C, …], a and b [C]: one ORT pass (see `channelAffineOp`). */
export function channelAffine(x: Tensor, a: Tensor, b: Tensor): Tensor {
  return apply1(channelAffineOp, [x, a, b], {});
}
