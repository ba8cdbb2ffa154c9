import { apply1 } from '../../ir/apply.js';
import { isInteger } from '../../ir/dtype.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { normalizeAxis, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { cast } from '../logic/cast.js';
import { ct0 } from '../math/elementwise.js';
import { zeros } from './fill.js';
import { scatterNDAdd } from './scatter-nd-add.js';
import { transpose } from './transpose.js';
import { unsqueeze } from './unsqueeze.js';

/** Gather axis (normalised). */
export interface GatherAttrs {
  readonly axis: number;
}

/**
 * Select slices of x along `axis` by integer indices (ONNX Gather): out shape = x[:axis] + indices.shape +
 * x[axis+1:]; negative indices count from the end. This is embedding lookup for axis 0. VJP: scatter-add of
 * the cotangent into zeros (ScatterND with reduction add; indices must then lie in [0, dim)), repeated
 * indices accumulate.
 */
export const gatherOp: Primitive<GatherAttrs> = {
  name: 'gather',
  infer: ([x, i], attrs) => [gatherType(x!, i!, attrs)],
  emit: (node, ctx) => ctx.node('Gather', node.inputs, node.outputs, { axis: { type: 'int', value: node.attrs.axis } }),
  vjp(args) {
    const [x, indices] = args.inputs as [Tensor, Tensor];
    const g = ct0(args);
    const axis = args.attrs.axis;
    const q = indices.rank;
    const idx = unsqueeze(cast(indices, 'int64'), -1);
    if (axis === 0) return [scatterNDAdd(zeros(x.shape, x.dtype), idx, g), null];
    // Move the gathered axis to the front, scatter there, move it back.
    const xPerm = [axis, ...range(0, axis), ...range(axis + 1, x.rank)];
    const gPerm = [...range(axis, axis + q), ...range(0, axis), ...range(axis + q, g.rank)];
    const xt = xPerm.map((p) => x.shape[p]!);
    const scattered = scatterNDAdd(zeros(xt, x.dtype), idx, transpose(g, gPerm));
    const inv = new Array<number>(x.rank);
    xPerm.forEach((p, i) => (inv[p] = i));
    return [transpose(scattered, inv), null];
  },
  reference([x, i], attrs) {
    const type = gatherType(x!, i!, attrs);
    const axis = attrs.axis;
    const d = x!.shape[axis]!;
    const outer = shapeSize(x!.shape.slice(0, axis));
    const inner = shapeSize(x!.shape.slice(axis + 1));
    const n = i!.data.length;
    const out = new Float64Array(outer * n * inner);
    for (let o = 0; o < outer; o++) {
      for (let j = 0; j < n; j++) {
        let k = i!.data[j]!;
        if (k < 0) k += d;
        if (k < 0 || k >= d) throw new RangeError(`gather: index ${i!.data[j]} out of range [${-d}, ${d})`);
        const src = (o * d + k) * inner,
          dst = (o * n + j) * inner;
        for (let q = 0; q < inner; q++) out[dst + q] = x!.data[src + q]!;
      }
    }
    return [{ dtype: x!.dtype, shape: type.shape, data: out }];
  },
  formatAttrs: (a) => `axis=${a.axis}`,
};

function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}

function gatherType(x: TensorType, i: TensorType, { axis }: GatherAttrs): TensorType {
  if (!isInteger(i.dtype)) shapeError('gather', `indices must be int32 or int64, got ${i.dtype}`);
  return { dtype: x.dtype, shape: [...x.shape.slice(0, axis), ...i.shape, ...x.shape.slice(axis + 1)] };
}

/** x gathered along `axis` at `indices` (int32/int64). `gather(table, ids)` is an embedding lookup. */
export function gather(x: Tensor, indices: Tensor, axis = 0): Tensor {
  return apply1(gatherOp, [x, indices], { axis: normalizeAxis('gather', axis, x.rank) });
}
