import { apply1 } from '../ir/apply.js';
import type { Primitive } from '../ir/primitive.js';
import { formatShape, shapeSize, stridesOf } from '../ir/shape.js';
import { shapeError } from '../ir/shape-error.js';
import type { Tensor } from '../ir/tensor.js';
import { unravel } from '../reference/kernels.js';
import { ct0 } from './elementwise.js';
import { slice } from './slice.js';

/** Padding per axis: `pads = [begin_0, …, begin_{r−1}, end_0, …, end_{r−1}]` (ONNX layout), non-negative. */
export interface PadAttrs {
  readonly pads: readonly number[];
  readonly value: number;
}

/** Constant padding (ONNX Pad, mode constant). VJP: slice the cotangent back to the unpadded region. */
export const padOp: Primitive<PadAttrs> = {
  name: 'pad',
  infer([x], { pads }) {
    const r = x!.shape.length;
    if (pads.length !== 2 * r || !pads.every((p) => Number.isInteger(p) && p >= 0)) {
      shapeError('pad', `pads must be ${2 * r} non-negative integers for shape ${formatShape(x!.shape)}, got ${JSON.stringify(pads)}`);
    }
    return [{ dtype: x!.dtype, shape: x!.shape.map((d, i) => d + pads[i]! + pads[i + r]!) }];
  },
  emit(node, ctx) {
    const dtype = node.inputTypes[0]!.dtype;
    ctx.node('Pad', [node.inputs[0]!, ctx.int64s(node.attrs.pads), ctx.constant(dtype, [], [node.attrs.value])], node.outputs, { mode: { type: 'string', value: 'constant' } });
  },
  vjp(args) {
    const x = args.inputs[0]!;
    const r = x.rank;
    const starts = x.shape.map((_, i) => args.attrs.pads[i]!);
    const ends = x.shape.map((d, i) => args.attrs.pads[i]! + d);
    return [slice(ct0(args), starts, ends, Array.from({ length: r }, (_, i) => i))];
  },
  reference([x], { pads, value }) {
    const r = x!.shape.length;
    const shape = x!.shape.map((d, i) => d + pads[i]! + pads[i + r]!);
    const out = new Float64Array(shapeSize(shape)).fill(value);
    const os = stridesOf(shape);
    for (let k = 0; k < x!.data.length; k++) {
      const idx = unravel(k, x!.shape);
      let o = 0;
      for (let i = 0; i < r; i++) o += (idx[i]! + pads[i]!) * os[i]!;
      out[o] = x!.data[k]!;
    }
    return [{ dtype: x!.dtype, shape, data: out }];
  },
  formatAttrs: (a) => `pads=[${a.pads.join(',')}] value=${a.value}`,
};

/** Pad x with `value` (default 0): `pads` = [begin per axis…, end per axis…]. */
export function pad(x: Tensor, pads: readonly number[], value = 0): Tensor {
  if (pads.every((p) => p === 0)) return x;
  return apply1(padOp, [x], { pads: [...pads], value });
}
