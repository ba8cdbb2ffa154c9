/**
 * A comparison a suite asks the report to decide: `"A < B on METRIC"` or `"A > B on METRIC after CALIBRATOR"`,
 * where A and B are method names, METRIC a claim metric (claim-metric.ts: a test metric under its `calib eval
 * --json` key, noise_auroc, ood_confidence, shift_ece, shift_ece_s5, fg_ece, miou, …) and CALIBRATOR one of the
 * suite's post-hoc calibrators (the metric after that calibrator instead of the raw one, on both sides).
 * A side may name its own calibrator instead, `"A < B+CALIBRATOR on METRIC"` (A raw against B after CALIBRATOR, e.g.
 * "mixup > ce+temperature on noise_auroc": does mixup alone beat CE with temperature scaling?); `after` and `+` are
 * not mixed in one claim.
 *
 * An equivalence claim ("on par", "no significant gain") uses the same sides with `~`: `"A ~ B on METRIC"`,
 * `"A ~ B on METRIC after CALIBRATOR"`, `"A ~ B+CALIBRATOR on METRIC"` (parseEquivalence; the claim's margin is
 * given beside it, claim-schema.ts).
 */
import { describe, invalidArgument } from '../../util/errors.js';
import { CLAIM_METRIC_FAMILIES, parseClaimMetric } from './claim-metric.js';

/** The two sides of a comparison or an equivalence and the metric they are compared on. */
export interface ComparisonSides {
  /** The text as written. */
  readonly text: string;
  readonly left: string;
  readonly right: string;
  /** A claim metric name (claim-metric.ts). */
  readonly metric: string;
  /** The `after CALIBRATOR` clause: the calibrator whose output is compared on both sides (absent: raw logits). */
  readonly after?: string;
  /** The calibrator applied to the left / right method's predictions (from `after`, or that side's `+CALIBRATOR`). */
  readonly leftAfter?: string;
  readonly rightAfter?: string;
}

/** A directional claim: '<' is metric(left) < metric(right). */
export interface Comparison extends ComparisonSides {
  readonly direction: '<' | '>';
}

/** An equivalence claim: metric(left) − metric(right) within ± a margin. */
export interface Equivalence extends ComparisonSides {
  readonly direction: '~';
}

const METHOD = '([a-z0-9][a-z0-9-]*)(?:\\+([a-z0-9-]+))?';
const pattern = (relations: string): RegExp => new RegExp(`^\\s*${METHOD}\\s*([${relations}])\\s*${METHOD}\\s+on\\s+([a-z_0-9]+)(?:\\s+after\\s+([a-z0-9-]+))?\\s*$`);
const DIRECTIONAL = pattern('<>');
const EQUIVALENCE = pattern('~');

/** Parse and check a comparison against the suite's method names and calibrators; errors name `path`. */
export function parseComparison(text: string, methods: readonly string[], calibrators: readonly string[], path: string): Comparison {
  return parseSides(text, DIRECTIONAL, '"A < B on METRIC", "A > B on METRIC after CALIBRATOR" or "A < B+CALIBRATOR on METRIC"', methods, calibrators, path) as Comparison;
}

/** Parse and check an equivalence ("A ~ B on METRIC", with `after` or `+CALIBRATOR` as comparisons); errors name `path`. */
export function parseEquivalence(text: string, methods: readonly string[], calibrators: readonly string[], path: string): Equivalence {
  return parseSides(text, EQUIVALENCE, '"A ~ B on METRIC", "A ~ B on METRIC after CALIBRATOR" or "A ~ B+CALIBRATOR on METRIC"', methods, calibrators, path) as Equivalence;
}

function parseSides(text: string, grammar: RegExp, expected: string, methods: readonly string[], calibrators: readonly string[], path: string): Comparison | Equivalence {
  const m = typeof text === 'string' ? grammar.exec(text) : null;
  if (!m) invalidArgument(path, expected, describe(text));
  const [, left, leftPlus, direction, right, rightPlus, metric, after] = m;
  for (const [side, method] of [
    ['left', left],
    ['right', right],
  ] as const) {
    if (!methods.includes(method!)) invalidArgument(path, `a method of the suite (${methods.join(', ')}) on the ${side}`, describe(method));
  }
  if (after !== undefined && (leftPlus !== undefined || rightPlus !== undefined)) invalidArgument(path, 'either "after CALIBRATOR" or per-method "+CALIBRATOR", not both', describe(text));
  const leftAfter = after ?? leftPlus;
  const rightAfter = after ?? rightPlus;
  if (left === right && leftAfter === rightAfter) invalidArgument(path, 'two different methods (or one method with two different calibrators)', describe(text));
  const claim = parseClaimMetric(metric!);
  if (claim === undefined) invalidArgument(path, `a metric: ${CLAIM_METRIC_FAMILIES}`, `${describe(metric)} in ${describe(text.trim())}`);
  for (const kind of [leftAfter, rightAfter]) {
    if (kind !== undefined && !calibrators.includes(kind)) invalidArgument(path, `a post-hoc calibrator of the suite (${calibrators.join(', ') || 'none declared'})`, describe(kind));
  }
  if (claim.family === 'miou' && (leftAfter !== undefined || rightAfter !== undefined))
    invalidArgument(path, 'miou without a calibrator (it is the argmax of the trained model, read from summary.json)', describe(text.trim()));
  if (claim.family === 'train' && (leftAfter !== undefined || rightAfter !== undefined))
    invalidArgument(path, `${metric} without a calibrator (training-split metrics are the trained model's own, read from summary.json)`, describe(text.trim()));
  return {
    text: text.trim(),
    left: left!,
    right: right!,
    direction: direction as '<' | '>' | '~',
    metric: metric!,
    ...(after !== undefined ? { after } : {}),
    ...(leftAfter !== undefined ? { leftAfter } : {}),
    ...(rightAfter !== undefined ? { rightAfter } : {}),
  };
}
