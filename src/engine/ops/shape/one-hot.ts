import { apply1 } from '../../ir/apply.js';
import { type DType, isInteger, isDType, ONNX_DTYPE } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';

/** Depth (number of classes) and output type of one-hot. */
export interface OneHotAttrs {
  readonly depth: number;
  readonly dtype: DType;
}

/**
 * out[..., k] = 1 if indices[...] = k else 0, for k < depth; indices outside [0, depth) give a zero row.
 * Lowered as Cast(Equal(Unsqueeze(indices, −1), [0, …, depth−1])) (ORT's OneHot kernel lacks many type
 * combinations). Not differentiable.
 */
export const oneHotOp: Primitive<OneHotAttrs> = {
  name: 'oneHot',
  infer([i], { depth, dtype }) {
    if (!isInteger(i!.dtype)) shapeError('oneHot', `indices must be int32 or int64, got ${i!.dtype}`);
    return [{ dtype, shape: [...i!.shape, depth] }];
  },
  emit(node, ctx) {
    const it = node.inputTypes[0]!;
    const col = ctx.temp('onehot_col');
    const eq = ctx.temp('onehot_eq');
    ctx.node('Reshape', [node.inputs[0]!, ctx.int64s([...it.shape, 1])], [col]);
    const range = Array.from({ length: node.attrs.depth }, (_, k) => k);
    ctx.node('Equal', [col, ctx.constant(it.dtype, [node.attrs.depth], range)], [eq]);
    ctx.node('Cast', [eq], node.outputs, { to: { type: 'int', value: ONNX_DTYPE[node.attrs.dtype] } });
  },
  reference([i], { depth, dtype }) {
    const out = new Float64Array(i!.data.length * depth);
    i!.data.forEach((v, j) => {
      if (v >= 0 && v < depth) out[j * depth + v] = 1;
    });
    return [{ dtype, shape: [...i!.shape, depth], data: out }];
  },
  formatAttrs: (a) => `depth=${a.depth} ${a.dtype}`,
};

/** One-hot encoding of integer `indices` over `depth` classes (default float32). */
export function oneHot(indices: Tensor, depth: number, dtype: DType = 'float32'): Tensor {
  if (!Number.isInteger(depth) || depth < 1) shapeError('oneHot', `depth must be a positive integer, got ${depth}`);
  if (!isDType(dtype)) shapeError('oneHot', `unknown dtype ${JSON.stringify(dtype)}`);
  return apply1(oneHotOp, [indices], { depth, dtype });
}
