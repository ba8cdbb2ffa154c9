import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { requireNCHW } from './conv-geometry.js';
import type { Tensor } from '../../ir/tensor.js';
import { reshape } from '../shape/reshape.js';
import { sum } from '../reduce/sum.js';

/**
 * Nearest-neighbour 2× upsampling of [N, C, h, w] → [N, C, 2h, 2w]: y[n, c, i, j] = x[n, c, ⌊i/2⌋, ⌊j/2⌋]
 * (ONNX Resize, mode nearest, scales [1, 1, 2, 2]). The same as Reshape [N, C, h, 1, w, 1] + Expand to
 * [N, C, h, 2, w, 2], which ORT runs on its slow general broadcast (issue 24 notebook: 102 ms of a LeNet step).
 * VJP: the sum of each 2×2 window of the cotangent.
 */
export const upsample2xOp: Primitive<Record<string, never>> = {
  name: 'upsample2x',
  infer([x]) {
    requireNCHW('upsample2x', 'input', x!.shape);
    const [n, c, h, w] = x!.shape as [number, number, number, number];
    return [{ dtype: x!.dtype, shape: [n, c, 2 * h, 2 * w] }];
  },
  emit(node, ctx) {
    const scales = ctx.constant('float32', [4], [1, 1, 2, 2]);
    ctx.node('Resize', [node.inputs[0]!, '', scales], node.outputs, {
      mode: { type: 'string', value: 'nearest' },
      coordinate_transformation_mode: { type: 'string', value: 'asymmetric' },
      nearest_mode: { type: 'string', value: 'floor' },
    });
  },
  vjp(args) {
    const g = args.cotangents[0];
    if (!g) return [null];
    const [n, c, h, w] = args.inputs[0]!.shape as [number, number, number, number];
    return [sum(reshape(g, [n, c, h, 2, w, 2]), [3, 5])];
  },
  reference([x]) {
    const [n, c, h, w] = x!.shape as [number, number, number, number];
    const y = new Float64Array(n * c * 4 * h * w);
    for (let b = 0; b < n * c; b++) for (let i = 0; i < 2 * h; i++) for (let j = 0; j < 2 * w; j++) y[(b * 2 * h + i) * 2 * w + j] = x!.data[(b * h + (i >> 1)) * w + (j >> 1)]!;
    return [{ dtype: x!.dtype, shape: [n, c, 2 * h, 2 * w], data: y }];
  },
  formatAttrs: () => '',
};

/** Nearest-neighbour 2× upsampling of x [N, C, h, w] (see `upsample2xOp`). */
export function upsample2x(x: Tensor): Tensor {
  return apply1(upsample2xOp, [x], {});
}
