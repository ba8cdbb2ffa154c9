import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, normalizeAxis, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';
import { slice } from './slice.js';

/** Concatenation axis (normalised). */
export interface ConcatAttrs {
  readonly axis: number;
}

/** Join tensors along an existing axis (ONNX Concat). VJP: slice the cotangent into the inputs' extents. */
export const concatOp: Primitive<ConcatAttrs> = {
  name: 'concat',
  infer(inputs, { axis }) {
    const first = inputs[0]!;
    inputs.forEach((t) => {
      const ok = t.dtype === first.dtype && t.shape.length === first.shape.length && t.shape.every((d, i) => i === axis || d === first.shape[i]);
      if (!ok) {
        shapeError('concat', `inputs ${inputs.map((u) => `${u.dtype}${formatShape(u.shape)}`).join(', ')} do not agree outside axis ${axis}`);
      }
    });
    const shape = [...first.shape];
    shape[axis] = inputs.reduce((acc, t) => acc + t.shape[axis]!, 0);
    return [{ dtype: first.dtype, shape }];
  },
  emit: (node, ctx) => ctx.node('Concat', node.inputs, node.outputs, { axis: { type: 'int', value: node.attrs.axis } }),
  vjp(args) {
    const g = ct0(args);
    let offset = 0;
    return args.inputs.map((t) => {
      const d = t.shape[args.attrs.axis]!;
      const part = slice(g, [offset], [offset + d], [args.attrs.axis]);
      offset += d;
      return part;
    });
  },
  reference(inputs, { axis }) {
    const shape = [...inputs[0]!.shape];
    shape[axis] = inputs.reduce((acc, t) => acc + t.shape[axis]!, 0);
    const outer = shapeSize(shape.slice(0, axis));
    const inner = shapeSize(shape.slice(axis + 1));
    const out = new Float64Array(shapeSize(shape));
    let o = 0;
    for (let b = 0; b < outer; b++) {
      for (const t of inputs) {
        const chunk = t.shape[axis]! * inner;
        out.set(t.data.subarray(b * chunk, (b + 1) * chunk), o);
        o += chunk;
      }
    }
    return [{ dtype: inputs[0]!.dtype, shape, data: out }];
  },
  formatAttrs: (a) => `axis=${a.axis}`,
};

/** Concatenate `tensors` (same dtype, same shape except along `axis`). */
export function concat(tensors: readonly Tensor[], axis = 0): Tensor {
  if (!Array.isArray(tensors) || tensors.length === 0) shapeError('concat', 'expected a non-empty array of tensors');
  if (tensors.length === 1) return tensors[0]!;
  return apply1(concatOp, tensors, { axis: normalizeAxis('concat', axis, tensors[0]!.rank) });
}
