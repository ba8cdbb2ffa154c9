import { apply1 } from '../../ir/apply.js';
import { isInteger } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, normalizeAxis, sameShape, stridesOf } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { unravel } from '../../reference/kernels.js';
import { ct0 } from '../math/elementwise.js';
import { takeAlongAxis } from './take-along-axis.js';

/** Axis of the scatter (normalised). */
export interface ScatterElementsAttrs {
  readonly axis: number;
}

/**
 * out = data; out[..., indices[..., j, ...], ...] += updates[..., j, ...] along `axis` (ONNX ScatterElements,
 * reduction add; repeated indices accumulate). Used for max-pool and take-along-axis gradients (with flattened
 * indices). VJP: data ← g; updates ← take-along-axis of g.
 */
export const scatterElementsAddOp: Primitive<ScatterElementsAttrs> = {
  name: 'scatterElementsAdd',
  infer([data, indices, updates], { axis }) {
    if (!isInteger(indices!.dtype)) shapeError('scatterElementsAdd', `indices must be int32 or int64, got ${indices!.dtype}`);
    if (data!.dtype !== updates!.dtype) shapeError('scatterElementsAdd', `data ${data!.dtype} and updates ${updates!.dtype} differ`);
    const ok = sameShape(indices!.shape, updates!.shape) && indices!.shape.length === data!.shape.length && indices!.shape.every((d, a) => a === axis || d <= data!.shape[a]!);
    if (!ok) {
      shapeError('scatterElementsAdd', `data ${formatShape(data!.shape)}, indices ${formatShape(indices!.shape)} and updates ${formatShape(updates!.shape)} do not fit (axis ${axis})`);
    }
    return [{ dtype: data!.dtype, shape: data!.shape }];
  },
  emit: (node, ctx) =>
    ctx.node('ScatterElements', node.inputs, node.outputs, {
      axis: { type: 'int', value: node.attrs.axis },
      reduction: { type: 'string', value: 'add' },
    }),
  vjp(args) {
    const g = ct0(args);
    return [g, null, takeAlongAxis(g, args.inputs[1]!, args.attrs.axis)];
  },
  reference([data, indices, updates], { axis }) {
    const out = Float64Array.from(data!.data);
    const ds = stridesOf(data!.shape);
    const d = data!.shape[axis]!;
    for (let k = 0; k < indices!.data.length; k++) {
      const idx = unravel(k, indices!.shape);
      let v = indices!.data[k]!;
      if (v < 0) v += d;
      if (v < 0 || v >= d) throw new RangeError(`scatterElementsAdd: index ${indices!.data[k]} out of range for axis size ${d}`);
      idx[axis] = v;
      out[idx.reduce((acc, c, a) => acc + c * ds[a]!, 0)]! += updates!.data[k]!;
    }
    return [{ dtype: data!.dtype, shape: data!.shape, data: out }];
  },
  formatAttrs: (a) => `axis=${a.axis}`,
};

/** data with `updates` added along `axis` at `indices` (same shape as updates). */
export function scatterElementsAdd(data: Tensor, indices: Tensor, updates: Tensor, axis: number): Tensor {
  return apply1(scatterElementsAddOp, [data, indices, updates], { axis: normalizeAxis('scatterElementsAdd', axis, data.rank) });
}
