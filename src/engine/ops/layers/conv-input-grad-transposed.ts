import type { Conv2dAttrs } from './conv2d.js';

/**
 * Whether a stride-1 convolution's input gradient should run as ONE ConvTranspose(dY, W) instead of the usual
 * convolution of dY with the transposed, flipped kernel. Both are the same sum; they differ in the columns ORT's
 * portable kernels materialise per image: the flipped Conv builds an im2col of dY, Co·kh·kw × H·W (its output is
 * the input's size), while ConvTranspose runs a GEMM Wᵀ·dY into Ci·kh·kw × Ho·Wo columns and scatters them back
 * (Col2Im). When the layer widens the channels (Ci < Co, e.g. LeNet's 6 → 16 5×5 valid layer: 600 vs 3,136 column
 * entries per tap) ConvTranspose moves several times less memory, and the Conv's GEMM has only Ci rows. Layers
 * that run on ORT's NCHWc kernels (both channel counts multiples of 8: ResNet's) keep the flipped Conv, which the
 * blocked kernels run directly. Measured in the issue-24 notebook, round seven (src/engine/README.md).
 */
export function convInputGradTransposedPreferred(xShape: readonly number[], gShape: readonly number[], wShape: readonly number[], a: Conv2dAttrs): boolean {
  if (a.group !== 1) return false;
  const [co, ci] = wShape as [number, number];
  if (co % 8 === 0 && ci % 8 === 0) return false;
  const flippedColumns = co * xShape[2]! * xShape[3]!;
  const transposedColumns = ci * gShape[2]! * gShape[3]!;
  return 2 * transposedColumns <= flippedColumns;
}
