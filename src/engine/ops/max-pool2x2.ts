import { apply1 } from '../ir/apply.js';
import type { Primitive } from '../ir/primitive.js';
import type { Tensor } from '../ir/tensor.js';
import { argmax } from './argmax.js';
import { cast } from './cast.js';
import { constant } from './constant.js';
import { equal } from './equal.js';
import { logicalAnd } from './logical-and.js';
import { max } from './max.js';
import { type MaxPool2dAttrs, maxPool2dOp, poolType } from './max-pool2d.js';
import { mul } from './mul.js';
import { reshape } from './reshape.js';

/** True for the window this primitive handles: 2×2, stride 2, no padding, no dilation, even H and W. */
export function isMaxPool2x2(shape: readonly number[], a: MaxPool2dAttrs): boolean {
  const same2 = (v: readonly number[], k: number) => v.every((e) => e === k);
  return same2(a.kernel, 2) && same2(a.strides, 2) && same2(a.pads, 0) && same2(a.dilations, 1)
    && shape.length === 4 && shape[2]! % 2 === 0 && shape[3]! % 2 === 0;
}

/**
 * 2×2 / stride-2 max pooling of x [N, C, H, W] (H, W even) → [N, C, H/2, W/2], without the int64 indices that
 * `maxPool2d`'s general primitive computes for its scatter backward. Forward: ONNX MaxPool with one output.
 * VJP: a one-hot of the window's argmax times dY, on the [N, C, H/2, 2, W/2, 2] view of x: the first maximum
 * in row-major order (PyTorch's tie rule) lies in the first row p whose row maximum equals the window maximum,
 * at that row's first maximal column q, so p = argmax over rows of the row maxima and q = argmax over that
 * row's columns (both first-index on ties); dx[…, p', …, q'] = dY·[p' = p]·[q' = q[p']]. No scatter, no zero
 * buffer, no int64 flat indices (issue 24 notebook).
 */
export const maxPool2x2Op: Primitive<Record<string, never>> = {
  name: 'maxPool2x2',
  infer([x]) {
    return [poolType('maxPool2x2', x!, window2x2)];
  },
  emit(node, ctx) {
    ctx.node('MaxPool', node.inputs, node.outputs, { kernel_shape: { type: 'ints', value: [2, 2] }, strides: { type: 'ints', value: [2, 2] } });
  },
  vjp(args) {
    const x = args.inputs[0]!;
    const g = args.cotangents[0];
    if (!g) return [null];
    const [n, c, h, w] = x.shape as [number, number, number, number];
    const x6 = reshape(x, [n, c, h / 2, 2, w / 2, 2]);
    const colOfRow = argmax(x6, 5, true); // [n, c, h/2, 2, w/2, 1]: first maximal column of each window row
    const row = argmax(max(x6, 5, true), 3, true); // [n, c, h/2, 1, w/2, 1]: first row holding the window maximum
    const two = (shape: number[]) => constant([0, 1], { shape, dtype: 'int64' });
    const pick = logicalAnd(equal(row, two([1, 1, 1, 2, 1, 1])), equal(colOfRow, two([1, 1, 1, 1, 1, 2])));
    const dx = mul(cast(pick, g.dtype), reshape(g, [n, c, h / 2, 1, w / 2, 1]));
    return [reshape(dx, x.shape)];
  },
  reference([x]) {
    return [maxPool2dOp.reference([x!], window2x2)[0]!];
  },
  formatAttrs: () => '',
};

const window2x2: MaxPool2dAttrs = { kernel: [2, 2], strides: [2, 2], pads: [0, 0, 0, 0], dilations: [1, 1] };

/** 2×2 / stride-2 max pooling (see `maxPool2x2Op`); `maxPool2d` picks it by itself where `isMaxPool2x2` holds. */
export function maxPool2x2(x: Tensor): Tensor {
  return apply1(maxPool2x2Op, [x], {});
}
