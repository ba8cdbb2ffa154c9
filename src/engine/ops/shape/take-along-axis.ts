import { apply1 } from '../../ir/apply.js';
import { isInteger } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, normalizeAxis, stridesOf } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { unravel } from '../../reference/kernels.js';
import { ct0 } from '../math/elementwise.js';
import { zeros } from './fill.js';
import { scatterElementsAdd } from './scatter-elements-add.js';

/** Axis of take-along-axis (normalised). */
export interface TakeAlongAxisAttrs {
  readonly axis: number;
}

/**
 * out[..., j, ...] = x[..., indices[..., j, ...], ...] along `axis` (ONNX GatherElements; numpy
 * take_along_axis): indices has x's rank, the output has the indices' shape. `takeAlongAxis(p, y[:, None], 1)`
 * picks p_iy. VJP: ScatterElements(add) of the cotangent into zeros.
 */
export const takeAlongAxisOp: Primitive<TakeAlongAxisAttrs> = {
  name: 'takeAlongAxis',
  infer([x, i], { axis }) {
    if (!isInteger(i!.dtype)) shapeError('takeAlongAxis', `indices must be int32 or int64, got ${i!.dtype}`);
    const ok = i!.shape.length === x!.shape.length && i!.shape.every((d, a) => a === axis || d <= x!.shape[a]!);
    if (!ok) shapeError('takeAlongAxis', `indices ${formatShape(i!.shape)} do not fit x ${formatShape(x!.shape)} (same rank, no larger off axis ${axis})`);
    return [{ dtype: x!.dtype, shape: i!.shape }];
  },
  emit: (node, ctx) => ctx.node('GatherElements', node.inputs, node.outputs, { axis: { type: 'int', value: node.attrs.axis } }),
  vjp(args) {
    const [x, indices] = args.inputs as [Tensor, Tensor];
    return [scatterElementsAdd(zeros(x.shape, x.dtype), indices, ct0(args), args.attrs.axis), null];
  },
  reference([x, i], { axis }) {
    const xs = stridesOf(x!.shape);
    const d = x!.shape[axis]!;
    const out = new Float64Array(i!.data.length);
    for (let k = 0; k < out.length; k++) {
      const idx = unravel(k, i!.shape);
      let v = i!.data[k]!;
      if (v < 0) v += d;
      if (v < 0 || v >= d) throw new RangeError(`takeAlongAxis: index ${i!.data[k]} out of range for axis size ${d}`);
      idx[axis] = v;
      out[k] = x!.data[idx.reduce((acc, c, a) => acc + c * xs[a]!, 0)]!;
    }
    return [{ dtype: x!.dtype, shape: i!.shape, data: out }];
  },
  formatAttrs: (a) => `axis=${a.axis}`,
};

/** Elements of x picked along `axis` by `indices` (same rank as x). */
export function takeAlongAxis(x: Tensor, indices: Tensor, axis: number): Tensor {
  return apply1(takeAlongAxisOp, [x, indices], { axis: normalizeAxis('takeAlongAxis', axis, x.rank) });
}
