import type { DType } from './dtype.js';
import type { Shape } from './shape.js';
import { shapeSize } from './shape.js';
import type { HostTensor, Primitive } from './primitive.js';
import { Node, Tensor } from './tensor.js';

/** Constants with more elements than this are not folded (they would bloat the model); the op stays a node. */
export const FOLD_LIMIT = 1 << 16;

/**
 * Record one application of `op` and return its output tensors. The shape rule runs first (so errors surface
 * at trace time, naming the op). When every input is a constant and the result is small, the op is evaluated
 * now with its float64 reference implementation, rounded to the output type, and becomes a constant.
 */
export function apply<A>(op: Primitive<A>, inputs: readonly Tensor[], attrs: A): Tensor[] {
  const types = op.infer(inputs, attrs);
  const foldable = op.foldable !== false && inputs.length > 0 && inputs.every((t) => t.source.kind === 'constant');
  if (foldable && types.every((t) => shapeSize(t.shape) <= FOLD_LIMIT)) {
    const host = inputs.map(hostOfConstant);
    const outs = op.reference(host, attrs);
    return outs.map((o, i) => constantTensor(types[i]!.dtype, types[i]!.shape, o.data));
  }
  const node = new Node(op, inputs, attrs);
  const outputs = types.map((t, index) => new Tensor(t.dtype, t.shape, { kind: 'node', node, index }));
  node.outputs = outputs;
  return outputs;
}

/** `apply` for single-output ops. */
export function apply1<A>(op: Primitive<A>, inputs: readonly Tensor[], attrs: A): Tensor {
  return apply(op, inputs, attrs)[0]!;
}

/** A constant tensor; values are rounded to `dtype` (float32 by Math.fround, integers toward zero, bool ≠ 0). */
export function constantTensor(dtype: DType, shape: Shape, values: ArrayLike<number>): Tensor {
  return new Tensor(dtype, shape, { kind: 'constant', data: roundToDType(dtype, values) });
}

/** Values as they are representable in `dtype`, held as float64. */
export function roundToDType(dtype: DType, values: ArrayLike<number>): Float64Array {
  const out = new Float64Array(values.length);
  switch (dtype) {
    case 'float64':
      out.set(values);
      break;
    case 'float32':
      for (let i = 0; i < out.length; i++) out[i] = Math.fround(values[i]!);
      break;
    case 'bool':
      for (let i = 0; i < out.length; i++) out[i] = values[i] !== 0 && !Number.isNaN(values[i]!) ? 1 : 0;
      break;
    default:
      for (let i = 0; i < out.length; i++) out[i] = Math.trunc(values[i]!);
  }
  return out;
}

/** The reference-evaluator view of a constant tensor. */
export function hostOfConstant(t: Tensor): HostTensor {
  if (t.source.kind !== 'constant') throw new Error(`internal: ${t.toString()} is not a constant`);
  return { dtype: t.dtype, shape: t.shape, data: t.source.data };
}
