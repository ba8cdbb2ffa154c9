import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';
import { mul } from './mul.js';
import { add } from './add.js';
import { cast } from '../logic/cast.js';
import { greater } from '../logic/greater.js';
import { equal } from '../logic/equal.js';

/** Element-wise max(a, b) (broadcasting; ONNX Max). VJP: g to the larger operand, split ½/½ on ties. */
export const maximumOp = defineBinary({
  name: 'maximum',
  onnx: 'Max',
  accepts: 'numeric',
  output: 'same',
  f: (x, y) => (Number.isNaN(x) || Number.isNaN(y) ? NaN : Math.max(x, y)),
  vjp: (args) => tieSplit(args.inputs as [Tensor, Tensor], ct0(args), true),
});

/** Shared by maximum/minimum: cotangents to the winning operand, half to each on ties. */
export function tieSplit([a, b]: [Tensor, Tensor], g: Tensor, larger: boolean): [Tensor, Tensor] {
  const tie = mul(cast(equal(a, b), g.dtype), 0.5);
  const aWins = add(cast(larger ? greater(a, b) : greater(b, a), g.dtype), tie);
  const bWins = add(cast(larger ? greater(b, a) : greater(a, b), g.dtype), tie);
  return [mul(g, aWins), mul(g, bWins)];
}

/** max(a, b), broadcasting. */
export function maximum(a: TensorLike, b: TensorLike): Tensor {
  return apply1(maximumOp, operandPair('maximum', a, b), {});
}
