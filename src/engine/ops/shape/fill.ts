import { apply1, constantTensor } from '../../ir/apply.js';
import { type DType, isDType } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { checkShape, formatShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';

/** Shape, value and type of a filled tensor. */
export interface FillAttrs {
  readonly shape: readonly number[];
  readonly value: number;
  readonly dtype: DType;
}

/**
 * A tensor filled with one value, materialised at run time (ONNX ConstantOfShape) so large zero buffers
 * (e.g. the target of a scatter-add in a gradient) do not bloat the model file. Never folded.
 */
export const fillOp: Primitive<FillAttrs> = {
  name: 'fill',
  foldable: false,
  infer: (_inputs, { shape, dtype }) => [{ dtype, shape }],
  emit(node, ctx) {
    const { shape, value, dtype } = node.attrs;
    ctx.node('ConstantOfShape', [ctx.int64s(shape)], node.outputs, { value: { type: 'tensor', dtype, shape: [1], value: [value] } });
  },
  reference: (_inputs, { shape, value, dtype }) => [{ dtype, shape, data: new Float64Array(shapeSize(shape)).fill(value) }],
  formatAttrs: (a) => `${formatShape(a.shape)} ${a.dtype} ${a.value}`,
};

/** Tensors up to this many elements become initializers; larger ones a ConstantOfShape node. */
const INLINE_LIMIT = 4096;

/** A `shape` tensor filled with `value` (default dtype float32). */
export function full(shape: readonly number[], value: number, dtype: DType = 'float32'): Tensor {
  checkShape('full', shape);
  if (!isDType(dtype)) shapeError('full', `unknown dtype ${JSON.stringify(dtype)}`);
  if (typeof value !== 'number') shapeError('full', `value must be a number, got ${typeof value}`);
  const n = shapeSize(shape);
  if (n <= INLINE_LIMIT) return constantTensor(dtype, [...shape], new Float64Array(n).fill(value));
  return apply1(fillOp, [], { shape: [...shape], value, dtype });
}

/** Zeros of `shape`. */
export function zeros(shape: readonly number[], dtype: DType = 'float32'): Tensor {
  return full(shape, 0, dtype);
}

/** Ones of `shape`. */
export function ones(shape: readonly number[], dtype: DType = 'float32'): Tensor {
  return full(shape, 1, dtype);
}

/** Zeros with x's shape and dtype. */
export function zerosLike(x: Tensor): Tensor {
  return full(x.shape, 0, x.dtype);
}
