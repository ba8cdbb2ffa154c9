import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, defineUnary } from './elementwise.js';

/** Element-wise ⌊x⌋ (ONNX Floor). Piecewise constant: no gradient flows. */
export const floorOp = defineUnary({
  name: 'floor',
  onnx: 'Floor',
  accepts: 'float',
  f: (x) => Math.floor(x),
});

/** Element-wise ⌊x⌋ (ONNX Floor). Piecewise constant: no gradient flows. */
export function floor(x: Tensor): Tensor {
  return apply1(floorOp, [asTensor('floor', x, 'float32')], {});
}
