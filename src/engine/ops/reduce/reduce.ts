/**
 * Shared rules of the reduction primitives (sum, mean, max, min): axes normalisation, the shape rule, ONNX
 * lowering to Reduce* with an `axes` input (opset 18), and the reference loop.
 */
import { apply1 } from '../../ir/apply.js';
import type { EmitContext, EmitNode, HostTensor, OnnxAttribute, Primitive, VjpArgs } from '../../ir/primitive.js';
import { normalizeAxes } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { reduceAxes, reducedShape } from '../../reference/kernels.js';
import { checkDType } from '../math/elementwise.js';

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
      emitReduction(spec.onnx, node, ctx);
    },
    reference([x], { axes, keepdims }): HostTensor[] {
      const r = reduceAxes(x!, axes, spec.init, spec.step, spec.finish);
      return [{ dtype: x!.dtype, shape: reducedShape(x!.shape, axes, keepdims), data: r.data }];
    },
    formatAttrs: (a) => `axes=[${a.axes.join(',')}]${a.keepdims ? ' keepdims' : ''}`,
  };
  return spec.vjp ? { ...prim, vjp: spec.vjp } : prim;
}

/**
 * Splits sorted axes into maximal runs of consecutive axes, innermost run first: [0, 2] → [[2], [0]],
 * [0, 2, 3] → [[2, 3], [0]], [1, 2] → [[1, 2]].
 */
export function contiguousAxisRuns(axes: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const a of axes) {
    const last = runs[runs.length - 1];
    if (last && last[last.length - 1] === a - 1) last.push(a);
    else runs.push([a]);
  }
  return runs.reverse();
}

/**
 * Lowers a reduction. Axes that form one run of consecutive axes give one Reduce* node. Otherwise (batch-norm's
 * [0, 2] on [N, C, HW], a bias gradient's [0, 2, 3]) the runs are reduced one after the other, innermost first,
 * with keepdims, then reshaped to the output: ORT's Reduce over non-adjacent axes is the slow path (issue 24
 * notebook: ReduceSum [0, 2] of [128, 16, 1024] took 0.99 ms CPU, ReduceSum [2] then [0] 0.32 ms). The result is
 * the same reduction in another summation order (max/min: identical; sum/mean: float rounding only; mean of
 * equal-size group means is the mean).
 */
function emitReduction(onnx: string, node: EmitNode<ReduceAttrs>, ctx: EmitContext): void {
  const runs = contiguousAxisRuns(node.attrs.axes);
  const keepdims = (on: boolean): Record<string, OnnxAttribute> => ({ keepdims: { type: 'int', value: on ? 1 : 0 } });
  if (runs.length === 1) {
    ctx.node(onnx, [node.inputs[0]!, ctx.int64s(node.attrs.axes)], node.outputs, keepdims(node.attrs.keepdims));
    return;
  }
  let value = node.inputs[0]!;
  runs.forEach((run, i) => {
    const lastRun = i === runs.length - 1;
    const out = lastRun && node.attrs.keepdims ? node.outputs[0]! : ctx.temp(`${onnx.toLowerCase()}_part`);
    ctx.node(onnx, [value, ctx.int64s(run)], [out], keepdims(true));
    value = out;
  });
  if (!node.attrs.keepdims) ctx.node('Reshape', [value, ctx.int64s(node.outputTypes[0]!.shape)], node.outputs);
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
