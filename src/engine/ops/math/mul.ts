import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';

/** Element-wise a · b (broadcasting; ONNX Mul). VJP: (g·b, g·a). */
export const mulOp = defineBinary({
  name: 'mul',
  onnx: 'Mul',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => x * y,
  vjp: (args) => {
    const g = ct0(args);
    const [a, b] = args.inputs as [Tensor, Tensor];
    return [mul(g, b), mul(g, a)];
  },
});

/** a · b, broadcasting. */
export function mul(a: TensorLike, b: TensorLike): Tensor {
  return apply1(mulOp, operandPair('mul', a, b), {});
}
