import type { DType } from './dtype.js';
import type { Shape } from './shape.js';
import type { Tensor } from './tensor.js';

/** Element type and static shape of a value. */
export interface TensorType {
  readonly dtype: DType;
  readonly shape: Shape;
}

/**
 * A value of the float64 reference evaluator: every element type is held as float64 numbers (integers exactly,
 * booleans as 0/1), row-major.
 */
export interface HostTensor extends TensorType {
  readonly data: Float64Array;
}

/** An ONNX node attribute, typed explicitly (an integer-valued float must still be a FLOAT). */
export type OnnxAttribute =
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'ints'; readonly value: readonly number[] }
  | { readonly type: 'floats'; readonly value: readonly number[] }
  | { readonly type: 'tensor'; readonly dtype: DType; readonly shape: Shape; readonly value: ArrayLike<number> };

/** What a primitive's `emit` sees of its node: ONNX value names and types of inputs and outputs. */
export interface EmitNode<A> {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly inputTypes: readonly TensorType[];
  readonly outputTypes: readonly TensorType[];
  readonly attrs: A;
}

/** Services the ONNX emitter offers to a primitive's `emit`. */
export interface EmitContext {
  /** Append an ONNX node (domain '' = ai.onnx opset 18, 'com.microsoft' for contrib ops). */
  node(opType: string, inputs: readonly string[], outputs: readonly string[], attrs?: Record<string, OnnxAttribute>, domain?: string): void;
  /** A fresh intermediate value name. */
  temp(hint?: string): string;
  /**
   * An initializer holding `values` (shared with identical small constants unless `unique`: see the
   * BatchNormalization gotcha in ENGINE-NOTES.md, which needs distinct initializers per node).
   */
  constant(dtype: DType, shape: Shape, values: ArrayLike<number>, options?: { unique?: boolean }): string;
  /** A 1-D int64 initializer (axes, shapes, starts/ends), shared. */
  int64s(values: readonly number[]): string;
  /** 0, 1, 2, … : a number unique within this model (to make initializers differ in content). */
  serial(): number;
  /**
   * Channel block of ORT's NCHWc convolution kernels (com.microsoft.nchwc) that this lowering may use, or 0 for
   * portable ONNX only (exported models). Set by the in-process runtime from a probe of the loaded ORT.
   */
  readonly nchwcBlock: number;
}

/** Arguments of a vector–Jacobian product rule. */
export interface VjpArgs<A> {
  /** The node's primal inputs. */
  readonly inputs: readonly Tensor[];
  /** The node's primal outputs (reuse them: e.g. exp's rule multiplies by its own output). */
  readonly outputs: readonly Tensor[];
  /** Cotangent of each output (same shape and dtype as the output), or null where none flows back. */
  readonly cotangents: readonly (Tensor | null)[];
  readonly attrs: A;
}

/**
 * A primitive op: the closed set the tracer records and every backend understands. Declared once, in one file,
 * with all of its rules (JAX-style): `infer` is the shape/dtype rule (throwing `ShapeError` at trace time),
 * `emit` the ONNX lowering, `vjp` the gradient (expressed with traced ops; it may return cotangents in the
 * broadcast output shape — the autodiff driver sums them back to each input's shape and accumulates), and
 * `reference` the float64 plain-TypeScript implementation used by the reference evaluator.
 */
export interface Primitive<A = unknown> {
  readonly name: string;
  infer(inputs: readonly TensorType[], attrs: A): TensorType[];
  emit(node: EmitNode<A>, ctx: EmitContext): void;
  /** Absent: the op is not differentiable (its outputs are integer/boolean or piecewise constant). */
  readonly vjp?: (args: VjpArgs<A>) => readonly (Tensor | null)[];
  reference(inputs: readonly HostTensor[], attrs: A): HostTensor[];
  /** False for ops that must stay in the graph even when every input is constant (e.g. `fill`). */
  readonly foldable?: boolean;
  /** Compact attribute text for the printer (default: JSON). */
  formatAttrs?(attrs: A): string;
}
