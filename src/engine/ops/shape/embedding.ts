import { isInteger } from '../../ir/dtype.js';
import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { gather } from './gather.js';

/**
 * Embedding lookup: table [V, D], ids (int32/int64, any shape, values in [0, V)) → [...ids.shape, D]
 * (ONNX Gather on axis 0). Gradient: rows of dY scatter-added into a zero [V, D] (ScatterND, reduction add),
 * so repeated ids accumulate.
 */
export function embedding(table: Tensor, ids: Tensor): Tensor {
  if (table.rank !== 2) shapeError('embedding', `table must be [V, D], got ${formatShape(table.shape)}`);
  if (!isInteger(ids.dtype)) shapeError('embedding', `ids must be int32 or int64, got ${ids.dtype}`);
  return gather(table, ids, 0);
}
