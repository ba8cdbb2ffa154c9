import { formatShape, normalizeAxes } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { reshape } from './reshape.js';

/** Remove size-1 axes (`axes` omitted: all of them). A reshape. */
export function squeeze(x: Tensor, axes?: number | readonly number[]): Tensor {
  const list = axes === undefined ? x.shape.flatMap((d, i) => (d === 1 ? [i] : [])) : normalizeAxes('squeeze', axes, x.rank);
  list.forEach((a) => {
    if (x.shape[a] !== 1) shapeError('squeeze', `axis ${a} of ${formatShape(x.shape)} has size ${x.shape[a]}, not 1`);
  });
  return reshape(
    x,
    x.shape.filter((_, i) => !list.includes(i)),
  );
}
