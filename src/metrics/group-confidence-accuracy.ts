/**
 * The points of Thulasidasan et al.'s joint density plots (NeurIPS 2019, Fig. 1: "accuracy vs confidence, captured
 * by the mean of the winning softmax score"): random groups of `groupSize` samples drawn without replacement, each
 * giving (mean top-label confidence of the group, accuracy of the group). A calibrated model puts the density on the
 * diagonal; an overconfident one below it (confidence > accuracy).
 */
import { invalidArgument, requireNumber } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import type { Labels, PredictionKind } from './validation.js';
import { topLabel } from './top-label.js';
import { Random } from '../util/random.js';

/** Options of `groupConfidenceAccuracy`. */
export interface GroupConfidenceAccuracyOptions {
  /** Samples per group (default 100, or N when N is smaller). */
  readonly groupSize?: number;
  /** Number of groups (default 300). */
  readonly groups?: number;
  /** Seed of the group draws (default 0): the same seed gives the same groups for every epoch and method. */
  readonly seed?: number;
  /** 'logits' (default) or 'probabilities'. */
  readonly input?: PredictionKind;
}

/** One group's (mean confidence, accuracy). */
export interface GroupPoint {
  readonly confidence: number;
  readonly accuracy: number;
}

/** (mean confidence, accuracy) of `groups` random groups of `groupSize` rows of `predictions`. */
export function groupConfidenceAccuracy(predictions: Matrix, labels: Labels, options: GroupConfidenceAccuracyOptions = {}): GroupPoint[] {
  const n = predictions.rows;
  if (n === 0) invalidArgument('predictions', 'at least one row', '0 rows');
  const size = requireNumber('options.groupSize', options.groupSize ?? Math.min(100, n), { integer: true, min: 1, max: n });
  const groups = requireNumber('options.groups', options.groups ?? 300, { integer: true, min: 1 });
  const { confidence, correct } = topLabel(predictions, labels, options.input ?? 'logits');
  const rng = new Random(options.seed ?? 0);
  const points: GroupPoint[] = [];
  for (let g = 0; g < groups; g++) {
    const rows = rng.permutation(n);
    let c = 0;
    let a = 0;
    for (let i = 0; i < size; i++) {
      c += confidence[rows[i]!]!;
      a += correct[rows[i]!]!;
    }
    points.push({ confidence: c / size, accuracy: a / size });
  }
  return points;
}
