import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, shapeSize, stridesOf } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { unravel } from '../../reference/kernels.js';
import { ct0 } from '../math/elementwise.js';
import { slice } from './slice.js';

/**
 * Padding per axis: `pads = [begin_0, …, begin_{r−1}, end_0, …, end_{r−1}]` (ONNX layout). A negative entry crops
 * that many elements from that side (ONNX Pad semantics), so one Pad can shift a tensor along an axis.
 */
export interface PadAttrs {
  readonly pads: readonly number[];
  readonly value: number;
}

/**
 * Constant padding (ONNX Pad, mode constant; negative pads crop). VJP: pad the cotangent by the negated pads —
 * cropping what was padded and zero-filling what was cropped.
 */
export const padOp: Primitive<PadAttrs> = {
  name: 'pad',
  infer([x], { pads }) {
    const r = x!.shape.length;
    if (pads.length !== 2 * r || !pads.every((p) => Number.isInteger(p))) {
      shapeError('pad', `pads must be ${2 * r} integers for shape ${formatShape(x!.shape)}, got ${JSON.stringify(pads)}`);
    }
    const shape = x!.shape.map((d, i) => d + pads[i]! + pads[i + r]!);
    x!.shape.forEach((d, i) => {
      if (-pads[i]! > d || -pads[i + r]! > d || shape[i]! < 0) shapeError('pad', `pads ${JSON.stringify(pads)} crop more than axis ${i} of ${formatShape(x!.shape)} holds`);
    });
    return [{ dtype: x!.dtype, shape }];
  },
  emit(node, ctx) {
    const dtype = node.inputTypes[0]!.dtype;
    ctx.node('Pad', [node.inputs[0]!, ctx.int64s(node.attrs.pads), ctx.constant(dtype, [], [node.attrs.value])], node.outputs, { mode: { type: 'string', value: 'constant' } });
  },
  vjp(args) {
    const x = args.inputs[0]!;
    const pads = args.attrs.pads;
    if (pads.every((p) => p >= 0)) {
      const starts = x.shape.map((_, i) => pads[i]!);
      const ends = x.shape.map((d, i) => pads[i]! + d);
      return [
        slice(
          ct0(args),
          starts,
          ends,
          Array.from({ length: x.rank }, (_, i) => i),
        ),
      ];
    }
    return [
      pad(
        ct0(args),
        pads.map((p) => -p),
      ),
    ];
  },
  reference([x], { pads, value }) {
    const r = x!.shape.length;
    const shape = x!.shape.map((d, i) => d + pads[i]! + pads[i + r]!);
    const out = new Float64Array(shapeSize(shape)).fill(value);
    const os = stridesOf(shape);
    outer: for (let k = 0; k < x!.data.length; k++) {
      const idx = unravel(k, x!.shape);
      let o = 0;
      for (let i = 0; i < r; i++) {
        const at = idx[i]! + pads[i]!;
        if (at < 0 || at >= shape[i]!) continue outer;
        o += at * os[i]!;
      }
      out[o] = x!.data[k]!;
    }
    return [{ dtype: x!.dtype, shape, data: out }];
  },
  formatAttrs: (a) => `pads=[${a.pads.join(',')}] value=${a.value}`,
};

/** Pad x with `value` (default 0): `pads` = [begin per axis…, end per axis…]; negative entries crop. */
export function pad(x: Tensor, pads: readonly number[], value = 0): Tensor {
  if (pads.every((p) => p === 0)) return x;
  return apply1(padOp, [x], { pads: [...pads], value });
}
