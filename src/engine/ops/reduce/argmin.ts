import { apply1 } from '../../ir/apply.js';
import { normalizeAxis } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { defineArgExtremum } from './argmax.js';

/** Index of the smallest element along `axis` (int64; ties → the first index; NaN counts as the smallest). */
export const argminOp = defineArgExtremum('argmin', 'ArgMin', (v, best) => v < best || (Number.isNaN(v) && !Number.isNaN(best)));

/** Index (int64) of the minimum along `axis`, first index on ties. */
export function argmin(x: Tensor, axis = -1, keepdims = false): Tensor {
  return apply1(argminOp, [x], { axis: normalizeAxis('argmin', axis, x.rank), keepdims: keepdims === true });
}
