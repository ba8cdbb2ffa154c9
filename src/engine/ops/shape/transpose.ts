import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, shapeSize, stridesOf } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';

/** Axis permutation: output axis i is input axis perm[i]. */
export interface TransposeAttrs {
  readonly perm: readonly number[];
}

/** Permute axes (ONNX Transpose). VJP: transpose by the inverse permutation. */
export const transposeOp: Primitive<TransposeAttrs> = {
  name: 'transpose',
  infer: ([x], { perm }) => [{ dtype: x!.dtype, shape: perm.map((p) => x!.shape[p]!) }],
  emit: (node, ctx) => ctx.node('Transpose', node.inputs, node.outputs, { perm: { type: 'ints', value: node.attrs.perm } }),
  vjp: (args) => {
    const inv = new Array<number>(args.attrs.perm.length);
    args.attrs.perm.forEach((p, i) => (inv[p] = i));
    return [transpose(ct0(args), inv)];
  },
  reference([x], { perm }) {
    const shape = perm.map((p) => x!.shape[p]!);
    const inStrides = stridesOf(x!.shape);
    const n = shapeSize(shape);
    const out = new Float64Array(n);
    const counter = new Array<number>(shape.length).fill(0);
    for (let k = 0; k < n; k++) {
      let src = 0;
      for (let i = 0; i < shape.length; i++) src += counter[i]! * inStrides[perm[i]!]!;
      out[k] = x!.data[src]!;
      for (let i = shape.length - 1; i >= 0; i--) {
        if (++counter[i]! < shape[i]!) break;
        counter[i] = 0;
      }
    }
    return [{ dtype: x!.dtype, shape, data: out }];
  },
  formatAttrs: (a) => `perm=[${a.perm.join(',')}]`,
};

/** Permute axes by `perm` (default: reverse all axes). Identity permutations return x. */
export function transpose(x: Tensor, perm?: readonly number[]): Tensor {
  const p = perm ?? Array.from({ length: x.rank }, (_, i) => x.rank - 1 - i);
  const valid = p.length === x.rank && [...p].sort((a, b) => a - b).every((v, i) => v === i);
  if (!valid) shapeError('transpose', `perm ${JSON.stringify(p)} is not a permutation of the axes of ${formatShape(x.shape)}`);
  if (p.every((v, i) => v === i)) return x;
  return apply1(transposeOp, [x], { perm: p });
}
