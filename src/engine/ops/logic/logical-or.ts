import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { defineBinary, operandPair } from '../math/elementwise.js';

/** Element-wise logical x||y of two bool tensors (broadcasting; ONNX Or). */
export const logicalOrOp = defineBinary({ name: 'logicalOr', onnx: 'Or', accepts: 'bool', output: 'bool', f: (x, y) => (x || y ? 1 : 0) });

/** Logical x||y of bool tensors. */
export function logicalOr(a: Tensor, b: Tensor): Tensor {
  return apply1(logicalOrOp, operandPair('logicalOr', a, b), {});
}
