import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';
import { expand } from '../shape/expand.js';
import { mul } from '../math/mul.js';
import { defineReduction, keptShape, reduce } from './reduce.js';
import { reshape } from '../shape/reshape.js';

/** Arithmetic mean over axes (ONNX ReduceMean). VJP: g/count broadcast back over the reduced axes. */
export const meanOp = defineReduction({
  name: 'mean',
  onnx: 'ReduceMean',
  init: 0,
  step: (acc, v) => acc + v,
  finish: (acc, count) => acc / count,
  vjp: (args) => {
    const x = args.inputs[0]!;
    const count = args.attrs.axes.reduce((acc, a) => acc * x.shape[a]!, 1);
    return [expand(reshape(mul(ct0(args), 1 / count), keptShape(x, args.attrs)), x.shape)];
  },
});

/** Mean over `axes` (one axis, a list, or all when omitted). */
export function mean(x: Tensor, axes?: number | readonly number[], keepdims = false): Tensor {
  return reduce(meanOp, x, axes, keepdims);
}
