import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';
import { neg } from './neg.js';

/** Element-wise a − b (broadcasting; ONNX Sub). VJP: (g, −g). */
export const subOp = defineBinary({
  name: 'sub',
  onnx: 'Sub',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => x - y,
  vjp: (args) => {
    const g = ct0(args);
    return [g, neg(g)];
  },
});

/** a − b, broadcasting. */
export function sub(a: TensorLike, b: TensorLike): Tensor {
  return apply1(subOp, operandPair('sub', a, b), {});
}
