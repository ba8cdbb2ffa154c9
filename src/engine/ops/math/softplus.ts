import { apply1 } from '../../ir/apply.js';
import type { Tensor } from '../../ir/tensor.js';
import { asTensor, ct0, defineUnary } from './elementwise.js';
import { mul } from './mul.js';
import { neg } from './neg.js';
import { sigmoid } from './sigmoid.js';

/**
 * Element-wise softplus log(1 + eˣ) (ONNX Softplus), evaluated stably in the reference as
 * max(x, 0) + log1p(e^−|x|) so it is finite for |x| in the thousands. VJP: g·σ(x).
 */
export const softplusOp = defineUnary({
  name: 'softplus',
  onnx: 'Softplus',
  accepts: 'float',
  f: (x) => Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x))),
  vjp: (args) => [mul(ct0(args), sigmoid(args.inputs[0]!))],
});

/** log(1 + eˣ), stable for large |x|. */
export function softplus(x: Tensor): Tensor {
  return apply1(softplusOp, [asTensor('softplus', x, 'float32')], {});
}

/** log σ(x) = −softplus(−x), stable for large |x| (e.g. the pairwise terms of CPC). */
export function logSigmoid(x: Tensor): Tensor {
  return neg(softplus(neg(x)));
}
