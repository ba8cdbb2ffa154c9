import { argmax, cast, equal, exp, logSoftmax, maximum, mul, logicalNot, oneHot, reshape, softmaxCrossEntropy, stopGradient, sum, takeAlongAxis, Tensor, transpose, where } from '../engine/index.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { LossTargets, LossTargetsLike } from './types.js';

/** Float dtypes a loss runs in. */
export type FloatDType = 'float32' | 'float64';

/**
 * The prepared input of a loss: logits flattened to rows [M, C] (class axis 1 of dense predictions moved last),
 * labels [M] (ignored positions replaced by class 0 so that gathers stay in range), soft targets [M, C], and a row
 * mask [M] (1 = counted, 0 = ignored; absent when no `ignoreIndex` is set). Derived quantities are built lazily, at
 * most once per input, so that losses combined on the same input share nodes (log-probabilities come for free
 * from the fused cross-entropy op).
 *
 * Notation (METHODS.md): p = softmax(z), confidence c_i = max_k p_ik, prediction ŷ_i = argmax_k z_ik (first index
 * on ties), correctness a_i = 1[ŷ_i = y_i] (or q̃_{i,ŷ_i} with soft targets; never differentiated).
 */
export class LossInput {
  /** Logits as rows, [M, C]. */
  readonly logits: Tensor;
  /** Labels as rows [M] (int32/int64), null with soft targets only. */
  readonly labels: Tensor | null;
  /** Soft targets as rows [M, C], or null. */
  readonly soft: Tensor | null;
  /** Row mask [M] in the logits' dtype (1 counted, 0 ignored), or null when every row counts. */
  readonly mask: Tensor | null;
  /** The targets record as given (for extra inputs such as CRL's history). */
  readonly targets: LossTargets;
  readonly rows: number;
  readonly classes: number;
  readonly dtype: FloatDType;
  /** Shape of the labels before flattening ([N] or [N, d1, …]). */
  readonly labelShape: readonly number[];

  private cache = new Map<string, Tensor>();

  private constructor(fields: { logits: Tensor; labels: Tensor | null; soft: Tensor | null; mask: Tensor | null; targets: LossTargets; labelShape: readonly number[] }) {
    this.logits = fields.logits;
    this.labels = fields.labels;
    this.soft = fields.soft;
    this.mask = fields.mask;
    this.targets = fields.targets;
    this.labelShape = fields.labelShape;
    this.rows = fields.logits.shape[0]!;
    this.classes = fields.logits.shape[1]!;
    this.dtype = fields.logits.dtype as FloatDType;
  }

  /**
   * Check and flatten `logits` ([N, C] or [N, C, d1, …], float32/float64, C ≥ 2) and `targets` for loss `loss`.
   * `needs` says which targets the loss requires: 'labels' (integer labels; soft targets rejected) or
   * 'labels-or-soft'. Shape and dtype mistakes are `InvalidArgumentError`s naming the argument.
   */
  static prepare(loss: string, logits: unknown, targets: LossTargetsLike, needs: 'labels' | 'labels-or-soft', ignoreIndex?: number): LossInput {
    if (!(logits instanceof Tensor)) invalidArgument(`${loss}: logits`, 'an engine Tensor', describe(logits));
    if (logits.dtype !== 'float32' && logits.dtype !== 'float64') invalidArgument(`${loss}: logits`, 'a float32 or float64 tensor', logits.dtype);
    if (logits.rank < 2) invalidArgument(`${loss}: logits`, 'shape [N, C] or [N, C, d1, …]', `[${logits.shape.join(', ')}]`);
    const [n, c] = logits.shape as [number, number];
    if (c < 2) invalidArgument(`${loss}: logits`, 'at least 2 classes (axis 1)', `[${logits.shape.join(', ')}]`);
    if (n < 1) invalidArgument(`${loss}: logits`, 'at least one example', `[${logits.shape.join(', ')}]`);
    const t: LossTargets = targets instanceof Tensor ? { labels: targets } : (targets ?? {});
    if (typeof t !== 'object') invalidArgument(`${loss}: targets`, 'a labels tensor or { labels, soft, history }', describe(targets));
    const spatial = logits.shape.slice(2);
    const labelShape = [n, ...spatial];
    const dense = logits.rank > 2;
    const rows = dense ? n * spatial.reduce((a, b) => a * b, 1) : n;
    const flat = dense ? reshape(transpose(logits, [0, ...spatial.map((_, i) => i + 2), 1]), [rows, c]) : logits;

    let labels: Tensor | null = null;
    let mask: Tensor | null = null;
    if (t.labels !== undefined) {
      const y = t.labels;
      if (!(y instanceof Tensor)) invalidArgument(`${loss}: labels`, 'an engine Tensor', describe(y));
      if (y.dtype !== 'int32' && y.dtype !== 'int64') invalidArgument(`${loss}: labels`, 'an int32 or int64 tensor', y.dtype);
      if (y.rank !== labelShape.length || y.shape.some((d, i) => d !== labelShape[i])) {
        invalidArgument(`${loss}: labels`, `shape [${labelShape.join(', ')}] for logits [${logits.shape.join(', ')}]`, `[${y.shape.join(', ')}]`);
      }
      const yr = dense ? reshape(y, [rows]) : y;
      if (ignoreIndex !== undefined) {
        const valid = logicalNot(equal(yr, ignoreIndex));
        labels = where(valid, yr, 0);
        mask = cast(valid, logits.dtype);
      } else labels = yr;
    }
    let soft: Tensor | null = null;
    if (t.soft !== undefined) {
      if (needs === 'labels') invalidArgument(`${loss}: targets`, 'integer labels (this loss does not take soft targets)', 'soft targets');
      const q = t.soft;
      if (!(q instanceof Tensor)) invalidArgument(`${loss}: soft targets`, 'an engine Tensor', describe(q));
      if (q.dtype !== logits.dtype) invalidArgument(`${loss}: soft targets`, `dtype ${logits.dtype} (the logits' dtype)`, q.dtype);
      if (q.rank !== logits.rank || q.shape.some((d, i) => d !== logits.shape[i])) {
        invalidArgument(`${loss}: soft targets`, `the logits' shape [${logits.shape.join(', ')}]`, `[${q.shape.join(', ')}]`);
      }
      soft = dense ? reshape(transpose(q, [0, ...spatial.map((_, i) => i + 2), 1]), [rows, c]) : q;
    }
    if (labels === null && soft === null) {
      invalidArgument(`${loss}: targets`, needs === 'labels' ? 'integer labels' : 'integer labels or soft targets', 'neither');
    }
    return new LossInput({ logits: flat, labels, soft, mask, targets: t, labelShape });
  }

  private memo(key: string, build: () => Tensor): Tensor {
    let t = this.cache.get(key);
    if (!t) {
      t = build();
      this.cache.set(key, t);
    }
    return t;
  }

  /** Labels as rows; throws when the loss was prepared without labels. */
  get hardLabels(): Tensor {
    if (!this.labels) invalidArgument('targets', 'integer labels', 'soft targets only');
    return this.labels;
  }

  /** Hard-label softmax cross-entropy: per-row CE [M] and log p [M, C] from one fused op. */
  private get fused(): { loss: Tensor; logProb: Tensor } {
    const loss = this.memo('fused.loss', () => {
      const r = softmaxCrossEntropy(this.logits, this.hardLabels, { reduction: 'none' });
      this.cache.set('fused.logProb', r.logProb);
      return r.loss;
    });
    return { loss, logProb: this.cache.get('fused.logProb')! };
  }

  /** log p, [M, C] (stable for logits in the thousands). */
  get logProb(): Tensor {
    return this.memo('logProb', () => (this.labels ? this.fused.logProb : logSoftmax(this.logits, 1)));
  }

  /** p = softmax(z), [M, C]. */
  get prob(): Tensor {
    return this.memo('prob', () => exp(this.logProb));
  }

  /** Per-row cross-entropy [M]: −log p_y (hard labels) or −Σ_k q̃_k log p_k (soft targets). */
  get crossEntropyRows(): Tensor {
    return this.memo('ceRows', () => (this.soft ? sum(mul(this.soft, this.logProb), 1).neg() : this.fused.loss));
  }

  /** Target distribution q [M, C]: the soft targets, or one-hot labels. Not differentiated. */
  get targetDistribution(): Tensor {
    return this.memo('q', () => this.soft ?? oneHot(this.hardLabels, this.classes, this.dtype));
  }

  /** Prediction ŷ = argmax_k z_k [M] (int64, first index on ties). */
  get predicted(): Tensor {
    return this.memo('predicted', () => argmax(this.logits, 1));
  }

  /** Confidence c = max_k p_k [M] (differentiable; ties share the gradient). */
  get confidence(): Tensor {
    return this.memo('confidence', () => this.prob.max(1));
  }

  /** Correctness a [M]: 1[ŷ = y] with labels, q̃_ŷ with soft targets; in the logits' dtype, gradient-free. */
  get correct(): Tensor {
    return this.memo('correct', () => {
      if (this.soft) return stopGradient(reshape(takeAlongAxis(this.soft, reshape(this.predicted, [this.rows, 1]), 1), [this.rows]));
      const y = this.hardLabels;
      return cast(equal(cast(this.predicted, y.dtype), y), this.dtype);
    });
  }

  /** Number of counted rows: Σ mask, at least 1 (a scalar tensor), or the constant M without a mask. */
  get count(): Tensor | number {
    return this.mask ? this.memo('count', () => maximum(sum(this.mask!), 1)) : this.rows;
  }

  /** x ⊙ mask for a per-row [M] (or [M, k]) tensor; x itself without a mask. */
  masked(x: Tensor): Tensor {
    if (!this.mask) return x;
    return mul(x, x.rank === 1 ? this.mask : reshape(this.mask, [this.rows, ...x.shape.slice(1).map(() => 1)]));
  }

  /** Σ over counted rows of a per-row tensor [M] (or all entries of [M, k]): a scalar. */
  sum(x: Tensor): Tensor {
    return sum(this.masked(x));
  }

  /** Mean over counted rows of a per-row tensor [M] (for [M, k], sums each row first): a scalar. */
  mean(x: Tensor): Tensor {
    return this.sum(x).div(this.count);
  }
}

/** Row-major flattening helper for tests and the CLI: the [M] row order of dense predictions. */
export function rowCount(logitsShape: readonly number[]): number {
  return logitsShape.length > 2 ? logitsShape[0]! * logitsShape.slice(2).reduce((a, b) => a * b, 1) : logitsShape[0]!;
}
