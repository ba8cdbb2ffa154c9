import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { div } from './div.js';
import { mul } from './mul.js';

/** Element-wise √x (ONNX Sqrt). VJP: g/(2y). */
export const sqrtOp = defineUnary({
  name: 'sqrt',
  onnx: 'Sqrt',
  accepts: 'float',
  f: (x) => Math.sqrt(x),
  vjp: (args) => [div(ct0(args), mul(args.outputs[0]!, 2))],
});

/** Element-wise √x (ONNX Sqrt). VJP: g/(2y). */
export function sqrt(x: Tensor): Tensor {
  return apply1(sqrtOp, [asTensor('sqrt', x, 'float32')], {});
}
