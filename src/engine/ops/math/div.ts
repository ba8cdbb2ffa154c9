import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';
import { mul } from './mul.js';
import { neg } from './neg.js';

/** Element-wise a / b (broadcasting; ONNX Div; integers truncate toward zero). VJP: (g/b, −g·a/b²). */
export const divOp = defineBinary({
  name: 'div',
  onnx: 'Div',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => x / y,
  vjp: (args) => {
    const g = ct0(args);
    const [a, b] = args.inputs as [Tensor, Tensor];
    return [div(g, b), neg(div(mul(g, a), mul(b, b)))];
  },
});

/** a / b, broadcasting. */
export function div(a: TensorLike, b: TensorLike): Tensor {
  return apply1(divOp, operandPair('div', a, b), {});
}
