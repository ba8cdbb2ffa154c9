import { apply1, constantTensor } from '../../ir/apply.js';
import type { EmitContext, HostTensor, OnnxAttribute, Primitive, TensorType } from '../../ir/primitive.js';
import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { add } from '../math/add.js';
import { convTranspose2d } from './conv-transpose2d.js';
import { convInputGradTransposedPreferred } from './conv-input-grad-transposed.js';
import { formatWindow, requireNCHW, sweepSize, type Window2d, type Window2dOptions, window2d, windowOnnxAttrs } from './conv-geometry.js';
import { conv2dWeightGradShifted, convWeightGradShiftedPreferred } from './conv-weight-grad-shifted.js';
import { checkDType, ct0 } from '../math/elementwise.js';
import { im2colCnhw } from './im2col-cnhw.js';
import { matmul } from './matmul.js';
import { reshape } from '../shape/reshape.js';
import { flip, slice } from '../shape/slice.js';
import { sum } from '../reduce/sum.js';
import { transpose } from '../shape/transpose.js';

/** Attributes of conv2d. */
export interface Conv2dAttrs extends Window2d {
  readonly group: number;
}

/** Images per chunk in the grouped-convolution weight-gradient im2col + GEMM (keeps the column buffer in cache; see bench/engine-ops.ts). */
export const CONV_DW_CHUNK = 16;

/**
 * 2-D convolution (cross-correlation, as PyTorch and ONNX Conv), NCHW: x [N, Ci, H, W], w [Co, Ci/g, kh, kw]
 * → [N, Co, Ho, Wo], Ho = ⌊(H + pt + pb − d(kh − 1) − 1)/s⌋ + 1. VJP, with the ENGINE-NOTES recipes:
 * dX = Conv(dY, W transposed per group and flipped spatially) for stride 1, else ConvTranspose(dY, W);
 * dW (groups = 1, stride 1, 3×3 "same" and alike) = one GEMM over kh + kw shifted copies of dY and x
 * (conv-weight-grad-shifted.ts);
 * dW (groups = 1, strided) = one GEMM dYᵀ [Co, N·Ho·Wo] × colsᵀ with cols = im2colCnhw(x) [Ci·kh·kw, N·Ho·Wo];
 * dW (grouped) = im2col (a grouped Conv with a constant one-hot kernel [Ci·kh·kw, 1, kh, kw], group Ci) →
 * batched FusedMatMul(dY, cols, transB) → ReduceSum over the batch, in chunks of CONV_DW_CHUNK images.
 */
export const conv2dOp: Primitive<Conv2dAttrs> = {
  name: 'conv2d',
  infer: ([x, w], attrs) => [convType(x!, w!, attrs)],
  emit(node, ctx) {
    const a = node.attrs;
    const w = node.inputTypes[1]!.shape;
    const attrs: Record<string, OnnxAttribute> = { ...windowOnnxAttrs([w[2]!, w[3]!], a), group: { type: 'int', value: a.group } };
    if (usesNchwc(node.inputTypes[0]!, node.inputTypes[1]!, a, ctx.nchwcBlock)) emitNchwcConv(node.inputs, node.outputs, w, attrs, ctx);
    else if (usesNchwcNchwInput(node.inputTypes[0]!, node.inputTypes[1]!, a, ctx.nchwcBlock)) emitNchwcConvNchwInput(node.inputs, node.outputs, w, attrs, ctx);
    else ctx.node('Conv', node.inputs, node.outputs, attrs);
  },
  vjp(args) {
    const [x, w] = args.inputs as [Tensor, Tensor];
    const g = ct0(args);
    return [conv2dInputGrad(g, w, x.shape, args.attrs), conv2dWeightGrad(x, g, w.shape, args.attrs)];
  },
  reference([x, w], attrs) {
    const type = convType(x!, w!, attrs);
    return [{ dtype: x!.dtype, shape: type.shape, data: convReference(x!, w!, type.shape, attrs) }];
  },
  formatAttrs: (a) => `${formatWindow(a)}${a.group > 1 ? ` group=${a.group}` : ''}`,
};

/** Whether a convolution can run on ORT's NCHWc kernels: float32, ungrouped, both channel counts multiples of the block. */
function usesNchwc(x: TensorType, w: TensorType, a: Conv2dAttrs, block: number): boolean {
  return block > 1 && x.dtype === 'float32' && a.group === 1 && x.shape[1]! % block === 0 && w.shape[0]! % block === 0;
}

/**
 * The convolution on ORT's NCHWc kernels (com.microsoft.nchwc, MLAS's blocked direct convolution; measured on
 * ResNet-20 layers at batch 128, reorders included: 16×32×32 stride 1 ≈ 7 ms vs 11 ms for the im2col Conv, and
 * the whole train step −16 %, `npm run bench -- train-step --model resnet20 [--no-nchwc]`): ReorderInput (NCHW →
 * NCHWc) → nchwc.Conv → ReorderOutput. The filter, a runtime value here (ORT's own NCHWc rewrite only takes
 * constant filters), is put into the kernels' OIHWBiBo layout in the graph:
 * W [Co, Ci, kh, kw] → [Co/B, B_o, Ci/B, B_i, kh, kw] → permute to [Co/B, Ci/B, kh, kw, B_i, B_o].
 */
function emitNchwcConv(inputs: readonly string[], outputs: readonly string[], w: readonly number[], attrs: Record<string, OnnxAttribute>, ctx: EmitContext): void {
  const b = ctx.nchwcBlock;
  const [co, ci, kh, kw] = w as [number, number, number, number];
  const w6 = ctx.temp('w6');
  ctx.node('Reshape', [inputs[1]!, ctx.int64s([co / b, b, ci / b, b, kh, kw])], [w6]);
  const w6t = ctx.temp('w6t');
  ctx.node('Transpose', [w6], [w6t], { perm: { type: 'ints', value: [0, 2, 4, 5, 3, 1] } });
  const wBlocked = ctx.temp('wnchwc');
  ctx.node('Reshape', [w6t, ctx.int64s([co, ci, kh, kw])], [wBlocked]);
  const xBlocked = ctx.temp('xnchwc');
  ctx.node('ReorderInput', [inputs[0]!], [xBlocked], {}, NCHWC_DOMAIN);
  const yBlocked = ctx.temp('ynchwc');
  ctx.node('Conv', [xBlocked, wBlocked], [yBlocked], attrs, NCHWC_DOMAIN);
  ctx.node('ReorderOutput', [yBlocked], [outputs[0]!], { channels: { type: 'int', value: co } }, NCHWC_DOMAIN);
}

/**
 * Whether a convolution with fewer input channels than a block, Co a multiple of it and a deep enough filter
 * (Ci·kh·kw ≥ 64) runs NCHWc reading its NCHW input directly. Measured (issue 24, rounds four and seven, paired
 * step A/B): LeNet's 6 → 16 5×5 layer (150 per output) 0.949; the 1 → 16 (9) and 3 → 16 (27) 3×3 stems no gain.
 */
function usesNchwcNchwInput(x: TensorType, w: TensorType, a: Conv2dAttrs, block: number): boolean {
  const [co, ci, kh, kw] = w.shape as [number, number, number, number];
  return block > 1 && x.dtype === 'float32' && a.group === 1 && ci < block && ci * kh * kw >= 64 && co % block === 0;
}

/** NCHWc convolution reading NCHW input directly (ORT's form for a first layer): filter in OIHWBo = [Co/B, Ci, kh, kw, B]. */
function emitNchwcConvNchwInput(inputs: readonly string[], outputs: readonly string[], w: readonly number[], attrs: Record<string, OnnxAttribute>, ctx: EmitContext): void {
  const b = ctx.nchwcBlock;
  const [co, ci, kh, kw] = w as [number, number, number, number];
  const w5 = ctx.temp('w5');
  ctx.node('Reshape', [inputs[1]!, ctx.int64s([co / b, b, ci, kh, kw])], [w5]);
  const w5t = ctx.temp('w5t');
  ctx.node('Transpose', [w5], [w5t], { perm: { type: 'ints', value: [0, 2, 3, 4, 1] } });
  const wBlocked = ctx.temp('wnchwcbo');
  ctx.node('Reshape', [w5t, ctx.int64s([co, ci, kh, kw])], [wBlocked]);
  const yBlocked = ctx.temp('ynchwc');
  ctx.node('Conv', [inputs[0]!, wBlocked], [yBlocked], attrs, NCHWC_DOMAIN);
  ctx.node('ReorderOutput', [yBlocked], [outputs[0]!], { channels: { type: 'int', value: co } }, NCHWC_DOMAIN);
}

/** ONNX Runtime's domain of the NCHWc CPU kernels. */
const NCHWC_DOMAIN = 'com.microsoft.nchwc';

function convType(x: TensorType, w: TensorType, attrs: Conv2dAttrs): TensorType {
  requireNCHW('conv2d', 'input', x.shape);
  requireNCHW('conv2d', 'weight', w.shape);
  if (x.dtype !== w.dtype) shapeError('conv2d', `input ${x.dtype} and weight ${w.dtype} differ`);
  checkDType('conv2d', x.dtype, 'float');
  const [n, ci, h, wd] = x.shape as [number, number, number, number];
  const [co, cig, kh, kw] = w.shape as [number, number, number, number];
  const g = attrs.group;
  if (ci % g !== 0 || co % g !== 0 || cig * g !== ci) {
    shapeError(
      'conv2d',
      `input ${formatShape(x.shape)} has ${ci} channels but weight ${formatShape(w.shape)} expects ${cig * g} (${cig} per group × groups ${g}; output channels ${co} must divide by groups)`,
    );
  }
  const [ho, wo] = sweepSize('conv2d', [h, wd], [kh, kw], attrs, x.shape);
  return { dtype: x.dtype, shape: [n, co, ho, wo] };
}

/** Direct-loop float64 convolution (also used by tests as an independent check). */
export function convReference(x: HostTensor, w: HostTensor, outShape: readonly number[], a: Conv2dAttrs): Float64Array {
  const [n, ci, h, wd] = x.shape as [number, number, number, number];
  const [co, cig, kh, kw] = w.shape as [number, number, number, number];
  const [, , ho, wo] = outShape as [number, number, number, number];
  const cog = co / a.group;
  const out = new Float64Array(n * co * ho * wo);
  for (let b = 0; b < n; b++)
    for (let o = 0; o < co; o++) {
      const grp = Math.floor(o / cog);
      for (let i = 0; i < ho; i++)
        for (let j = 0; j < wo; j++) {
          let s = 0;
          for (let c = 0; c < cig; c++) {
            const cin = grp * cig + c;
            for (let p = 0; p < kh; p++) {
              const y = i * a.strides[0] - a.pads[0] + p * a.dilations[0];
              if (y < 0 || y >= h) continue;
              for (let q = 0; q < kw; q++) {
                const xx = j * a.strides[1] - a.pads[1] + q * a.dilations[1];
                if (xx < 0 || xx >= wd) continue;
                s += x.data[((b * ci + cin) * h + y) * wd + xx]! * w.data[((o * cig + c) * kh + p) * kw + q]!;
              }
            }
          }
          out[((b * co + o) * ho + i) * wo + j] = s;
        }
    }
  return out;
}

/**
 * dL/dx of a convolution given dL/dy: a stride-1 convolution with the per-group-transposed, spatially flipped
 * kernel when the implied padding is non-negative (fastest in ORT), otherwise ConvTranspose — also for stride-1
 * layers that widen the channels off the NCHWc kernels (`convInputGradTransposedPreferred`: fewer columns).
 */
export function conv2dInputGrad(g: Tensor, w: Tensor, xShape: readonly number[], a: Conv2dAttrs): Tensor {
  const [co, cig, kh, kw] = w.shape as [number, number, number, number];
  const group = a.group;
  const ext = [a.dilations[0] * (kh - 1), a.dilations[1] * (kw - 1)];
  const flipPads = [ext[0]! - a.pads[0], ext[1]! - a.pads[1], ext[0]! - a.pads[2], ext[1]! - a.pads[3]];
  if (a.strides[0] === 1 && a.strides[1] === 1 && flipPads.every((p) => p >= 0) && !convInputGradTransposedPreferred(xShape, g.shape, w.shape, a)) {
    // [Co, Ci/g, kh, kw] → [g, Co/g, Ci/g, kh, kw] → [g, Ci/g, Co/g, kh, kw] → [Ci, Co/g, kh, kw], flipped.
    const wt = reshape(transpose(reshape(w, [group, co / group, cig, kh, kw]), [0, 2, 1, 3, 4]), [group * cig, co / group, kh, kw]);
    return conv2d(g, flip(wt, [2, 3]), { padding: flipPads as [number, number, number, number], dilation: a.dilations, groups: group });
  }
  const outputPadding = [0, 1].map((ax) => {
    const full = (g.shape[2 + ax]! - 1) * a.strides[ax]! + ext[ax]! + 1 - a.pads[ax]! - a.pads[ax + 2]!;
    return xShape[2 + ax]! - full;
  }) as [number, number];
  return convTranspose2d(g, w, { stride: a.strides, padding: a.pads, dilation: a.dilations, groups: group, outputPadding });
}

/**
 * dL/dw of a convolution with input x and output cotangent g, for a weight of shape `wShape`
 * [Co, Ci/g, kh, kw]. groups = 1, stride 1, where the copies are smaller than im2col's columns
 * (`convWeightGradShiftedPreferred`): one GEMM over kh + kw shifted copies (`conv2dWeightGradShifted`, no
 * im2col). Other ungrouped convolutions: one GEMM over K = N·Ho·Wo
 * (`conv2dWeightGradGemm`; measured 15–30 % faster than the chunked recipe at every ResNet-20 layer shape,
 * bench/engine-conv-dw.ts). Grouped convolutions: im2col by a grouped one-hot convolution, then one batched GEMM
 * per chunk of `chunk` images, summed over the batch.
 */
export function conv2dWeightGrad(x: Tensor, g: Tensor, wShape: readonly number[], a: Conv2dAttrs, chunk = CONV_DW_CHUNK): Tensor {
  if (a.group !== 1) return conv2dWeightGradChunked(x, g, wShape, a, chunk);
  const shifted = convWeightGradShiftedPreferred(x.shape, g.shape, wShape, a);
  return shifted ? conv2dWeightGradShifted(x, g, wShape, a) : conv2dWeightGradGemm(x, g, wShape, a);
}

/**
 * dL/dw by im2col (a grouped one-hot convolution) and one batched GEMM per chunk of `chunk` images, summed over
 * the batch (any groups; the recipe for grouped convolutions).
 */
export function conv2dWeightGradChunked(x: Tensor, g: Tensor, wShape: readonly number[], a: Conv2dAttrs, chunk = CONV_DW_CHUNK): Tensor {
  const [co, cig, kh, kw] = wShape as [number, number, number, number];
  const [n, ci] = x.shape as [number, number];
  const [, , ho, wo] = g.shape as [number, number, number, number];
  const group = a.group;
  const k = kh * kw;
  const trivial = k === 1 && a.strides.every((s) => s === 1) && a.pads.every((p) => p === 0);
  let kernel: Tensor | null = null;
  if (!trivial) {
    const onehot = new Float64Array(ci * k * k);
    for (let c = 0; c < ci; c++) for (let j = 0; j < k; j++) onehot[(c * k + j) * k + j] = 1;
    kernel = constantTensor(x.dtype, [ci * k, 1, kh, kw], onehot);
  }
  const parts: Tensor[] = [];
  for (let start = 0; start < n; start += chunk) {
    const end = Math.min(n, start + chunk);
    const xs = slice(x, [start], [end], [0]);
    const gs = slice(g, [start], [end], [0]);
    const cols = kernel ? conv2d(xs, kernel, { stride: a.strides, padding: a.pads, dilation: a.dilations, groups: ci }) : xs;
    const m = end - start;
    const lhs = group === 1 ? reshape(gs, [m, co, ho * wo]) : reshape(gs, [m, group, co / group, ho * wo]);
    const rhs = group === 1 ? reshape(cols, [m, ci * k, ho * wo]) : reshape(cols, [m, group, cig * k, ho * wo]);
    parts.push(sum(matmul(lhs, rhs, { transB: true }), 0));
  }
  const total = parts.length === 1 ? parts[0]! : parts.reduce((acc, p) => add(acc, p));
  return reshape(total, [co, cig, kh, kw]);
}

/**
 * dL/dw as ONE GEMM over K = N·Ho·Wo (groups = 1): cols = im2colCnhw(x) [Ci·kh·kw, N·Ho·Wo],
 * dYᵀ = Transpose(dY) [Co, N·Ho·Wo], dW = dYᵀ·colsᵀ [Co, Ci·kh·kw].
 */
export function conv2dWeightGradGemm(x: Tensor, g: Tensor, wShape: readonly number[], a: Conv2dAttrs): Tensor {
  const [co, ci, kh, kw] = wShape as [number, number, number, number];
  const [n, co2, ho, wo] = g.shape as [number, number, number, number];
  const gt = reshape(transpose(g, [1, 0, 2, 3]), [co2, n * ho * wo]);
  const trivial = kh === 1 && kw === 1 && a.strides.every((s) => s === 1) && a.pads.every((p) => p === 0);
  const cols = trivial ? reshape(transpose(x, [1, 0, 2, 3]), [ci, n * ho * wo]) : im2colCnhw(x, [kh, kw], a);
  return reshape(matmul(gt, cols, { transB: true }), [co, ci, kh, kw]);
}

/** Options of `conv2d`. */
export interface Conv2dOptions extends Window2dOptions {
  readonly groups?: number;
  /** Optional bias [Co], added per output channel. */
  readonly bias?: Tensor;
}

/** 2-D convolution of x [N, Ci, H, W] with w [Co, Ci/groups, kh, kw] (optional bias [Co]). */
export function conv2d(x: Tensor, w: Tensor, options: Conv2dOptions = {}): Tensor {
  const group = options.groups ?? 1;
  if (!Number.isInteger(group) || group < 1) shapeError('conv2d', `groups must be a positive integer, got ${group}`);
  const y = apply1(conv2dOp, [x, w], { ...window2d('conv2d', options), group });
  if (!options.bias) return y;
  const co = w.shape[0]!;
  if (options.bias.rank !== 1 || options.bias.shape[0] !== co) shapeError('conv2d', `bias must have shape [${co}], got ${formatShape(options.bias.shape)}`);
  return add(y, reshape(options.bias, [co, 1, 1]));
}
