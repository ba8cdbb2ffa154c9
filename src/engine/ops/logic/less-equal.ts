import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { defineBinary, operandPair } from '../math/elementwise.js';

/** Element-wise comparison x<=y → bool (broadcasting; ONNX LessOrEqual). Not differentiable. */
export const lessEqualOp = defineBinary({ name: 'lessEqual', onnx: 'LessOrEqual', accepts: 'numeric', output: 'bool', f: (x, y) => (x <= y ? 1 : 0) });

/** x<=y element-wise, as a bool tensor. */
export function lessEqual(a: TensorLike, b: TensorLike): Tensor {
  return apply1(lessEqualOp, operandPair('lessEqual', a, b), {});
}
