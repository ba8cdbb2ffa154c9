import { apply1 } from '../../ir/apply.js';
import { isInteger } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { cast } from '../logic/cast.js';
import { checkDType, ct0 } from './elementwise.js';
import { greaterEqual } from '../logic/greater-equal.js';
import { lessEqual } from '../logic/less-equal.js';
import { logicalAnd } from '../logic/logical-and.js';
import { mul } from './mul.js';

/** Bounds of `clip`. */
export interface ClipAttrs {
  readonly min: number;
  readonly max: number;
}

/**
 * Element-wise min(max(x, min), max) (ONNX Clip with scalar bound inputs; NaN stays NaN). VJP: g where
 * min ≤ x ≤ max, else 0 (PyTorch clamp convention: the bounds themselves pass the gradient).
 */
export const clipOp: Primitive<ClipAttrs> = {
  name: 'clip',
  infer([x], { min, max }) {
    checkDType('clip', x!.dtype, 'numeric');
    if (Number.isNaN(min) || Number.isNaN(max) || min > max) shapeError('clip', `bounds must satisfy min ≤ max, got [${min}, ${max}]`);
    if (isInteger(x!.dtype) && (!Number.isFinite(min) || !Number.isFinite(max))) shapeError('clip', `integer tensors need finite bounds, got [${min}, ${max}]`);
    return [{ dtype: x!.dtype, shape: x!.shape }];
  },
  emit(node, ctx) {
    const dtype = node.inputTypes[0]!.dtype;
    ctx.node('Clip', [node.inputs[0]!, ctx.constant(dtype, [], [node.attrs.min]), ctx.constant(dtype, [], [node.attrs.max])], node.outputs);
  },
  vjp: (args) => {
    const g = ct0(args);
    const x = args.inputs[0]!;
    const inside = logicalAnd(greaterEqual(x, args.attrs.min), lessEqual(x, args.attrs.max));
    return [mul(g, cast(inside, g.dtype))];
  },
  reference([x], { min, max }) {
    const out = x!.data.map((v) => Math.min(Math.max(v, min), max));
    return [{ dtype: x!.dtype, shape: x!.shape, data: out }];
  },
  formatAttrs: (a) => `min=${a.min} max=${a.max}`,
};

/** Clamp x to [min, max] element-wise (±Infinity allowed for floats). */
export function clip(x: Tensor, min: number, max: number): Tensor {
  if (typeof min !== 'number' || typeof max !== 'number') shapeError('clip', `bounds must be numbers, got ${typeof min} and ${typeof max}`);
  return apply1(clipOp, [x], { min, max });
}
