import { invalidArgument } from '../../util/errors.js';
import type { Tensor } from '../../engine/index.js';
import { defineLoss } from '../define-loss.js';
import type { LossInput } from '../loss-input.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';

/** Width of the Laplacian kernel k(x, x') = exp(−|x − x'| / 0.4) of MMCE (Kumar et al. 2018 and every official code). */
export const MMCE_KERNEL_WIDTH = 0.4;

/** Largest number of rows for MMCE: the kernel is an M × M matrix (2^14 rows ⇒ 2^28 entries). */
export const MMCE_MAX_ROWS = 16384;

/**
 * Kernel matrix K_ij = exp(−|c_i − c_j| / 0.4) of the confidences c [M] → [M, M]. |·| has a kink at 0; its gradient
 * there is 0 (PyTorch's), which is exact on the diagonal.
 */
export function mmceKernel(input: LossInput, loss: string): Tensor {
  if (input.rows > MMCE_MAX_ROWS) {
    invalidArgument(`${loss}: logits`, `at most ${MMCE_MAX_ROWS} rows (the kernel is rows × rows; subsample dense predictions)`, `${input.rows} rows`);
  }
  const c = input.confidence;
  const m = input.rows;
  return c
    .reshape([m, 1])
    .sub(c.reshape([1, m]))
    .abs()
    .div(-MMCE_KERNEL_WIDTH)
    .exp();
}

/**
 * The declaration both MMCE terms share: batch-level terms (O(M²)) on labels or soft targets, no options, default
 * weight β = 2, the value of the focal-calibration code's MMCE runs (torrvision/focal_calibration; the MDCA script
 * uses 4).
 */
export const MMCE_TERM = { role: 'term', defaultWeight: 2, scope: 'batch', targets: 'labels-or-soft', options: {} } as const;

/**
 * MMCE, maximum mean calibration error (Kumar, Sarawagi & Jain, ICML 2018), unweighted, as in the
 * focal-calibration/MbLS code (`MMCE`; METHODS.md § Secondary terms):
 *   MMCE = Σ_{i,j} (a_i − c_i)(a_j − c_j) k(c_i, c_j) / M²,  k(x, x') = exp(−|x − x'| / 0.4),
 * the squared-MMD form without a square root (as in that code). Batch-level: couples every pair of the batch
 * (O(M²) time and memory). Terms: { mmce } (= loss). Use as primary + β·MMCE; the default β is 2, the value of the focal-calibration
 * code's MMCE runs (`defaultWeight`; the MDCA script uses 4).
 */
export const mmce = defineLoss({
  name: 'mmce',
  title: 'MMCE Σ (a_i − c_i)(a_j − c_j) k(c_i, c_j)/N², Laplacian kernel width 0.4 (Kumar et al. 2018)',
  ...MMCE_TERM,
  compute(input) {
    const kernel = mmceKernel(input, 'mmce');
    const d = input.masked(input.correct.sub(input.confidence)).reshape([input.rows, 1]); // [M, 1]
    const quad = kernel.matmul(d).mul(d).sum();
    const count = input.count;
    const loss = typeof count === 'number' ? quad.div(count * count) : quad.div(count.square());
    return { loss, terms: { mmce: loss } };
  },
});

/** Unweighted MMCE term of logits [N, C] against labels or soft targets; see `mmce`. */
export function mmceLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof mmce.options>): LossResult {
  return mmce.apply(logits, targets, options);
}
