import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';
import { sub } from './sub.js';

/** Element-wise tanh (ONNX Tanh). VJP: g·(1 − y²). */
export const tanhOp = defineUnary({
  name: 'tanh',
  onnx: 'Tanh',
  accepts: 'float',
  f: (x) => Math.tanh(x),
  vjp: (args) => {
    const y = args.outputs[0]!;
    return [mul(ct0(args), sub(1, mul(y, y)))];
  },
});

/** Element-wise tanh (ONNX Tanh). VJP: g·(1 − y²). */
export function tanh(x: Tensor): Tensor {
  return apply1(tanhOp, [asTensor('tanh', x, 'float32')], {});
}
