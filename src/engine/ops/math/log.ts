import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { div } from './div.js';

/** Element-wise natural log (ONNX Log; log 0 = −∞). VJP: g/x. */
export const logOp = defineUnary({
  name: 'log',
  onnx: 'Log',
  accepts: 'float',
  f: (x) => Math.log(x),
  vjp: (args) => [div(ct0(args), args.inputs[0]!)],
});

/** Element-wise natural log (ONNX Log; log 0 = −∞). VJP: g/x. */
export function log(x: Tensor): Tensor {
  return apply1(logOp, [asTensor('log', x, 'float32')], {});
}
