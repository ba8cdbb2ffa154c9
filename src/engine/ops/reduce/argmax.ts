import { apply1 } from '../../ir/apply.js';
import type { Primitive } from '../../ir/primitive.js';
import { normalizeAxis } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { reducedShape } from '../../reference/kernels.js';
import { checkDType } from '../math/elementwise.js';

/** Attributes of argmax/argmin. */
export interface ArgAttrs {
  readonly axis: number;
  readonly keepdims: boolean;
}

/** An arg-extremum primitive (ONNX ArgMax/ArgMin, select_last_index = 0): int64 indices, first index on ties. */
export function defineArgExtremum(name: string, onnx: string, better: (v: number, best: number) => boolean): Primitive<ArgAttrs> {
  return {
    name,
    infer([x], { axis, keepdims }) {
      checkDType(name, x!.dtype, 'numeric');
      return [{ dtype: 'int64', shape: reducedShape(x!.shape, [axis], keepdims) }];
    },
    emit(node, ctx) {
      ctx.node(onnx, node.inputs, node.outputs, {
        axis: { type: 'int', value: node.attrs.axis },
        keepdims: { type: 'int', value: node.attrs.keepdims ? 1 : 0 },
        select_last_index: { type: 'int', value: 0 },
      });
    },
    reference([x], { axis, keepdims }) {
      // Strict comparison while scanning forward keeps the first index on ties.
      const d = x!.shape[axis]!;
      const inner = x!.shape.slice(axis + 1).reduce((a, b) => a * b, 1);
      const outer = x!.shape.slice(0, axis).reduce((a, b) => a * b, 1);
      const idx = new Float64Array(outer * inner);
      for (let o = 0; o < outer; o++) {
        for (let q = 0; q < inner; q++) {
          let best = x!.data[o * d * inner + q]!;
          let at = 0;
          for (let i = 1; i < d; i++) {
            const v = x!.data[(o * d + i) * inner + q]!;
            if (better(v, best)) {
              best = v;
              at = i;
            }
          }
          idx[o * inner + q] = at;
        }
      }
      return [{ dtype: 'int64', shape: reducedShape(x!.shape, [axis], keepdims), data: idx }];
    },
    formatAttrs: (a) => `axis=${a.axis}${a.keepdims ? ' keepdims' : ''}`,
  };
}

/**
 * Index of the largest element along `axis` (int64; ties → the FIRST index, as PyTorch and NumPy; NaN counts
 * as the largest, as PyTorch). Not differentiable.
 */
export const argmaxOp = defineArgExtremum('argmax', 'ArgMax', (v, best) => v > best || (Number.isNaN(v) && !Number.isNaN(best)));

/** Index (int64) of the maximum along `axis`, first index on ties. */
export function argmax(x: Tensor, axis = -1, keepdims = false): Tensor {
  return apply1(argmaxOp, [x], { axis: normalizeAxis('argmax', axis, x.rank), keepdims: keepdims === true });
}
