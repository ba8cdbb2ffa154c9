import { apply1 } from '../../ir/apply.js';
import type { HostTensor, Primitive, TensorType } from '../../ir/primitive.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { formatWindow, requireNCHW, sweepSize, type Window2d } from './conv-geometry.js';
import { checkDType } from '../math/elementwise.js';

/** Attributes of im2colCnhw: the convolution window. */
export interface Im2colAttrs extends Window2d {
  readonly kernel: readonly [number, number];
}

/**
 * Column matrix of a convolution in "channel-major, batch-minor" layout: x [N, C, H, W] → cols [C·kh·kw, N·Ho·Wo],
 * cols[(c·kh + p)·kw + q, (n·Ho + i)·Wo + j] = x[n, c, i·s₀ − pt + p·d₀, j·s₁ − pl + q·d₁] (0 outside the image).
 * With it a convolution's weight gradient is ONE GEMM over K = N·Ho·Wo: dW = dYᵀ·colsᵀ, dYᵀ = [Co, N·Ho·Wo].
 * Lowered as Transpose(x → [C, N, H, W]) → Reshape [C, 1, N, H, W] → a 3-D Conv with a constant one-hot kernel
 * [kh·kw, 1, 1, kh, kw] (depth 1 along the batch axis, so images never mix) → Reshape. Only used inside
 * gradients (not differentiable itself).
 */
export const im2colCnhwOp: Primitive<Im2colAttrs> = {
  name: 'im2colCnhw',
  infer: ([x], attrs) => [im2colType(x!, attrs)],
  emit(node, ctx) {
    const [n, c, h, w] = node.inputTypes[0]!.shape as [number, number, number, number];
    const a = node.attrs;
    const [kh, kw] = a.kernel;
    const k = kh * kw;
    const dtype = node.inputTypes[0]!.dtype;
    const t = ctx.temp('cnhw');
    ctx.node('Transpose', [node.inputs[0]!], [t], { perm: { type: 'ints', value: [1, 0, 2, 3] } });
    const t5 = ctx.temp('cnhw5');
    ctx.node('Reshape', [t, ctx.int64s([c, 1, n, h, w])], [t5]);
    const onehot = new Float64Array(k * k);
    for (let j = 0; j < k; j++) onehot[j * k + j] = 1;
    const kernel = ctx.constant(dtype, [k, 1, 1, kh, kw], onehot);
    const cols5 = ctx.temp('cols5');
    ctx.node('Conv', [t5, kernel], [cols5], {
      kernel_shape: { type: 'ints', value: [1, kh, kw] },
      strides: { type: 'ints', value: [1, a.strides[0], a.strides[1]] },
      pads: { type: 'ints', value: [0, a.pads[0], a.pads[1], 0, a.pads[2], a.pads[3]] },
      dilations: { type: 'ints', value: [1, a.dilations[0], a.dilations[1]] },
    });
    ctx.node('Reshape', [cols5, ctx.int64s(node.outputTypes[0]!.shape)], node.outputs);
  },
  reference([x], attrs) {
    const type = im2colType(x!, attrs);
    return [{ dtype: x!.dtype, shape: type.shape, data: im2colReference(x!, attrs) }];
  },
  formatAttrs: (a) => `kernel=${a.kernel.join('×')} ${formatWindow(a)}`,
};

function im2colType(x: TensorType, a: Im2colAttrs): TensorType {
  requireNCHW('im2colCnhw', 'input', x.shape);
  checkDType('im2colCnhw', x.dtype, 'float');
  const [n, c, h, w] = x.shape as [number, number, number, number];
  if (!a.kernel.every((v) => Number.isInteger(v) && v >= 1)) shapeError('im2colCnhw', `kernel must be positive integers, got ${JSON.stringify(a.kernel)}`);
  const [ho, wo] = sweepSize('im2colCnhw', [h, w], a.kernel, a, x.shape);
  return { dtype: x.dtype, shape: [c * a.kernel[0] * a.kernel[1], n * ho * wo] };
}

function im2colReference(x: HostTensor, a: Im2colAttrs): Float64Array {
  const [n, c, h, w] = x.shape as [number, number, number, number];
  const [kh, kw] = a.kernel;
  const [ho, wo] = sweepSize('im2colCnhw', [h, w], a.kernel, a, x.shape);
  const cols = n * ho * wo;
  const out = new Float64Array(c * kh * kw * cols);
  for (let ch = 0; ch < c; ch++)
    for (let p = 0; p < kh; p++)
      for (let q = 0; q < kw; q++) {
        const row = ((ch * kh + p) * kw + q) * cols;
        for (let b = 0; b < n; b++)
          for (let i = 0; i < ho; i++) {
            const y = i * a.strides[0] - a.pads[0] + p * a.dilations[0];
            if (y < 0 || y >= h) continue;
            for (let j = 0; j < wo; j++) {
              const xx = j * a.strides[1] - a.pads[1] + q * a.dilations[1];
              if (xx < 0 || xx >= w) continue;
              out[row + (b * ho + i) * wo + j] = x.data[((b * c + ch) * h + y) * w + xx]!;
            }
          }
      }
  return out;
}

/** im2col of x [N, C, H, W] as [C·kh·kw, N·Ho·Wo] (see `im2colCnhwOp`). */
export function im2colCnhw(x: Tensor, kernel: readonly [number, number], window: Window2d): Tensor {
  return apply1(im2colCnhwOp, [x], { ...window, kernel });
}
