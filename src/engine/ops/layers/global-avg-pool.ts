import { formatShape } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { mean } from '../reduce/mean.js';

/**
 * Global average pooling: x [N, C, H, W] → [N, C] (keepdims: [N, C, 1, 1]); a ReduceMean over the spatial
 * axes, whose VJP is the ENGINE-NOTES recipe (dY broadcast and multiplied by the constant 1/HW).
 */
export function globalAvgPool(x: Tensor, keepdims = false): Tensor {
  if (x.rank !== 4) shapeError('globalAvgPool', `input must be 4-D (NCHW), got ${formatShape(x.shape)}`);
  return mean(x, [2, 3], keepdims);
}
