import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, sameShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';
import { gather } from './gather.js';
import { squeeze } from './squeeze.js';

/**
 * out = data; out[indices[j]] += updates[j] for every index tuple j (ONNX ScatterND, reduction add; repeated
 * indices accumulate). indices: int64 [..., k] addressing the first k axes of data; updates: indices.shape[:-1]
 * + data.shape[k:]. VJP: data ← g; updates ← g gathered at the indices (k = 1 only).
 */
export const scatterNDAddOp: Primitive<Record<string, never>> = {
  name: 'scatterNDAdd',
  infer([data, indices, updates]) {
    if (indices!.dtype !== 'int64') shapeError('scatterNDAdd', `indices must be int64, got ${indices!.dtype}`);
    if (data!.dtype !== updates!.dtype) shapeError('scatterNDAdd', `data ${data!.dtype} and updates ${updates!.dtype} differ`);
    const k = indices!.shape[indices!.shape.length - 1] ?? 0;
    const expected = [...indices!.shape.slice(0, -1), ...data!.shape.slice(k)];
    if (indices!.shape.length < 1 || k > data!.shape.length || !sameShape(expected, updates!.shape)) {
      shapeError('scatterNDAdd', `data ${formatShape(data!.shape)}, indices ${formatShape(indices!.shape)} need updates ${formatShape(expected)}, got ${formatShape(updates!.shape)}`);
    }
    return [{ dtype: data!.dtype, shape: data!.shape }];
  },
  emit: (node, ctx) => ctx.node('ScatterND', node.inputs, node.outputs, { reduction: { type: 'string', value: 'add' } }),
  vjp(args) {
    const g = ct0(args);
    const indices = args.inputs[1]!;
    const k = indices.shape[indices.rank - 1]!;
    if (k !== 1) throw new Error('scatterNDAdd: the gradient with respect to updates is implemented for indices [..., 1] only');
    return [g, null, gather(g, squeeze(indices, -1), 0)];
  },
  reference([data, indices, updates]) {
    const out = Float64Array.from(data!.data);
    const k = indices!.shape[indices!.shape.length - 1]!;
    const tuples = indices!.data.length / k;
    const slab = shapeSize(data!.shape.slice(k));
    for (let j = 0; j < tuples; j++) {
      let offset = 0;
      for (let a = 0; a < k; a++) {
        const d = data!.shape[a]!;
        let v = indices!.data[j * k + a]!;
        if (v < 0) v += d;
        if (v < 0 || v >= d) throw new RangeError(`scatterNDAdd: index ${indices!.data[j * k + a]} out of range for axis ${a} of size ${d}`);
        offset = offset * d + v;
      }
      for (let q = 0; q < slab; q++) out[offset * slab + q]! += updates!.data[j * slab + q]!;
    }
    return [{ dtype: data!.dtype, shape: data!.shape, data: out }];
  },
};

/** data with `updates` added at the index tuples `indices` (int64 [..., k]). */
export function scatterNDAdd(data: Tensor, indices: Tensor, updates: Tensor): Tensor {
  return apply1(scatterNDAddOp, [data, indices, updates], {});
}
