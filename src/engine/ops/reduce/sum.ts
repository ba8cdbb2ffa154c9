import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';
import { expand } from '../shape/expand.js';
import { defineReduction, keptShape, reduce } from './reduce.js';
import { reshape } from '../shape/reshape.js';

/** Σ over axes (ONNX ReduceSum). VJP: the cotangent broadcast back over the reduced axes. */
export const sumOp = defineReduction({
  name: 'sum',
  onnx: 'ReduceSum',
  init: 0,
  step: (acc, v) => acc + v,
  vjp: (args) => {
    const x = args.inputs[0]!;
    return [expand(reshape(ct0(args), keptShape(x, args.attrs)), x.shape)];
  },
});

/** Sum over `axes` (one axis, a list, or all when omitted), optionally keeping reduced axes as size 1. */
export function sum(x: Tensor, axes?: number | readonly number[], keepdims = false): Tensor {
  return reduce(sumOp, x, axes, keepdims);
}
