import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { defineBinary, operandPair } from '../math/elementwise.js';

/** Element-wise comparison x===y → bool (broadcasting; ONNX Equal). Not differentiable. */
export const equalOp = defineBinary({ name: 'equal', onnx: 'Equal', accepts: 'any', output: 'bool', f: (x, y) => (x === y ? 1 : 0) });

/** x===y element-wise, as a bool tensor. */
export function equal(a: TensorLike, b: TensorLike): Tensor {
  return apply1(equalOp, operandPair('equal', a, b), {});
}
