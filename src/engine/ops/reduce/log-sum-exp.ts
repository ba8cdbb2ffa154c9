import { normalizeAxes } from '../../ir/shape.js';
import type { Tensor } from '../../ir/tensor.js';
import { add } from '../math/add.js';
import { exp } from '../math/exp.js';
import { log } from '../math/log.js';
import { max } from './max.js';
import { reshape } from '../shape/reshape.js';
import { stopGradient } from '../stop-gradient.js';
import { sub } from '../math/sub.js';
import { sum } from './sum.js';
import { reducedShape } from '../../reference/kernels.js';

/**
 * log Σ exp(x) over `axes`, computed as m + log Σ exp(x − m) with m = max x (stable for |x| ≫ 1). A composite.
 * Numeric trap (tinygrad): m is DETACHED — it cancels mathematically, and letting gradient flow through the
 * max would route a spurious ±1 through its argmax (and split it on ties); detached, the gradient is exactly
 * softmax(x). A row that is entirely −∞ gives NaN (as PyTorch).
 */
export function logSumExp(x: Tensor, axes?: number | readonly number[], keepdims = false): Tensor {
  const list = normalizeAxes('logSumExp', axes, x.rank);
  const m = stopGradient(max(x, list, true));
  const out = add(log(sum(exp(sub(x, m)), list, true)), m);
  return keepdims ? out : reshape(out, reducedShape(x.shape, list, false));
}
