import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';
import { sign } from './sign.js';

/** Element-wise |x| (ONNX Abs). VJP: g·sign(x) (0 at x = 0, as PyTorch). */
export const absOp = defineUnary({
  name: 'abs',
  onnx: 'Abs',
  accepts: 'numeric',
  f: (x) => Math.abs(x),
  vjp: (args) => [mul(ct0(args), sign(args.inputs[0]!))],
});

/** Element-wise |x| (ONNX Abs). VJP: g·sign(x) (0 at x = 0, as PyTorch). */
export function abs(x: Tensor): Tensor {
  return apply1(absOp, [asTensor('abs', x, 'float32')], {});
}
