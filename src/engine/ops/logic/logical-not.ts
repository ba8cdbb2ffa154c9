import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, defineUnary } from '../math/elementwise.js';

/** Element-wise logical not of a bool tensor (ONNX Not). */
export const logicalNotOp = defineUnary({
  name: 'logicalNot',
  onnx: 'Not',
  accepts: 'bool',
  f: (x) => (x ? 0 : 1),
});

/** Element-wise logical not of a bool tensor (ONNX Not). */
export function logicalNot(x: Tensor): Tensor {
  return apply1(logicalNotOp, [asTensor('logicalNot', x, 'float32')], {});
}
