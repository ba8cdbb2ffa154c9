import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';

/** Element-wise −x (ONNX Neg). VJP: −g. */
export const negOp = defineUnary({
  name: 'neg',
  onnx: 'Neg',
  accepts: 'numeric',
  f: (x) => -x,
  vjp: (args) => [neg(ct0(args))],
});

/** Element-wise −x (ONNX Neg). VJP: −g. */
export function neg(x: Tensor): Tensor {
  return apply1(negOp, [asTensor('neg', x, 'float32')], {});
}
