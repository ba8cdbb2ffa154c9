import { cast, concat, oneHot, scalar, type Tensor } from '../../engine/index.js';
import { describe, invalidArgument } from '../../util/errors.js';
import { CRL_HOST_STATE } from './crl-history.js';
import { defineLoss } from '../define-loss.js';
import type { LossInput } from '../loss-input.js';
import type { LossOptions } from '../options.js';
import type { LossResult, LossTargetsLike } from '../types.js';
import { number, optional, string } from '../../util/schema.js';

/**
 * Correctness ranking loss, CRL (Moon et al. ICML 2020), as in the official code (daintlab/confidence-aware-learning
 * `train.py`, `crl_utils.History`; METHODS.md § Secondary terms):
 *   κ_i  = rank target: 'softmax' max_k p_ik; 'entropy' −H(p_i)/log C; 'margin' p_(1) − p_(2) (top-2 gap),
 *   pairs (i, i+1 mod N) (torch.roll(·, −1)),
 *   h_i  = (counts_i − min) / max(epochs − min, 1)   (correctness history normalised to [0, 1]),
 *   t    = sgn(h_i − h_{i+1}),  d = |h_i − h_{i+1}|,
 *   rank = mean_i max(0, −t(κ_i − κ_{i+1}) + d)      (0 where t = 0; MarginRankingLoss with the margin folded in),
 *   CRL  = CE + λ·rank.
 * The history is an input (`targets.history`: counts [N] for the batch's samples, epochs, optional global min), so
 * one compiled step serves every epoch; `CorrectnessHistory` (crl-history.ts) keeps it on the host. The code's
 * 'entropy' target divides by log 10 or log 100 for CIFAR-10/100, i.e. log C. With an ignore index, pairs with an
 * ignored member are left out. Classification only (logits [N, C]). Batch-level (pairs within the batch).
 * Terms: { ce, ranking } with loss = ce + λ·ranking. Defaults: λ = 1, target 'softmax'.
 */
export const crl = defineLoss({
  name: 'crl',
  title: 'Correctness ranking loss CE + λ·rank(κ_i vs κ_{i+1} by correctness history) (Moon et al. 2020)',
  role: 'combined',
  scope: 'batch',
  targets: 'labels-or-soft',
  hostState: CRL_HOST_STATE,
  options: {
    weight: optional(number({ min: 0 }), 1, 'weight λ of the ranking term'),
    target: optional(string(['softmax', 'entropy', 'margin']), 'softmax', 'rank target κ'),
  },
  compute(input, { weight, target }) {
    if (input.labelShape.length !== 1) invalidArgument('crl: logits', 'shape [N, C] (CRL ranks whole samples)', `[${input.labelShape.join(', ')}, …] dense predictions`);
    const h = normalisedHistory(input);
    const kappa = rankTarget(input, target);
    const hNext = roll(h);
    const t = h.sub(hNext).sign();
    const d = h.sub(hNext).abs();
    const pairs = t
      .mul(kappa.sub(roll(kappa)))
      .neg()
      .add(d)
      .relu(); // [N]
    let ranking: Tensor;
    if (input.mask) {
      const both = input.mask.mul(roll(input.mask));
      ranking = pairs.mul(both).sum().div(both.sum().maximum(1));
    } else ranking = pairs.mean();
    const ce = input.mean(input.crossEntropyRows);
    return { loss: ce.add(ranking.mul(weight)), terms: { ce, ranking } };
  },
});

/** x[(i + 1) mod N] for x [N] (torch.roll(x, −1)). */
function roll(x: Tensor): Tensor {
  const n = x.shape[0]!;
  if (n === 1) return x;
  return concat([x.slice([1], [n]), x.slice([0], [1])], 0);
}

function rankTarget(input: LossInput, target: string): Tensor {
  if (target === 'softmax') return input.confidence;
  if (target === 'entropy') return input.prob.mul(input.logProb).sum(1).div(Math.log(input.classes)); // −H / log C
  // 'margin': top-1 minus top-2 probability (the arg-max column zeroed; tied maxima give 0)
  const others = oneHot(input.predicted, input.classes, input.dtype).neg().add(1);
  return input.confidence.sub(input.prob.mul(others).max(1));
}

function normalisedHistory(input: LossInput): Tensor {
  const history = input.targets.history;
  if (!history) invalidArgument('crl: targets.history', '{ counts [N], epochs, min? } (the correctness history)', 'none');
  const { counts } = history;
  if (!(counts && typeof counts === 'object' && 'shape' in counts)) invalidArgument('crl: targets.history.counts', 'an engine Tensor [N]', describe(counts));
  if (counts.rank !== 1 || counts.shape[0] !== input.rows) invalidArgument('crl: targets.history.counts', `shape [${input.rows}]`, `[${counts.shape.join(', ')}]`);
  const h = cast(counts, input.dtype);
  const epochs = toScalar(history.epochs, input.dtype, 'epochs');
  const min = history.min === undefined ? 0 : toScalar(history.min, input.dtype, 'min');
  const denom = typeof epochs === 'number' && typeof min === 'number' ? Math.max(epochs - min, 1) : asTensor(epochs, input.dtype).sub(min).maximum(1);
  return h.sub(min).div(denom);
}

function toScalar(value: Tensor | number, dtype: 'float32' | 'float64', name: string): Tensor | number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) invalidArgument(`crl: targets.history.${name}`, 'a finite number ≥ 0', describe(value));
    return value;
  }
  if (!(value && typeof value === 'object' && 'shape' in value) || value.rank !== 0) invalidArgument(`crl: targets.history.${name}`, 'a number or a scalar tensor', describe(value));
  return cast(value, dtype);
}

function asTensor(x: Tensor | number, dtype: 'float32' | 'float64'): Tensor {
  return typeof x === 'number' ? scalar(x, dtype) : x;
}

/** CRL of logits [N, C] against labels (or soft targets) with `targets.history`; see `crl`. */
export function correctnessRankingLoss(logits: Tensor, targets: LossTargetsLike, options?: LossOptions<typeof crl.options>): LossResult {
  return crl.apply(logits, targets, options);
}
