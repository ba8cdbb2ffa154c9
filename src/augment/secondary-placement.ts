/**
 * Where a secondary calibration term is computed when training with mixup (Maroñas et al. 2021, §4 and §5;
 * METHODS.md "ARC placement"):
 *
 * - 'mixed':   the term sees the mixup batch x̃ with its mixed targets q̃ (accuracy a_i = q̃_{i,ŷ_i}
 *              = λ·1[ŷ = y_i] + (1 − λ)·1[ŷ = y_π(i)]). No extra rows.
 * - 'sources': the term sees the unmixed source images. With the permutation form of mixup the two source
 *              batches x1 = x and x2 = x[π] hold the same samples, and every term is a function of the batch's
 *              multiset of (logits, label) pairs, so the term over the union {x1, x2} equals the term over x:
 *              one extra forward pass on the clean batch, with hard labels. (Summing two separate terms on x1
 *              and x2, as gradient accumulation over two passes would, is the same with weight 2β.)
 * - 'holdout': the term sees a batch of a held-out split of the training set (hard labels), while the primary
 *              loss sees the training batch (Maroñas et al.'s variant for datasets the network overfits).
 *
 * The extra rows ride in the same forward pass: the step's input is the concatenation [main rows; extra rows]
 * ([B + B_a, …]); the primary loss takes logits rows [0, B) and the secondary term rows [B, B + B_a).
 * Differences from separate forward passes: none for models without batch statistics; with batch norm, the
 * normalisation statistics (and the running-statistics update) are taken over the concatenated batch.
 */
import { type Tensor } from '../engine/index.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';

/** Rows of a concatenated batch: the primary loss's and the secondary term's. */
export interface SplitBatch {
  /** Logits [B, C] and targets (labels [B] or soft targets [B, C]) of the main rows. */
  readonly main: { readonly logits: Tensor; readonly targets: Tensor };
  /** Logits [B_a, C] and integer labels [B_a] of the extra rows (soft one-hot rows become their argmax). */
  readonly extra: { readonly logits: Tensor; readonly labels: Tensor };
}

/**
 * Split logits [B + B_a, C] and targets (int labels [B + B_a] or soft targets [B + B_a, C]) at row `mainRows` = B
 * (inside a traced step).
 */
export function splitRows(logits: Tensor, targets: Tensor, mainRows: number): SplitBatch {
  const total = logits.shape[0]!;
  const b = requireNumber('mainRows', mainRows, { integer: true, min: 1 });
  if (logits.rank !== 2 || total <= b) invalidArgument('logits', `[B + B_a, C] with more than ${b} rows`, `[${logits.shape.join(', ')}]`);
  if (targets.shape[0] !== total) invalidArgument('targets', `${total} rows (one per logits row)`, `[${targets.shape.join(', ')}]`);
  const rows = (t: Tensor, from: number, to: number): Tensor => t.slice([from], [to], [0]);
  const extraTargets = rows(targets, b, total);
  const labels = extraTargets.rank === 1 ? extraTargets : extraTargets.argmax(1);
  return {
    main: { logits: rows(logits, 0, b), targets: rows(targets, 0, b) },
    extra: { logits: rows(logits, b, total), labels },
  };
}

/** Host side: concatenate two row-major batches [B, …] and [B_a, …] of the same per-row size (a new array). */
export function appendRows<T extends Float32Array | Int32Array>(main: T, extra: T): T {
  if (main.constructor !== extra.constructor) invalidArgument('extra', `a ${main.constructor.name} like main`, describe(extra));
  const out = new (main.constructor as new (n: number) => T)(main.length + extra.length);
  out.set(main, 0);
  out.set(extra, main.length);
  return out;
}

/** Host side: the permutation of the concatenated batch, π on the main rows and the identity on `extra` rows. */
export function extendPermutation(perm: Int32Array, extra: number): Int32Array {
  requireNumber('extra', extra, { integer: true, min: 0 });
  const out = new Int32Array(perm.length + extra);
  out.set(perm, 0);
  for (let i = perm.length; i < out.length; i++) out[i] = i;
  return out;
}
