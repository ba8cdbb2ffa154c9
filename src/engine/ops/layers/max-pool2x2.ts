import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import type { Tensor } from '../../ir/tensor.js';
import { cast } from '../logic/cast.js';
import { constant } from '../constant.js';
import { equal } from '../logic/equal.js';
import { type MaxPool2dAttrs, maxPool2dOp, poolType } from './max-pool2d.js';
import { mul } from '../math/mul.js';
import { upsample2x } from './upsample2x.js';

/** True for the window this primitive handles: 2×2, stride 2, no padding, no dilation, even H and W. */
export function isMaxPool2x2(shape: readonly number[], a: MaxPool2dAttrs): boolean {
  const same2 = (v: readonly number[], k: number) => v.every((e) => e === k);
  return same2(a.kernel, 2) && same2(a.strides, 2) && same2(a.pads, 0) && same2(a.dilations, 1) && shape.length === 4 && shape[2]! % 2 === 0 && shape[3]! % 2 === 0;
}

/**
 * 2×2 / stride-2 max pooling of x [N, C, H, W] (H, W even) → [N, C, H/2, W/2], without the int64 indices that
 * `maxPool2d`'s general primitive computes for its scatter backward. Forward: ONNX MaxPool with one output.
 * VJP: a one-hot of the window's first maximum (PyTorch's tie rule: first in row-major order) times dY, from
 * full-size element-wise ops and 2× upsampling only: tied = [x = up(y)], score = tied · priority (4, 3, 2, 1 at
 * the window positions in row-major order), first = [score = up(maxPool2x2(score))], dx = first · up(dY). No
 * scatter, no int64 indices (MaxPool's Indices output made the forward 7× slower; issue 24 notebook).
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
    const [, , h, w] = x.shape as [number, number, number, number];
    // All-ties mask x == up(y), then the first tie: score = mask · priority with priorities 4, 3, 2, 1 at the
    // window's positions in row-major order; the one position whose score equals its window's maximal score.
    const tied = cast(equal(x, upsample2x(args.outputs[0]!)), x.dtype);
    const priority = constant(
      Array.from({ length: h * w }, (_, k) => 4 - 2 * (((k / w) | 0) % 2) - ((k % w) % 2)),
      { shape: [1, 1, h, w], dtype: x.dtype },
    );
    const score = mul(tied, priority);
    const first = cast(equal(score, upsample2x(maxPool2x2(score))), x.dtype);
    return [mul(first, upsample2x(g))];
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
