import { apply1 } from '../../ir/apply.js';
import type { HostTensor, Primitive, TensorType } from '../../ir/primitive.js';
import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { conv2d, conv2dWeightGrad } from './conv2d.js';
import { formatWindow, requireNCHW, type Window2d, type Window2dOptions, window2d, windowOnnxAttrs } from './conv-geometry.js';
import { checkDType, ct0 } from '../math/elementwise.js';

/** Attributes of convTranspose2d. */
export interface ConvTranspose2dAttrs extends Window2d {
  readonly group: number;
  readonly outputPadding: readonly [number, number];
}

/**
 * Transposed 2-D convolution (the adjoint of conv2d in its input; ONNX ConvTranspose), NCHW: x [N, Ci, H, W],
 * w [Ci, Co/g, kh, kw] → [N, Co, Ho, Wo], Ho = (H − 1)s + d(kh − 1) + 1 − pt − pb + outputPadding. Used for
 * strided-conv input gradients and pooling gradients. VJP: dX = conv2d(dY, w) with the same window;
 * dW = the conv weight gradient with the roles of input and output swapped.
 */
export const convTranspose2dOp: Primitive<ConvTranspose2dAttrs> = {
  name: 'convTranspose2d',
  infer: ([x, w], attrs) => [convTransposeType(x!, w!, attrs)],
  emit(node, ctx) {
    const a = node.attrs;
    const w = node.inputTypes[1]!.shape;
    ctx.node('ConvTranspose', node.inputs, node.outputs, {
      ...windowOnnxAttrs([w[2]!, w[3]!], a),
      group: { type: 'int', value: a.group },
      output_padding: { type: 'ints', value: a.outputPadding },
    });
  },
  vjp(args) {
    const [x, w] = args.inputs as [Tensor, Tensor];
    const g = ct0(args);
    const a = args.attrs;
    const convAttrs = { strides: a.strides, pads: a.pads, dilations: a.dilations, group: a.group };
    // y = Cᵀx where C is conv with weight w: ⟨g, Cᵀx⟩ = ⟨Cg, x⟩, so dX = conv(g) and dW = convWeightGrad(input g, cotangent x).
    const dx = conv2d(g, w, { stride: a.strides, padding: a.pads, dilation: a.dilations, groups: a.group });
    return [dx, conv2dWeightGrad(g, x, w.shape, convAttrs)];
  },
  reference([x, w], attrs) {
    const type = convTransposeType(x!, w!, attrs);
    return [{ dtype: x!.dtype, shape: type.shape, data: convTransposeReference(x!, w!, type.shape, attrs) }];
  },
  formatAttrs: (a) => `${formatWindow(a)} outputPadding=${a.outputPadding.join('×')}${a.group > 1 ? ` group=${a.group}` : ''}`,
};

function convTransposeType(x: TensorType, w: TensorType, a: ConvTranspose2dAttrs): TensorType {
  requireNCHW('convTranspose2d', 'input', x.shape);
  requireNCHW('convTranspose2d', 'weight', w.shape);
  if (x.dtype !== w.dtype) shapeError('convTranspose2d', `input ${x.dtype} and weight ${w.dtype} differ`);
  checkDType('convTranspose2d', x.dtype, 'float');
  const [n, ci, h, wd] = x.shape as [number, number, number, number];
  const [wci, cog, kh, kw] = w.shape as [number, number, number, number];
  if (wci !== ci || ci % a.group !== 0) {
    shapeError('convTranspose2d', `input ${formatShape(x.shape)} has ${ci} channels but weight ${formatShape(w.shape)} expects ${wci} (groups ${a.group})`);
  }
  const size = [h, wd].map((d, ax) => (d - 1) * a.strides[ax]! + a.dilations[ax]! * ([kh, kw][ax]! - 1) + 1 - a.pads[ax]! - a.pads[ax + 2]! + a.outputPadding[ax]!);
  if (size.some((s) => s <= 0)) shapeError('convTranspose2d', `output size ${size.join('×')} is empty for input ${formatShape(x.shape)}`);
  a.outputPadding.forEach((p, ax) => {
    if (p >= Math.max(a.strides[ax]!, a.dilations[ax]!)) shapeError('convTranspose2d', `outputPadding ${p} must be smaller than stride or dilation`);
  });
  return { dtype: x.dtype, shape: [n, cog * a.group, size[0]!, size[1]!] };
}

function convTransposeReference(x: HostTensor, w: HostTensor, outShape: readonly number[], a: ConvTranspose2dAttrs): Float64Array {
  const [n, ci, h, wd] = x.shape as [number, number, number, number];
  const [, cog, kh, kw] = w.shape as [number, number, number, number];
  const [, co, ho, wo] = outShape as [number, number, number, number];
  const cig = ci / a.group;
  const out = new Float64Array(n * co * ho * wo);
  for (let b = 0; b < n; b++)
    for (let c = 0; c < ci; c++) {
      const grp = Math.floor(c / cig);
      for (let i = 0; i < h; i++)
        for (let j = 0; j < wd; j++) {
          const v = x.data[((b * ci + c) * h + i) * wd + j]!;
          for (let o = 0; o < cog; o++)
            for (let p = 0; p < kh; p++) {
              const y = i * a.strides[0] - a.pads[0] + p * a.dilations[0];
              if (y < 0 || y >= ho) continue;
              for (let q = 0; q < kw; q++) {
                const xx = j * a.strides[1] - a.pads[1] + q * a.dilations[1];
                if (xx < 0 || xx >= wo) continue;
                out[((b * co + grp * cog + o) * ho + y) * wo + xx]! += v * w.data[((c * cog + o) * kh + p) * kw + q]!;
              }
            }
        }
    }
  return out;
}

/** Options of `convTranspose2d`. */
export interface ConvTranspose2dOptions extends Window2dOptions {
  readonly groups?: number;
  /** Extra rows/columns at the bottom/right of the output, each < stride (default 0). */
  readonly outputPadding?: number | readonly [number, number];
}

/** Transposed convolution of x [N, Ci, H, W] with w [Ci, Co/groups, kh, kw]. */
export function convTranspose2d(x: Tensor, w: Tensor, options: ConvTranspose2dOptions = {}): Tensor {
  const group = options.groups ?? 1;
  if (!Number.isInteger(group) || group < 1) shapeError('convTranspose2d', `groups must be a positive integer, got ${group}`);
  const op = options.outputPadding ?? 0;
  const outputPadding = (typeof op === 'number' ? [op, op] : [...op]) as [number, number];
  if (outputPadding.length !== 2 || !outputPadding.every((p) => Number.isInteger(p) && p >= 0)) {
    shapeError('convTranspose2d', `outputPadding must be non-negative integers, got ${JSON.stringify(op)}`);
  }
  return apply1(convTranspose2dOp, [x, w], { ...window2d('convTranspose2d', options), group, outputPadding });
}
