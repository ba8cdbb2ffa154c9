import type { Tensor } from '../../ir/tensor.js';
import type { ReduceAttrs } from './reduce.js';
import type { VjpArgs } from '../../ir/primitive.js';
import { cast } from '../logic/cast.js';
import { div } from '../math/div.js';
import { ct0 } from '../math/elementwise.js';
import { equal } from '../logic/equal.js';
import { expand } from '../shape/expand.js';
import { mul } from '../math/mul.js';
import { defineReduction, keptShape, reduce } from './reduce.js';
import { reshape } from '../shape/reshape.js';
import { sum } from './sum.js';

/** Maximum over axes (ONNX ReduceMax; NaN propagates). VJP: g shared equally among the tied maxima (tinygrad). */
export const maxOp = defineReduction({
  name: 'max',
  onnx: 'ReduceMax',
  init: -Infinity,
  step: (acc, v) => (Number.isNaN(acc) ? acc : v > acc || Number.isNaN(v) ? v : acc),
  vjp: (args) => [extremumVjp(args)],
});

/** Cotangent of max/min: mask of the elements equal to the extremum, divided by the number of ties. */
export function extremumVjp(args: VjpArgs<ReduceAttrs>): Tensor {
  const x = args.inputs[0]!;
  const kept = keptShape(x, args.attrs);
  const hit = cast(equal(x, expand(reshape(args.outputs[0]!, kept), x.shape)), x.dtype);
  const ties = sum(hit, args.attrs.axes, true);
  return mul(div(hit, ties), expand(reshape(ct0(args), kept), x.shape));
}

/** Maximum over `axes` (one axis, a list, or all when omitted). */
export function max(x: Tensor, axes?: number | readonly number[], keepdims = false): Tensor {
  return reduce(maxOp, x, axes, keepdims);
}
