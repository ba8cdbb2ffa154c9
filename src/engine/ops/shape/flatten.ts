import { shapeSize } from '../../ir/shape.js';
import { normalizeAxis } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { reshape } from './reshape.js';

/** Collapse axes [0, axis) and [axis, rank) into a 2-D [outer, inner] tensor (ONNX Flatten semantics; a reshape). */
export function flatten(x: Tensor, axis = 1): Tensor {
  const a = x.rank === 0 ? 0 : normalizeAxis('flatten', axis, x.rank + 1);
  return reshape(x, [shapeSize(x.shape.slice(0, a)), shapeSize(x.shape.slice(a))]);
}
