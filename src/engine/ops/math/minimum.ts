import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';
import { tieSplit } from './maximum.js';

/** Element-wise min(a, b) (broadcasting; ONNX Min). VJP: g to the smaller operand, split ½/½ on ties. */
export const minimumOp = defineBinary({
  name: 'minimum',
  onnx: 'Min',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN : Math.min(x, y)),
  vjp: (args) => tieSplit(args.inputs as [Tensor, Tensor], ct0(args), false),
});

/** min(a, b), broadcasting. */
export function minimum(a: TensorLike, b: TensorLike): Tensor {
  return apply1(minimumOp, operandPair('minimum', a, b), {});
}
