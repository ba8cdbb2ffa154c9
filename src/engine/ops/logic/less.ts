import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { defineBinary, operandPair } from '../math/elementwise.js';

/** Element-wise comparison x<y → bool (broadcasting; ONNX Less). Not differentiable. */
export const lessOp = defineBinary({ name: 'less', onnx: 'Less', accepts: 'numeric', output: 'bool', f: (x, y) => (x < y ? 1 : 0) });

/** x<y element-wise, as a bool tensor. */
export function less(a: TensorLike, b: TensorLike): Tensor {
  return apply1(lessOp, operandPair('less', a, b), {});
}
