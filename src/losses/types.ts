import type { Tensor } from '../engine/index.js';

/**
 * Shared types of the calibration losses (src/losses). Every loss is a pure function of engine tensors
 * `(logits, targets, options) → { loss, terms }`, usable inside a traced train step (one graph).
 *
 * Shapes: logits are [N, C] (classification) or dense [N, C, d1, …] (e.g. segmentation [N, C, H, W], class axis 1);
 * labels are [N] or [N, d1, …]. Dense predictions are flattened to M = N·d1·… rows of C logits (row order
 * (n, d1, …), row-major); positions whose label equals `ignoreIndex` are left out of every sum and mean.
 */

/**
 * CRL correctness history of the samples in the batch (Moon et al. 2020, official code `crl_utils.History`):
 * h_i = (counts_i − min) / max(epochs − min, 1).
 */
export interface CorrectnessHistoryInput {
  /** How many times each sample of the batch was classified correctly so far, shape [N] (any numeric dtype). */
  readonly counts: Tensor;
  /** Number of epochs the counts were accumulated over (≥ 1): a number, or a scalar tensor fed per step. */
  readonly epochs: Tensor | number;
  /** Smallest count over the whole training set (the official code's normalisation); default 0. */
  readonly min?: Tensor | number;
}

/** Targets of a loss. */
export interface LossTargets {
  /**
   * Integer class labels (int32 or int64), shape [N] for logits [N, C] or [N, d1, …] for dense logits. Required by
   * label-only losses (focal, FLSD-53, CPC, CRL); with soft targets they only mark ignored positions.
   */
  readonly labels?: Tensor;
  /**
   * Soft targets q̃ (each row sums to 1; e.g. mixup λ q_i + (1−λ) q_j), same shape and dtype as the logits. When
   * given they define the targets: CE becomes soft-label CE, and the "correctness" used by batch-level terms
   * becomes a_i = q̃_{i,ŷ_i} (= λ·1[ŷ = y_i] + (1 − λ)·1[ŷ = y_j] for mixup, the accuracy ARC uses on mixed images).
   */
  readonly soft?: Tensor;
  /** CRL only: the correctness history of the batch. */
  readonly history?: CorrectnessHistoryInput;
}

/** A tensor of integer labels, or a targets record. */
export type LossTargetsLike = Tensor | LossTargets;

/** What every loss returns. All tensors have the logits' float dtype. */
export interface LossResult {
  /** The scalar objective. */
  readonly loss: Tensor;
  /**
   * Its parts, each a scalar, unweighted, for logging (e.g. MbLS: `ce` and `margin`, with loss = ce + α·margin); each
   * loss documents how `loss` is built from its terms.
   */
  readonly terms: Readonly<Record<string, Tensor>>;
  /**
   * Per-example losses only (set by `defineLoss` from the loss's declared rows): the loss of each row, shape [M]
   * (0 at ignored positions); loss = their mean over the counted rows.
   */
  readonly perExample?: Tensor;
}

/** Options every loss accepts. */
export interface CommonLossOptions {
  /** Label value marking positions to leave out (segmentation "void", e.g. 255). Default: none. */
  readonly ignoreIndex?: number;
}

/**
 * - 'primary': a complete objective on its own (CE, soft-label CE, LS, focal, FLSD-53, MSE).
 * - 'combined': a method the papers define as CE + its own term (MbLS, ACLS, ECP, ERL, CPC, CRL).
 * - 'term': a secondary calibration term, used as primary + β·term (SB-ECE, AvUC, S-AvUC, MMCE, MDCA, DCA, ARC).
 */
export type LossRole = 'primary' | 'combined' | 'term';

/**
 * - 'per-example': a mean of independent per-example values (the batch only averages). Such a loss declares only its
 *   rows (`perExample` in `defineLoss`); the ignore mask and the mean are applied once, by `defineLoss`.
 * - 'batch': a batch-level regulariser whose value couples the examples of the batch (bin statistics, kernels,
 *   class frequencies, pairs); its value depends on the batch composition and size.
 */
export type LossScope = 'per-example' | 'batch';
