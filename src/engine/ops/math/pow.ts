import { apply1 } from '../../ir/apply.js';
import type { Tensor, TensorLike } from '../../ir/tensor.js';
import { ct0, defineBinary, operandPair } from './elementwise.js';
import { mul } from './mul.js';
import { sub } from './sub.js';
import { log } from './log.js';

/**
 * Element-wise a^b (broadcasting; ONNX Pow). VJP: (g·b·a^(b−1), g·a^b·log a). The exponent's cotangent is only
 * built when something needs it (a constant exponent's is dead code), so log of a ≤ 0 does not leak NaNs.
 */
export const powOp = defineBinary({
  name: 'pow',
  onnx: 'Pow',
  accepts: 'float',
  output: 'same',
  f: (x, y) => Math.pow(x, y),
  vjp: (args) => {
    const g = ct0(args);
    const [a, b] = args.inputs as [Tensor, Tensor];
    const y = args.outputs[0]!;
    return [mul(g, mul(b, pow(a, sub(b, 1)))), mul(g, mul(y, log(a)))];
  },
});

/** a^b, broadcasting (float only). */
export function pow(a: TensorLike, b: TensorLike): Tensor {
  return apply1(powOp, operandPair('pow', a, b), {});
}
