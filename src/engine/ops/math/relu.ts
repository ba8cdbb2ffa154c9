import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';
import { cast } from '../logic/cast.js';
import { greater } from '../logic/greater.js';

/** Element-wise max(x, 0) (ONNX Relu). VJP: Mul(g, Cast(Greater(y, 0))) — the ENGINE-NOTES recipe; Where is slower in ORT. Subgradient 0 at x = 0 (as PyTorch). */
export const reluOp = defineUnary({
  name: 'relu',
  onnx: 'Relu',
  accepts: 'numeric',
  f: (x) => (x > 0 ? x : Number.isNaN(x) ? x : 0),
  vjp: (args) => {
    const g = ct0(args);
    return [mul(g, cast(greater(args.outputs[0]!, 0), g.dtype))];
  },
});

/** Element-wise max(x, 0) (ONNX Relu). VJP: Mul(g, Cast(Greater(y, 0))) — the ENGINE-NOTES recipe; Where is slower in ORT. Subgradient 0 at x = 0 (as PyTorch). */
export function relu(x: Tensor): Tensor {
  return apply1(reluOp, [asTensor('relu', x, 'float32')], {});
}
