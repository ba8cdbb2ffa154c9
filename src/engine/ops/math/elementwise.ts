/**
 * Shared rules of the element-wise primitives: operand coercion (numbers become scalar constants of the other
 * operand's dtype), dtype checks, NumPy broadcasting of shapes, and reference loops. Each element-wise op still
 * lives in its own file; this module only removes the repetition.
 */
import type { DType } from '../../ir/dtype.js';
import { isFloat, isInteger } from '../../ir/dtype.js';
import { broadcastShapes, formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { EmitContext, EmitNode, HostTensor, Primitive, TensorType, VjpArgs } from '../../ir/primitive.js';
import { Tensor, type TensorLike } from '../../ir/tensor.js';
import { constantTensor } from '../../ir/apply.js';
import { mapBinary } from '../../reference/kernels.js';

/** Which element types an op accepts. */
export type DTypeClass = 'float' | 'numeric' | 'bool' | 'any';

/** Throw unless `dtype` belongs to `accepts`. */
export function checkDType(op: string, dtype: DType, accepts: DTypeClass): void {
  const ok = accepts === 'any' || (accepts === 'float' && isFloat(dtype)) || (accepts === 'numeric' && (isFloat(dtype) || isInteger(dtype))) || (accepts === 'bool' && dtype === 'bool');
  if (!ok) {
    const want = accepts === 'float' ? 'a float32/float64' : accepts === 'numeric' ? 'a numeric (float or integer)' : 'a bool';
    shapeError(op, `expected ${want} tensor, got ${dtype}`);
  }
}

/** Turn a number into a scalar constant of `dtype`; pass tensors through. */
export function asTensor(op: string, x: TensorLike, dtype: DType): Tensor {
  if (x instanceof Tensor) return x;
  if (typeof x !== 'number') shapeError(op, `expected a Tensor or a number, got ${typeof x}`);
  return constantTensor(dtype, [], [x]);
}

/** Coerce two operands; at least one must be a tensor, numbers adopt its dtype. */
export function operandPair(op: string, a: TensorLike, b: TensorLike): [Tensor, Tensor] {
  if (!(a instanceof Tensor) && !(b instanceof Tensor)) shapeError(op, 'at least one operand must be a Tensor (got two numbers)');
  const dtype = a instanceof Tensor ? a.dtype : (b as Tensor).dtype;
  return [asTensor(op, a, dtype), asTensor(op, b, dtype)];
}

/** Shape/dtype rule of a broadcasting binary op. */
export function inferBinary(op: string, inputs: readonly TensorType[], accepts: DTypeClass, output: 'same' | 'bool'): TensorType[] {
  const [a, b] = inputs as [TensorType, TensorType];
  if (a.dtype !== b.dtype) {
    shapeError(op, `dtypes ${a.dtype}${formatShape(a.shape)} and ${b.dtype}${formatShape(b.shape)} differ (cast one operand explicitly)`);
  }
  checkDType(op, a.dtype, accepts);
  return [{ dtype: output === 'bool' ? 'bool' : a.dtype, shape: broadcastShapes(op, a.shape, b.shape) }];
}

/** Options for `defineBinary`. */
export interface BinarySpec {
  name: string;
  /** ONNX op type (ai.onnx). */
  onnx: string;
  accepts: DTypeClass;
  output: 'same' | 'bool';
  /** Reference scalar function (float64). */
  f: (x: number, y: number) => number;
  vjp?: (args: VjpArgs<Record<string, never>>) => readonly (Tensor | null)[];
}

/** A broadcasting binary primitive lowered to one ONNX node of the same arity. */
export function defineBinary(spec: BinarySpec): Primitive<Record<string, never>> {
  const prim: Primitive<Record<string, never>> = {
    name: spec.name,
    infer: (inputs) => inferBinary(spec.name, inputs, spec.accepts, spec.output),
    emit: (node: EmitNode<Record<string, never>>, ctx: EmitContext) => ctx.node(spec.onnx, node.inputs, node.outputs),
    reference: (inputs: readonly HostTensor[]) => {
      const [a, b] = inputs as [HostTensor, HostTensor];
      const shape = broadcastShapes(spec.name, a.shape, b.shape);
      const integer = isInteger(a.dtype);
      const f = integer ? (x: number, y: number) => Math.trunc(spec.f(x, y)) : spec.f;
      return [{ dtype: spec.output === 'bool' ? 'bool' : a.dtype, shape, data: mapBinary(a, b, shape, f) }];
    },
  };
  return spec.vjp ? { ...prim, vjp: spec.vjp } : prim;
}

/** Options for `defineUnary`. */
export interface UnarySpec {
  name: string;
  onnx: string;
  accepts: DTypeClass;
  f: (x: number) => number;
  vjp?: (args: VjpArgs<Record<string, never>>) => readonly (Tensor | null)[];
}

/** An element-wise unary primitive lowered to one ONNX node. */
export function defineUnary(spec: UnarySpec): Primitive<Record<string, never>> {
  const prim: Primitive<Record<string, never>> = {
    name: spec.name,
    infer: (inputs) => {
      const x = inputs[0]!;
      checkDType(spec.name, x.dtype, spec.accepts);
      return [{ dtype: x.dtype, shape: x.shape }];
    },
    emit: (node, ctx) => ctx.node(spec.onnx, node.inputs, node.outputs),
    reference: (inputs) => {
      const x = inputs[0]!;
      const out = new Float64Array(x.data.length);
      for (let i = 0; i < out.length; i++) out[i] = spec.f(x.data[i]!);
      return [{ dtype: x.dtype, shape: x.shape, data: out }];
    },
  };
  return spec.vjp ? { ...prim, vjp: spec.vjp } : prim;
}

/** The cotangent of output 0 (non-null whenever a vjp rule is called for a single-output op). */
export function ct0(args: VjpArgs<unknown>): Tensor {
  const g = args.cotangents[0];
  if (!g) throw new Error('internal: vjp called without a cotangent');
  return g;
}
