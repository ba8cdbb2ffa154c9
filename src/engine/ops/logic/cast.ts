import { apply1, roundToDType } from '../../ir/apply.js';
import { type DType, isDType, isFloat, ONNX_DTYPE } from '../../ir/dtype.js';
import type { Primitive } from '../../ir/primitive.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';

/** Target type of `cast`. */
export interface CastAttrs {
  readonly to: DType;
}

/**
 * Element-type conversion (ONNX Cast): floats → integers truncate toward zero, anything → bool is value ≠ 0,
 * bool → number is 0/1. VJP: between float types the cotangent is cast back; otherwise nothing flows.
 */
export const castOp: Primitive<CastAttrs> = {
  name: 'cast',
  infer: ([x], { to }) => [{ dtype: to, shape: x!.shape }],
  emit: (node, ctx) => ctx.node('Cast', node.inputs, node.outputs, { to: { type: 'int', value: ONNX_DTYPE[node.attrs.to] } }),
  vjp: (args) => {
    const x = args.inputs[0]!;
    const g = args.cotangents[0];
    return [g && isFloat(x.dtype) && isFloat(args.attrs.to) ? cast(g, x.dtype) : null];
  },
  // The reference evaluator holds every float in float64, so float ↔ float casts are exact there (rounding to
  // float32 would defeat finite-difference checks); casts to integers and bool round as ONNX does.
  reference: ([x], { to }) => [{ dtype: to, shape: x!.shape, data: isFloat(x!.dtype) && isFloat(to) ? x!.data : roundToDType(to, x!.data) }],
  formatAttrs: (a) => `to=${a.to}`,
};

/** Convert x to `dtype` (returns x itself when it already has it). */
export function cast(x: Tensor, dtype: DType): Tensor {
  if (!isDType(dtype)) shapeError('cast', `unknown dtype ${JSON.stringify(dtype)}`);
  if (x.dtype === dtype) return x;
  return apply1(castOp, [x], { to: dtype });
}
