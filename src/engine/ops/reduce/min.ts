import type { Tensor } from '../../ir/tensor.js';
import { extremumVjp } from './max.js';
import { defineReduction, reduce } from './reduce.js';

/** Minimum over axes (ONNX ReduceMin; NaN propagates). VJP: g shared equally among the tied minima. */
export const minOp = defineReduction({
  name: 'min',
  onnx: 'ReduceMin',
  init: Infinity,
  step: (acc, v) => (Number.isNaN(acc) ? acc : v < acc || Number.isNaN(v) ? v : acc),
  vjp: (args) => [extremumVjp(args)],
});

/** Minimum over `axes` (one axis, a list, or all when omitted). */
export function min(x: Tensor, axes?: number | readonly number[], keepdims = false): Tensor {
  return reduce(minOp, x, axes, keepdims);
}
