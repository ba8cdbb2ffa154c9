import type { DType } from './dtype.js';
import type { Shape } from './shape.js';
import { formatShape, shapeSize } from './shape.js';
import type { Primitive, TensorType } from './primitive.js';
import * as F from '../ops/functional.js';

/** Where a tensor comes from: a graph input, a constant (folded into an initializer), or an op's output. */
export type TensorSource =
  { readonly kind: 'input'; readonly name: string } | { readonly kind: 'constant'; readonly data: Float64Array } | { readonly kind: 'node'; readonly node: Node; readonly index: number };

/** One application of a primitive: the graph's edge structure lives in `inputs` and `outputs`. */
export class Node {
  /** Set once, by `apply`, right after construction. */
  outputs: readonly Tensor[] = [];
  constructor(
    readonly op: Primitive<any>,
    readonly inputs: readonly Tensor[],
    readonly attrs: unknown,
  ) {}
}

/** A number is accepted wherever a tensor is and becomes a scalar constant of the other operand's dtype. */
export type TensorLike = Tensor | number;

/**
 * A symbolic tensor handle: element type, STATIC shape and the op that produces it. Ops on tensors record a
 * graph (nothing is computed, except that ops whose inputs are all constants are folded at trace time).
 * Tensors are immutable; the graph is the DAG reachable from a function's outputs, so unused work vanishes.
 * Methods mirror the functional `ops.*` (`x.matmul(w).add(b).relu()` ≡ `relu(add(matmul(x, w), b))`).
 */
export class Tensor implements TensorType {
  constructor(
    readonly dtype: DType,
    readonly shape: Shape,
    readonly source: TensorSource,
  ) {}

  /** Number of axes. */
  get rank(): number {
    return this.shape.length;
  }
  /** Number of elements. */
  get size(): number {
    return shapeSize(this.shape);
  }
  /** True for constants (folded at trace time). */
  get isConstant(): boolean {
    return this.source.kind === 'constant';
  }
  toString(): string {
    const where = this.source.kind === 'input' ? `input "${this.source.name}"` : this.source.kind === 'constant' ? 'constant' : this.source.node.op.name;
    return `Tensor<${this.dtype}${formatShape(this.shape)}> (${where})`;
  }

  // Element-wise arithmetic (NumPy broadcasting).
  add(other: TensorLike): Tensor {
    return F.add(this, other);
  }
  sub(other: TensorLike): Tensor {
    return F.sub(this, other);
  }
  mul(other: TensorLike): Tensor {
    return F.mul(this, other);
  }
  div(other: TensorLike): Tensor {
    return F.div(this, other);
  }
  pow(exponent: TensorLike): Tensor {
    return F.pow(this, exponent);
  }
  maximum(other: TensorLike): Tensor {
    return F.maximum(this, other);
  }
  minimum(other: TensorLike): Tensor {
    return F.minimum(this, other);
  }
  neg(): Tensor {
    return F.neg(this);
  }
  square(): Tensor {
    return F.mul(this, this);
  }
  exp(): Tensor {
    return F.exp(this);
  }
  log(): Tensor {
    return F.log(this);
  }
  tanh(): Tensor {
    return F.tanh(this);
  }
  sigmoid(): Tensor {
    return F.sigmoid(this);
  }
  relu(): Tensor {
    return F.relu(this);
  }
  abs(): Tensor {
    return F.abs(this);
  }
  sign(): Tensor {
    return F.sign(this);
  }
  sqrt(): Tensor {
    return F.sqrt(this);
  }
  floor(): Tensor {
    return F.floor(this);
  }
  clip(min: number, max: number): Tensor {
    return F.clip(this, min, max);
  }

  // Comparisons and logic (bool results).
  equal(other: TensorLike): Tensor {
    return F.equal(this, other);
  }
  less(other: TensorLike): Tensor {
    return F.less(this, other);
  }
  lessEqual(other: TensorLike): Tensor {
    return F.lessEqual(this, other);
  }
  greater(other: TensorLike): Tensor {
    return F.greater(this, other);
  }
  greaterEqual(other: TensorLike): Tensor {
    return F.greaterEqual(this, other);
  }
  logicalAnd(other: Tensor): Tensor {
    return F.logicalAnd(this, other);
  }
  logicalOr(other: Tensor): Tensor {
    return F.logicalOr(this, other);
  }
  logicalNot(): Tensor {
    return F.logicalNot(this);
  }

  // Linear algebra.
  matmul(other: Tensor, options?: F.MatmulOptions): Tensor {
    return F.matmul(this, other, options);
  }

  // Reductions (axes: one axis, a list, or all when omitted).
  sum(axes?: number | readonly number[], keepdims = false): Tensor {
    return F.sum(this, axes, keepdims);
  }
  mean(axes?: number | readonly number[], keepdims = false): Tensor {
    return F.mean(this, axes, keepdims);
  }
  max(axes?: number | readonly number[], keepdims = false): Tensor {
    return F.max(this, axes, keepdims);
  }
  min(axes?: number | readonly number[], keepdims = false): Tensor {
    return F.min(this, axes, keepdims);
  }
  argmax(axis = -1, keepdims = false): Tensor {
    return F.argmax(this, axis, keepdims);
  }
  argmin(axis = -1, keepdims = false): Tensor {
    return F.argmin(this, axis, keepdims);
  }
  logSumExp(axes?: number | readonly number[], keepdims = false): Tensor {
    return F.logSumExp(this, axes, keepdims);
  }
  softmax(axis = -1): Tensor {
    return F.softmax(this, axis);
  }
  logSoftmax(axis = -1): Tensor {
    return F.logSoftmax(this, axis);
  }

  // Layout.
  reshape(shape: readonly number[]): Tensor {
    return F.reshape(this, shape);
  }
  transpose(perm?: readonly number[]): Tensor {
    return F.transpose(this, perm);
  }
  slice(starts: readonly number[], ends: readonly number[], axes?: readonly number[], steps?: readonly number[]): Tensor {
    return F.slice(this, starts, ends, axes, steps);
  }
  expand(shape: readonly number[]): Tensor {
    return F.expand(this, shape);
  }
  flatten(axis = 1): Tensor {
    return F.flatten(this, axis);
  }
  squeeze(axes?: number | readonly number[]): Tensor {
    return F.squeeze(this, axes);
  }
  unsqueeze(axes: number | readonly number[]): Tensor {
    return F.unsqueeze(this, axes);
  }
  gather(indices: Tensor, axis = 0): Tensor {
    return F.gather(this, indices, axis);
  }
  takeAlongAxis(indices: Tensor, axis: number): Tensor {
    return F.takeAlongAxis(this, indices, axis);
  }
  cast(dtype: DType): Tensor {
    return F.cast(this, dtype);
  }

  /** Identity in the forward pass; no gradient flows through it. */
  stopGradient(): Tensor {
    return F.stopGradient(this);
  }
}
