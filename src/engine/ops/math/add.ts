import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';

/** Element-wise a + b (NumPy broadcasting; ONNX Add). VJP: (g, g), un-broadcast by the driver. */
export const addOp = defineBinary({
  name: 'add',
  onnx: 'Add',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => x + y,
  vjp: (args) => {
    const g = ct0(args);
    return [g, g];
  },
});

/** a + b, broadcasting; numbers become constants of the other operand's dtype. */
export function add(a: TensorLike, b: TensorLike): Tensor {
  return apply1(addOp, operandPair('add', a, b), {});
}
