import type { Tensor } from '../../ir/tensor.js';
import type { Window2d } from './conv-geometry.js';
import { concat } from '../shape/concat.js';
import { matmul } from './matmul.js';
import { pad } from '../shape/pad.js';
import { reshape } from '../shape/reshape.js';
import { transpose } from '../shape/transpose.js';

/**
 * Weight gradient of a stride-1, ungrouped convolution without an im2col: kh + kw shifted copies instead of
 * kh·kw. With d the dilation and (pt, pl) the top/left padding,
 *   dW[o, c, p, q] = Σ_{n,i,j} dY[n, o, i, j] · x[n, c, i − pt + p·d₀, j − pl + q·d₁]   (0 outside the image).
 * Substituting r = i − pt + p·d₀ (an input row), in CNHW layout on the grid [N, H, Wo]:
 *   B_q[c, n, r, j] = x[n, c, r, j − pl + q·d₁]     — x shifted by columns (one Pad; negative pads crop);
 *   A_p[o, n, r, j] = dY[n, o, r + pt − p·d₀, j]    — dY shifted by rows (one Pad), rows that would meet
 *                                                     padding are cropped: their products are 0;
 * so that Σ_{n,r,j} A_p[o, ·] B_q[c, ·] = dW[o, c, p, q], and ONE GEMM of the stacked copies
 *   [kh·Co, N·H·Wo] × [kw·Ci, N·H·Wo]ᵀ = [kh, Co, kw, Ci]
 * gives every tap (the copy with zero shift is the transposed tensor itself). Measured against im2colCnhw + one
 * GEMM in `npm run bench -- engine-conv-dw` (single-thread CPU time; numbers in src/engine/README.md).
 * Requires `convWeightGradShiftedApplies`; x [N, Ci, H, W], g = dY [N, Co, Ho, Wo] → dW [Co, Ci, kh, kw].
 */
export function conv2dWeightGradShifted(x: Tensor, g: Tensor, wShape: readonly number[], a: Window2d): Tensor {
  const [co, ci, kh, kw] = wShape as [number, number, number, number];
  const [n, , h, w] = x.shape as [number, number, number, number];
  const [, , ho, wo] = g.shape as [number, number, number, number];
  const [pt, pl] = a.pads;
  const [d0, d1] = a.dilations;
  const xt = transpose(x, [1, 0, 2, 3]);
  const gt = transpose(g, [1, 0, 2, 3]);
  const cols = concat(
    Array.from({ length: kw }, (_, q) => pad(xt, [0, 0, 0, pl - q * d1, 0, 0, 0, wo - w - pl + q * d1])),
    0,
  );
  const rows = concat(
    Array.from({ length: kh }, (_, p) => pad(gt, [0, 0, p * d0 - pt, 0, 0, 0, h - ho - p * d0 + pt, 0])),
    0,
  );
  const k = n * h * wo;
  const taps = matmul(reshape(rows, [kh * co, k]), reshape(cols, [kw * ci, k]), { transB: true });
  return transpose(reshape(taps, [kh, co, kw, ci]), [1, 3, 0, 2]);
}

/** Whether `conv2dWeightGradShifted` applies: stride 1, and no shift crops more than the tensor holds. */
export function convWeightGradShiftedApplies(xShape: readonly number[], gShape: readonly number[], kernel: readonly [number, number], a: Window2d): boolean {
  if (a.strides[0] !== 1 || a.strides[1] !== 1) return false;
  const [h, w] = [xShape[2]!, xShape[3]!];
  const [ho, wo] = [gShape[2]!, gShape[3]!];
  const [pt, pl] = a.pads;
  const fits = (begin: number, end: number, size: number) => -begin < size && -end < size;
  for (let q = 0; q < kernel[1]; q++) if (!fits(pl - q * a.dilations[1], wo - w - pl + q * a.dilations[1], w)) return false;
  for (let p = 0; p < kernel[0]; p++) if (!fits(p * a.dilations[0] - pt, h - ho - p * a.dilations[0] + pt, ho)) return false;
  return true;
}

/**
 * Whether the shifted-copies recipe should replace im2col + GEMM: it applies, and its copies,
 * (kh·Co + kw·Ci)·H·Wo elements (row-shifted dY, column-shifted x), are fewer than TWICE im2col's kh·kw·Ci·Ho·Wo
 * (per image). The factor: the copies are Pads and a Concat (≈ 0.5 ns per element here), while im2col is a one-hot
 * convolution that builds its own columns and runs a GEMM (≈ 0.8 ns per element; LeNet, issue 24 round seven).
 * True for ResNet's 3×3 "same" layers (6C·HW against 9C·HW: −12 % CPU per ResNet-20 step) and, since round seven,
 * for LeNet's 5×5 layers (1 → 6: 35 vs 25 per pixel; 6 → 16: 15,400 vs 15,000 per image; LeNet step paired 0.973);
 * false for a 1- or 3-channel 3×3 stem (51 vs 18, 57 vs 54 per pixel).
 */
export function convWeightGradShiftedPreferred(xShape: readonly number[], gShape: readonly number[], wShape: readonly number[], a: Window2d): boolean {
  const [co, ci, kh, kw] = wShape as [number, number, number, number];
  if (kh * kw <= 1 || !convWeightGradShiftedApplies(xShape, gShape, [kh, kw], a)) return false;
  const [h, ho, wo] = [xShape[2]!, gShape[2]!, gShape[3]!];
  return (kh * co + kw * ci) * h * wo < 2 * kh * kw * ci * ho * wo;
}
