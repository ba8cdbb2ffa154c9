import { apply1, constantTensor } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import type { Tensor } from '../../ir/tensor.js';
import { convTranspose2d } from './conv-transpose2d.js';
import { formatWindow, type Window2d, windowOnnxAttrs } from './conv-geometry.js';
import { div } from '../math/div.js';
import { ct0 } from '../math/elementwise.js';
import { type Pool2dOptions, poolAttrs, poolType } from './max-pool2d.js';
import { shapeError } from '../../ir/shape-error.js';

/** Attributes of average pooling. */
export interface AvgPool2dAttrs extends Window2d {
  readonly kernel: readonly [number, number];
  /** Divide by the full window size even where it overlaps the padding (PyTorch's default). */
  readonly countIncludePad: boolean;
}

/**
 * 2-D average pooling, NCHW (ONNX AveragePool): y = (Σ over the window) / count, count = kh·kw when
 * countIncludePad (PyTorch default) else the number of in-bounds elements. VJP: dY / count spread back over
 * each window by a grouped ConvTranspose with a constant all-ones kernel [C, 1, kh, kw].
 */
export const avgPool2dOp: Primitive<AvgPool2dAttrs> = {
  name: 'avgPool2d',
  infer: ([x], attrs) => {
    if (attrs.dilations.some((d) => d !== 1)) shapeError('avgPool2d', `dilation is not supported, got ${attrs.dilations.join('×')}`);
    return [poolType('avgPool2d', x!, attrs)];
  },
  emit(node, ctx) {
    const a = node.attrs;
    ctx.node('AveragePool', node.inputs, node.outputs, { ...windowOnnxAttrs(a.kernel, a, false), count_include_pad: { type: 'int', value: a.countIncludePad ? 1 : 0 } });
  },
  vjp(args) {
    const x = args.inputs[0]!;
    const a = args.attrs;
    const [, c, h, w] = x.shape as [number, number, number, number];
    const g = ct0(args);
    const [ho, wo] = [g.shape[2]!, g.shape[3]!];
    const counts = windowCounts(h, w, ho, wo, a);
    const scaled = div(g, constantTensor(g.dtype, [ho, wo], counts));
    const ones = constantTensor(g.dtype, [c, 1, a.kernel[0], a.kernel[1]], new Float64Array(c * a.kernel[0] * a.kernel[1]).fill(1));
    const outputPadding = [0, 1].map((ax) => [h, w][ax]! - (([ho, wo][ax]! - 1) * a.strides[ax]! + a.kernel[ax]! - a.pads[ax]! - a.pads[ax + 2]!)) as [number, number];
    return [convTranspose2d(scaled, ones, { stride: a.strides, padding: a.pads, groups: c, outputPadding })];
  },
  reference([x], a) {
    const t = poolType('avgPool2d', x!, a);
    const [n, c, h, w] = x!.shape as [number, number, number, number];
    const [, , ho, wo] = t.shape as [number, number, number, number];
    const counts = windowCounts(h, w, ho, wo, a);
    const y = new Float64Array(n * c * ho * wo);
    for (let b = 0; b < n * c; b++)
      for (let i = 0; i < ho; i++)
        for (let j = 0; j < wo; j++) {
          let s = 0;
          for (let p = 0; p < a.kernel[0]; p++) {
            const r = i * a.strides[0] - a.pads[0] + p;
            if (r < 0 || r >= h) continue;
            for (let q = 0; q < a.kernel[1]; q++) {
              const col = j * a.strides[1] - a.pads[1] + q;
              if (col >= 0 && col < w) s += x!.data[(b * h + r) * w + col]!;
            }
          }
          y[(b * ho + i) * wo + j] = s / counts[i * wo + j]!;
        }
    return [{ dtype: x!.dtype, shape: t.shape, data: y }];
  },
  formatAttrs: (a) => `kernel=${a.kernel.join('×')} ${formatWindow(a)}${a.countIncludePad ? '' : ' excludePad'}`,
};

/** Divisor of each output position. */
function windowCounts(h: number, w: number, ho: number, wo: number, a: AvgPool2dAttrs): Float64Array {
  const counts = new Float64Array(ho * wo);
  for (let i = 0; i < ho; i++)
    for (let j = 0; j < wo; j++) {
      if (a.countIncludePad) {
        counts[i * wo + j] = a.kernel[0] * a.kernel[1];
        continue;
      }
      const r0 = i * a.strides[0] - a.pads[0],
        c0 = j * a.strides[1] - a.pads[1];
      const rows = Math.min(h, r0 + a.kernel[0]) - Math.max(0, r0);
      const cols = Math.min(w, c0 + a.kernel[1]) - Math.max(0, c0);
      counts[i * wo + j] = rows * cols;
    }
  return counts;
}

/** Average pooling of x [N, C, H, W] (stride defaults to the kernel; countIncludePad defaults to true). */
export function avgPool2d(x: Tensor, options: Pool2dOptions & { countIncludePad?: boolean }): Tensor {
  return apply1(avgPool2dOp, [x], { ...poolAttrs('avgPool2d', options), countIncludePad: options.countIncludePad !== false });
}
