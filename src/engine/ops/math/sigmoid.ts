import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';
import { sub } from './sub.js';

/** Element-wise logistic σ(x) = 1/(1 + e^−x) (ONNX Sigmoid; reference evaluated stably for both signs). VJP: g·y·(1 − y). */
export const sigmoidOp = defineUnary({
  name: 'sigmoid',
  onnx: 'Sigmoid',
  accepts: 'float',
  f: (x) => (x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x))),
  vjp: (args) => {
    const y = args.outputs[0]!;
    return [mul(ct0(args), mul(y, sub(1, y)))];
  },
});

/** Element-wise logistic σ(x) = 1/(1 + e^−x) (ONNX Sigmoid; reference evaluated stably for both signs). VJP: g·y·(1 − y). */
export function sigmoid(x: Tensor): Tensor {
  return apply1(sigmoidOp, [asTensor('sigmoid', x, 'float32')], {});
}
