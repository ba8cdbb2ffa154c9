import { constantTensor } from '../ir/apply.js';
import { type DType, dtypeOfHost, type HostArray, hostToFloat64, isDType } from '../ir/dtype.js';
import { checkShape, formatShape, shapeSize } from '../ir/shape.js';
import { shapeError } from '../ir/shape-error.js';
import type { Tensor } from '../ir/tensor.js';

/** Options of `constant`. */
export interface ConstantOptions {
  /** Shape (default: [n] for arrays, [] for a number). */
  readonly shape?: readonly number[];
  /** Element type (default: the typed array's, float32 for numbers and plain arrays). */
  readonly dtype?: DType;
}

/**
 * A constant tensor from host values. Constants become ONNX initializers; ops whose inputs are all constant
 * are folded at trace time. Values are rounded to the dtype (float32 by Math.fround).
 */
export function constant(values: number | readonly number[] | HostArray, options: ConstantOptions = {}): Tensor {
  const hostType = typeof values === 'number' || Array.isArray(values) ? null : dtypeOfHost(values);
  const dtype = options.dtype ?? hostType ?? 'float32';
  if (!isDType(dtype)) shapeError('constant', `unknown dtype ${JSON.stringify(dtype)}`);
  let data: ArrayLike<number>;
  if (typeof values === 'number') data = [values];
  else if (Array.isArray(values)) data = values as readonly number[];
  else if (hostType !== null) data = hostToFloat64(values as HostArray);
  else shapeError('constant', `values must be a number, an array of numbers or a typed array, got ${typeof values}`);
  const shape = options.shape ?? (typeof values === 'number' ? [] : [data.length]);
  checkShape('constant', shape);
  if (shapeSize(shape) !== data.length) shapeError('constant', `${data.length} values do not fill shape ${formatShape(shape)}`);
  return constantTensor(dtype, [...shape], data);
}

/** A scalar constant. */
export function scalar(value: number, dtype: DType = 'float32'): Tensor {
  return constant(value, { dtype, shape: [] });
}
