import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { broadcastShapes, formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import { Tensor, type TensorLike } from '../../ir/tensor.js';
import { broadcastIndexMap } from '../../reference/kernels.js';
import { asTensor, ct0 } from '../math/elementwise.js';

/**
 * Element-wise select: cond ? a : b (three-way broadcasting; ONNX Where). VJP: (–, where(c, g, 0),
 * where(c, 0, g)). Pitfall (STYLE.md): a NaN/∞ in the unselected branch is harmless forward but its own
 * gradient may still be NaN — mask the inputs of a branch (e.g. clamp before log), not only its output.
 */
export const whereOp: Primitive<Record<string, never>> = {
  name: 'where',
  infer([c, a, b]) {
    if (c!.dtype !== 'bool') shapeError('where', `condition must be bool, got ${c!.dtype}`);
    if (a!.dtype !== b!.dtype) shapeError('where', `branches have dtypes ${a!.dtype}${formatShape(a!.shape)} and ${b!.dtype}${formatShape(b!.shape)}`);
    return [{ dtype: a!.dtype, shape: broadcastShapes('where', broadcastShapes('where', c!.shape, a!.shape), b!.shape) }];
  },
  emit: (node, ctx) => ctx.node('Where', node.inputs, node.outputs),
  vjp: (args) => {
    const g = ct0(args);
    const c = args.inputs[0]!;
    return [null, where(c, g, 0), where(c, 0, g)];
  },
  reference([c, a, b]) {
    const shape = broadcastShapes('where', broadcastShapes('where', c!.shape, a!.shape), b!.shape);
    const [ic, ia, ib] = [c!, a!, b!].map((t) => broadcastIndexMap(t.shape, shape)) as [Int32Array, Int32Array, Int32Array];
    const out = new Float64Array(ic.length);
    for (let k = 0; k < out.length; k++) out[k] = c!.data[ic[k]!] ? a!.data[ia[k]!]! : b!.data[ib[k]!]!;
    return [{ dtype: a!.dtype, shape, data: out }];
  },
};

/** cond ? a : b element-wise; numbers become constants of the other branch's dtype. */
export function where(cond: Tensor, a: TensorLike, b: TensorLike): Tensor {
  if (!(a instanceof Tensor) && !(b instanceof Tensor)) shapeError('where', 'at least one branch must be a Tensor');
  const dtype = a instanceof Tensor ? a.dtype : (b as Tensor).dtype;
  return apply1(whereOp, [cond, asTensor('where', a, dtype), asTensor('where', b, dtype)], {});
}
