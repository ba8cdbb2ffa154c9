/**
 * A comparison a suite asks the report to decide: `"A < B on METRIC"` or `"A > B on METRIC after CALIBRATOR"`,
 * where A and B are method names, METRIC a test metric under its `calib eval --json` key (ece, nll, accuracy, …)
 * and CALIBRATOR one of the suite's post-hoc calibrators (the metric after that calibrator instead of the raw one).
 */
import { METRIC_NAMES, type MetricName } from '../metrics/evaluate.js';
import { describe, invalidArgument } from '../util/errors.js';

export interface Comparison {
  /** The text as written. */
  readonly text: string;
  readonly left: string;
  readonly right: string;
  /** '<': the claim is metric(left) < metric(right). */
  readonly direction: '<' | '>';
  readonly metric: MetricName;
  /** Post-hoc calibrator whose output is compared (absent: the trained model's own logits). */
  readonly after?: string;
}

const PATTERN = /^\s*([a-z0-9][a-z0-9-]*)\s*([<>])\s*([a-z0-9][a-z0-9-]*)\s+on\s+([a-z_0-9]+)(?:\s+after\s+([a-z-]+))?\s*$/;

/** Parse and check a comparison against the suite's method names and calibrators; errors name `path`. */
export function parseComparison(text: string, methods: readonly string[], calibrators: readonly string[], path: string): Comparison {
  const m = PATTERN.exec(text);
  if (!m) invalidArgument(path, '"A < B on METRIC" or "A > B on METRIC after CALIBRATOR"', describe(text));
  const [, left, direction, right, metric, after] = m;
  for (const [side, method] of [['left', left], ['right', right]] as const) {
    if (!methods.includes(method!)) invalidArgument(path, `a method of the suite (${methods.join(', ')}) on the ${side}`, describe(method));
  }
  if (left === right) invalidArgument(path, 'two different methods', describe(text));
  if (!(METRIC_NAMES as readonly string[]).includes(metric!)) invalidArgument(path, `a metric (${METRIC_NAMES.join(', ')})`, describe(metric));
  if (after !== undefined && !calibrators.includes(after)) invalidArgument(path, `a post-hoc calibrator of the suite (${calibrators.join(', ') || 'none declared'})`, describe(after));
  return { text: text.trim(), left: left!, right: right!, direction: direction as '<' | '>', metric: metric as MetricName, ...(after !== undefined ? { after } : {}) };
}
