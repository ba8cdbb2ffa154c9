import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { broadcastShapes, formatShape, sameShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { broadcastIndexMap } from '../../reference/kernels.js';
import { ct0 } from '../math/elementwise.js';

/** Target shape of expand. */
export interface ExpandAttrs {
  readonly shape: readonly number[];
}

/**
 * Broadcast x to `shape` (ONNX Expand). VJP: the cotangent itself — the autodiff driver sums it back to x's
 * shape, as it does for every broadcasting op.
 */
export const expandOp: Primitive<ExpandAttrs> = {
  name: 'expand',
  infer([x], { shape }) {
    const out = broadcastShapes('expand', x!.shape, shape);
    if (!sameShape(out, shape)) shapeError('expand', `cannot expand ${formatShape(x!.shape)} to ${formatShape(shape)}`);
    return [{ dtype: x!.dtype, shape }];
  },
  emit: (node, ctx) => ctx.node('Expand', [node.inputs[0]!, ctx.int64s(node.attrs.shape)], node.outputs),
  vjp: (args) => [ct0(args)],
  reference([x], { shape }) {
    const map = broadcastIndexMap(x!.shape, shape);
    const out = new Float64Array(map.length);
    for (let k = 0; k < out.length; k++) out[k] = x!.data[map[k]!]!;
    return [{ dtype: x!.dtype, shape, data: out }];
  },
  formatAttrs: (a) => formatShape(a.shape),
};

/** Broadcast x to `shape` (NumPy rules). Returns x when the shape is unchanged. */
export function expand(x: Tensor, shape: readonly number[]): Tensor {
  if (sameShape(x.shape, shape)) return x;
  return apply1(expandOp, [x], { shape: [...shape] });
}
