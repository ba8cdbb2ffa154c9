import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { normalizeAxis } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { logSoftmaxFibre, mapAlongAxis } from '../../reference/kernels.js';
import { checkDType, ct0 } from '../math/elementwise.js';
import { exp } from '../math/exp.js';
import { mul } from '../math/mul.js';
import { sub } from '../math/sub.js';
import { sum } from './sum.js';
import type { SoftmaxAttrs } from './softmax.js';

/**
 * log softmax(z)_k = z_k − max z − log Σ_j exp(z_j − max z) along `axis` (ONNX LogSoftmax; finite for logits
 * of magnitude 1e3 and beyond). VJP: g − exp(y) · Σ_axis g.
 */
export const logSoftmaxOp: Primitive<SoftmaxAttrs> = {
  name: 'logSoftmax',
  infer([x]) {
    checkDType('logSoftmax', x!.dtype, 'float');
    return [{ dtype: x!.dtype, shape: x!.shape }];
  },
  emit: (node, ctx) => ctx.node('LogSoftmax', node.inputs, node.outputs, { axis: { type: 'int', value: node.attrs.axis } }),
  vjp(args) {
    const g = ct0(args);
    const y = args.outputs[0]!;
    return [sub(g, mul(exp(y), sum(g, args.attrs.axis, true)))];
  },
  reference: ([x], { axis }) => [{ dtype: x!.dtype, shape: x!.shape, data: mapAlongAxis(x!, axis, logSoftmaxFibre) }],
  formatAttrs: (a) => `axis=${a.axis}`,
};

/** Log-softmax along `axis` (default last). */
export function logSoftmax(x: Tensor, axis = -1): Tensor {
  return apply1(logSoftmaxOp, [x], { axis: normalizeAxis('logSoftmax', axis, x.rank) });
}
