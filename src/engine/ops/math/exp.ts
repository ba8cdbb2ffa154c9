import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';

/** Element-wise eˣ (ONNX Exp). VJP: g·y. */
export const expOp = defineUnary({
  name: 'exp',
  onnx: 'Exp',
  accepts: 'float',
  f: (x) => Math.exp(x),
  vjp: (args) => [mul(ct0(args), args.outputs[0]!)],
});

/** Element-wise eˣ (ONNX Exp). VJP: g·y. */
export function exp(x: Tensor): Tensor {
  return apply1(expOp, [asTensor('exp', x, 'float32')], {});
}
