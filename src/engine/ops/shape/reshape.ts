import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { formatShape, sameShape, shapeSize } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { ct0 } from '../math/elementwise.js';

/** Target shape of reshape (fully resolved, no −1). */
export interface ReshapeAttrs {
  readonly shape: readonly number[];
}

/** Same elements, new shape (row-major order kept; ONNX Reshape). VJP: reshape back. */
export const reshapeOp: Primitive<ReshapeAttrs> = {
  name: 'reshape',
  infer: ([x], { shape }) => [{ dtype: x!.dtype, shape }],
  emit: (node, ctx) => ctx.node('Reshape', [node.inputs[0]!, ctx.int64s(node.attrs.shape)], node.outputs),
  vjp: (args) => [reshape(ct0(args), args.inputs[0]!.shape)],
  reference: ([x], { shape }) => [{ dtype: x!.dtype, shape, data: x!.data }],
  formatAttrs: (a) => formatShape(a.shape),
};

/** Reshape to `shape`; one entry may be −1 (inferred). Returns x itself when the shape is unchanged. */
export function reshape(x: Tensor, shape: readonly number[]): Tensor {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= -1)) {
    shapeError('reshape', `shape must be integers ≥ −1, got ${JSON.stringify(shape)}`);
  }
  const unknown = shape.filter((d) => d === -1).length;
  if (unknown > 1) shapeError('reshape', `at most one −1 allowed, got ${formatShape(shape)}`);
  const known = shape.reduce((acc, d) => (d === -1 ? acc : acc * d), 1);
  let resolved = [...shape];
  if (unknown === 1) {
    if (known === 0 || x.size % known !== 0) shapeError('reshape', `cannot reshape ${formatShape(x.shape)} (${x.size} elements) to ${formatShape(shape)}`);
    resolved = shape.map((d) => (d === -1 ? x.size / known : d));
  }
  if (shapeSize(resolved) !== x.size) {
    shapeError('reshape', `cannot reshape ${formatShape(x.shape)} (${x.size} elements) to ${formatShape(shape)} (${shapeSize(resolved)} elements)`);
  }
  if (sameShape(resolved, x.shape)) return x;
  return apply1(reshapeOp, [x], { shape: resolved });
}
