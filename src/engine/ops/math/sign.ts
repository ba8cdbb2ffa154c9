import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, defineUnary } from './elementwise.js';

/** Element-wise sign: −1, 0 or 1 (ONNX Sign). Piecewise constant: no gradient flows. */
export const signOp = defineUnary({
  name: 'sign',
  onnx: 'Sign',
  accepts: 'numeric',
  f: (x) => (x > 0 ? 1 : x < 0 ? -1 : x === 0 ? 0 : NaN),
});

/** Element-wise sign: −1, 0 or 1 (ONNX Sign). Piecewise constant: no gradient flows. */
export function sign(x: Tensor): Tensor {
  return apply1(signOp, [asTensor('sign', x, 'float32')], {});
}
