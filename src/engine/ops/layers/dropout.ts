import { describe, InvalidArgumentError } from '../../../util/errors.js';
import type { Random } from '../../../util/random.js';
import { shapeError } from '../../ir/shape-error.js';
import { formatShape, sameShape } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { mul } from '../math/mul.js';

/**
 * Inverted dropout with an explicit mask: y = x · mask / (1 − p), mask ∈ {0, 1} drawn on the host (so runs are
 * reproducible: the mask is a graph input fed from the seeded `Random`, see `dropoutMask`). Gradient: the same
 * scaling of the cotangent (through mul). In inference simply do not call it.
 */
export function dropout(x: Tensor, mask: Tensor, p: number): Tensor {
  if (!(p >= 0 && p < 1)) shapeError('dropout', `p must be in [0, 1), got ${p}`);
  if (mask.dtype !== x.dtype || !sameShape(mask.shape, x.shape)) {
    shapeError('dropout', `mask must be ${x.dtype}${formatShape(x.shape)} like the input, got ${mask.dtype}${formatShape(mask.shape)}`);
  }
  return mul(mul(x, mask), 1 / (1 - p));
}

/** A dropout keep-mask of `size` elements: each 1 with probability 1 − p, else 0 (host side, seeded). */
export function dropoutMask(random: Random, size: number, p: number, into?: Float32Array): Float32Array {
  if (!(p >= 0 && p < 1)) throw new InvalidArgumentError('p', 'a probability in [0, 1)', describe(p));
  if (!Number.isInteger(size) || size < 0) throw new InvalidArgumentError('size', 'a non-negative integer', describe(size));
  const out = into ?? new Float32Array(size);
  if (out.length !== size) throw new InvalidArgumentError('into', `a Float32Array of length ${size}`, describe(into));
  for (let i = 0; i < size; i++) out[i] = random.uniform() >= p ? 1 : 0;
  return out;
}
