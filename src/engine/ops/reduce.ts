/**
 * Shared rules of the reduction primitives (sum, mean, max, min): axes normalisation, the shape rule, ONNX
 * lowering to Reduce* with an `axes` input (opset 18), and the reference loop.
 */
import { apply1 } from '../ir/apply.js';
import type { HostTensor, Primitive, VjpArgs } from '../ir/primitive.js';
import { normalizeAxes } from '../ir/shape.js';
import type { Tensor } from '../ir/tensor.js';
import { reduceAxes, reducedShape } from '../reference/kernels.js';
import { checkDType } from './elementwise.js';

/** Attributes of a reduction: normalised, sorted, non-empty axes. */
export interface ReduceAttrs {
  readonly axes: readonly number[];
  readonly keepdims: boolean;
}

/** Options for `defineReduction`. */
export interface ReductionSpec {
  name: string;
  onnx: string;
  init: number;
  step: (acc: number, value: number) => number;
  finish?: (acc: number, count: number) => number;
  vjp?: (args: VjpArgs<ReduceAttrs>) => readonly (Tensor | null)[];
}

/** A reduction primitive lowered to ONNX `Reduce*(x, axes)` with `keepdims`. */
export function defineReduction(spec: ReductionSpec): Primitive<ReduceAttrs> {
  const prim: Primitive<ReduceAttrs> = {
    name: spec.name,
    infer([x], { axes, keepdims }) {
      checkDType(spec.name, x!.dtype, 'numeric');
      return [{ dtype: x!.dtype, shape: reducedShape(x!.shape, axes, keepdims) }];
    },
    emit(node, ctx) {
      ctx.node(spec.onnx, [node.inputs[0]!, ctx.int64s(node.attrs.axes)], node.outputs, { keepdims: { type: 'int', value: node.attrs.keepdims ? 1 : 0 } });
    },
    reference([x], { axes, keepdims }): HostTensor[] {
      const r = reduceAxes(x!, axes, spec.init, spec.step, spec.finish);
      return [{ dtype: x!.dtype, shape: reducedShape(x!.shape, axes, keepdims), data: r.data }];
    },
    formatAttrs: (a) => `axes=[${a.axes.join(',')}]${a.keepdims ? ' keepdims' : ''}`,
  };
  return spec.vjp ? { ...prim, vjp: spec.vjp } : prim;
}

/** Apply a reduction; reducing no axes (a scalar input) returns x unchanged. */
export function reduce(op: Primitive<ReduceAttrs>, x: Tensor, axes: number | readonly number[] | undefined, keepdims: boolean): Tensor {
  const list = normalizeAxes(op.name, axes, x.rank);
  if (list.length === 0) return x;
  return apply1(op, [x], { axes: list, keepdims: keepdims === true });
}

/** Shape of the output with reduced axes kept as 1 (for broadcasting a cotangent back). */
export function keptShape(x: Tensor, attrs: ReduceAttrs): number[] {
  return reducedShape(x.shape, attrs.axes, true);
}
