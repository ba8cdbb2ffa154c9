import { normalizeAxes } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { reshape } from './reshape.js';

/** Insert size-1 axes at `axes` (positions in the OUTPUT, negative counted from its end). A reshape. */
export function unsqueeze(x: Tensor, axes: number | readonly number[]): Tensor {
  const count = typeof axes === 'number' ? 1 : axes.length;
  const list = normalizeAxes('unsqueeze', axes, x.rank + count);
  const shape: number[] = [];
  let j = 0;
  for (let i = 0; i < x.rank + count; i++) shape.push(list.includes(i) ? 1 : x.shape[j++]!);
  return reshape(x, shape);
}
