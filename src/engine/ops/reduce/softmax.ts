import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { normalizeAxis } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { logSoftmaxFibre, mapAlongAxis } from '../../reference/kernels.js';
import { checkDType, ct0 } from '../math/elementwise.js';
import { mul } from '../math/mul.js';
import { sub } from '../math/sub.js';
import { sum } from './sum.js';

/** Axis of softmax / log-softmax (normalised). */
export interface SoftmaxAttrs {
  readonly axis: number;
}

/**
 * softmax(z)_k = exp(z_k − max z) / Σ_j exp(z_j − max z) along `axis` (ONNX Softmax, opset 13 per-axis
 * semantics; stable for |z| in the thousands). VJP: y · (g − Σ_axis g·y).
 */
export const softmaxOp: Primitive<SoftmaxAttrs> = {
  name: 'softmax',
  infer([x]) {
    checkDType('softmax', x!.dtype, 'float');
    return [{ dtype: x!.dtype, shape: x!.shape }];
  },
  emit: (node, ctx) => ctx.node('Softmax', node.inputs, node.outputs, { axis: { type: 'int', value: node.attrs.axis } }),
  vjp(args) {
    const g = ct0(args);
    const y = args.outputs[0]!;
    return [mul(y, sub(g, sum(mul(g, y), args.attrs.axis, true)))];
  },
  reference: ([x], { axis }) => [{ dtype: x!.dtype, shape: x!.shape, data: mapAlongAxis(x!, axis, (z) => logSoftmaxFibre(z).map(Math.exp)) }],
  formatAttrs: (a) => `axis=${a.axis}`,
};

/** Softmax along `axis` (default last). */
export function softmax(x: Tensor, axis = -1): Tensor {
  return apply1(softmaxOp, [x], { axis: normalizeAxis('softmax', axis, x.rank) });
}
