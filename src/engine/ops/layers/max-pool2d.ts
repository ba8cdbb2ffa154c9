import { apply } from '../../ir/apply.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { checkDType } from '../math/elementwise.js';
import { formatWindow, requireNCHW, sweepSize, type Window2d, window2d, windowOnnxAttrs } from './conv-geometry.js';
import { reshape } from '../shape/reshape.js';
import { scatterElementsAdd } from '../shape/scatter-elements-add.js';
import { zeros } from '../shape/fill.js';
import { isMaxPool2x2, maxPool2x2 } from './max-pool2x2.js';

/** Attributes of max-pooling. */
export interface MaxPool2dAttrs extends Window2d {
  readonly kernel: readonly [number, number];
}

/**
 * 2-D max pooling, NCHW (ONNX MaxPool with its Indices output; padding never wins). Outputs
 * (y [N, C, Ho, Wo], indices int64 [N, C, Ho, Wo]) where an index is the flat position of the chosen element
 * in the whole input (n·C·H·W + c·H·W + h·W + w); ties → the first element of the window in row-major order.
 * VJP (ENGINE-NOTES recipe; MaxUnpool is wrong for overlapping windows): ScatterElements(add) of dY at the
 * indices into a flat zero buffer, reshaped to x.
 */
export const maxPool2dOp: Primitive<MaxPool2dAttrs> = {
  name: 'maxPool2d',
  infer([x], attrs) {
    const t = poolType('maxPool2d', x!, attrs);
    return [t, { dtype: 'int64', shape: t.shape }];
  },
  emit(node, ctx) {
    ctx.node('MaxPool', node.inputs, node.outputs, windowOnnxAttrs(node.attrs.kernel, node.attrs));
  },
  vjp(args) {
    const x = args.inputs[0]!;
    const g = args.cotangents[0];
    if (!g) return [null];
    const flat = scatterElementsAdd(zeros([x.size], x.dtype), reshape(args.outputs[1]!, [g.size]), reshape(g, [g.size]), 0);
    return [reshape(flat, x.shape)];
  },
  reference([x], a) {
    const t = poolType('maxPool2d', x!, a);
    const [n, c, h, w] = x!.shape as [number, number, number, number];
    const [, , ho, wo] = t.shape as [number, number, number, number];
    const y = new Float64Array(n * c * ho * wo);
    const idx = new Float64Array(y.length);
    for (let b = 0; b < n * c; b++)
      for (let i = 0; i < ho; i++)
        for (let j = 0; j < wo; j++) {
          let best = -Infinity,
            at = -1;
          for (let p = 0; p < a.kernel[0]; p++) {
            const r = i * a.strides[0] - a.pads[0] + p * a.dilations[0];
            if (r < 0 || r >= h) continue;
            for (let q = 0; q < a.kernel[1]; q++) {
              const s = j * a.strides[1] - a.pads[1] + q * a.dilations[1];
              if (s < 0 || s >= w) continue;
              const k = (b * h + r) * w + s;
              const v = x!.data[k]!;
              if (at < 0 || v > best || (Number.isNaN(v) && !Number.isNaN(best))) {
                best = v;
                at = k;
              }
            }
          }
          y[(b * ho + i) * wo + j] = best;
          idx[(b * ho + i) * wo + j] = at;
        }
    return [
      { dtype: x!.dtype, shape: t.shape, data: y },
      { dtype: 'int64', shape: t.shape, data: idx },
    ];
  },
  formatAttrs: (a) => `kernel=${a.kernel.join('×')} ${formatWindow(a)}`,
};

/** Shape rule shared by the pooling primitives. */
export function poolType(op: string, x: TensorType, a: Window2d & { kernel: readonly [number, number] }): TensorType {
  requireNCHW(op, 'input', x.shape);
  checkDType(op, x.dtype, 'float');
  a.kernel.forEach((k, ax) => {
    if (a.pads[ax]! >= k || a.pads[ax + 2]! >= k) shapeError(op, `padding [${a.pads.join(',')}] must be smaller than the kernel ${a.kernel.join('×')}`);
  });
  const [n, c, h, w] = x.shape as [number, number, number, number];
  const [ho, wo] = sweepSize(op, [h, w], a.kernel, a, x.shape);
  return { dtype: x.dtype, shape: [n, c, ho, wo] };
}

/** Options of the pooling ops: `kernel` (number or pair); stride defaults to the kernel (PyTorch). */
export interface Pool2dOptions {
  readonly kernel: number | readonly [number, number];
  readonly stride?: number | readonly [number, number];
  readonly padding?: number | readonly [number, number] | readonly [number, number, number, number];
  readonly dilation?: number | readonly [number, number];
}

/** Normalise pooling options. */
export function poolAttrs(op: string, o: Pool2dOptions): Window2d & { kernel: [number, number] } {
  const k = typeof o?.kernel === 'number' ? [o.kernel, o.kernel] : o?.kernel ? [...o.kernel] : [];
  if (k.length !== 2 || !k.every((v) => Number.isInteger(v) && v >= 1)) shapeError(op, `kernel must be a positive integer or a pair of them, got ${JSON.stringify(o?.kernel)}`);
  const kernel = k as [number, number];
  return { ...window2d(op, { stride: o.stride ?? kernel, padding: o.padding ?? 0, dilation: o.dilation ?? 1 }), kernel };
}

/**
 * Max pooling of x [N, C, H, W]; returns the pooled values (see `maxPool2dWithIndices` for the indices).
 * A 2×2 / stride-2 window without padding over even H and W goes to `maxPool2x2` (no indices; one-hot backward).
 */
export function maxPool2d(x: Tensor, options: Pool2dOptions): Tensor {
  if (isMaxPool2x2(x.shape, poolAttrs('maxPool2d', options))) return maxPool2x2(x);
  return maxPool2dWithIndices(x, options).values;
}

/** Max pooling returning both the values and the int64 flat indices of the chosen elements. */
export function maxPool2dWithIndices(x: Tensor, options: Pool2dOptions): { values: Tensor; indices: Tensor } {
  const [values, indices] = apply(maxPool2dOp, [x], poolAttrs('maxPool2d', options)) as [Tensor, Tensor];
  return { values, indices };
}
