import { formatShape, type Shape, sameShape } from '../ir/shape.js';
import type { Tensor } from '../ir/tensor.js';
import { reshape } from '../ops/shape/reshape.js';
import { sum } from '../ops/reduce/sum.js';

/**
 * Sum a cotangent of a broadcast result back to an operand's `shape` (the inverse of NumPy broadcasting):
 * reduce the leading axes the operand lacks and the axes where it has size 1. The autodiff driver applies this
 * to every rule's result, so no rule un-broadcasts for itself.
 */
export function sumTo(g: Tensor, shape: Shape): Tensor {
  if (sameShape(g.shape, shape)) return g;
  const lead = g.rank - shape.length;
  if (lead < 0) throw new Error(`internal: cannot sum ${formatShape(g.shape)} to the larger ${formatShape(shape)}`);
  const axes: number[] = [];
  for (let i = 0; i < g.rank; i++) {
    if (i < lead || (shape[i - lead] === 1 && g.shape[i] !== 1)) axes.push(i);
    else if (shape[i - lead] !== g.shape[i]) throw new Error(`internal: cannot sum ${formatShape(g.shape)} to ${formatShape(shape)}`);
  }
  return reshape(sum(g, axes, false), shape);
}
