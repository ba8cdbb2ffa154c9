/**
 * The flags `calib fit` and `calib compare` share for weighted, out-of-fold and automatic fits: `--weights FILE`
 * (read as `calib eval --weights`), `--class-weight balanced`, `--cv K`, `--cv-seed S`, `--metric`, `--candidates`;
 * and the ranking table both print.
 */
import { balancedClassWeights, SELECTION_METRICS, type Selection, type WeightsKind } from '../posthoc/index.js';
import { invalidArgument } from '../util/errors.js';
import { formatTable, percent } from './format-table.js';
import { readWeights } from './eval/weighted-eval.js';
import { flag } from './flag.js';
import { described, optional, string } from '../util/schema.js';

export const WEIGHT_FLAGS = {
  weights: flag(described(optional(string()), 'per-row sample weights ≥ 0, one per validation row (as calib eval --weights); methods whose fit has no weighted form are refused'), {
    valueName: 'FILE',
  }),
  'class-weight': flag(described(optional(string(['balanced'])), "balanced: w_i = N / (C · n_{y_i}), scikit-learn's class_weight='balanced' (C = classes present)"), { valueName: 'MODE' }),
} as const;

export const SELECTION_FLAGS = {
  metric: flag(described(optional(string(SELECTION_METRICS)), 'held-out metric ranking the candidates (default nll)'), { valueName: 'METRIC' }),
  candidates: flag(described(optional(string()), 'methods to compare (default: every applicable one, slow ones skipped above a stated size)'), { valueName: 'A,B,...' }),
} as const;

/** The sample weights of `--weights FILE` or `--class-weight balanced` (not both), or undefined. */
export async function weightsFromFlags(
  flags: { weights?: string | undefined; 'class-weight'?: string | undefined },
  labels: Int32Array,
  classes: number,
  predictionsArg: string,
): Promise<{ values: Float64Array; kind: WeightsKind; flag: string } | undefined> {
  if (flags.weights !== undefined && flags['class-weight'] !== undefined) {
    invalidArgument('--class-weight', 'either --weights FILE or --class-weight balanced, not both', 'both');
  }
  if (flags.weights !== undefined) return { values: await readWeights(flags.weights, labels.length, predictionsArg), kind: 'sample', flag: '--weights' };
  if (flags['class-weight'] === 'balanced') return { values: balancedClassWeights(labels, classes), kind: 'balanced', flag: '--class-weight' };
  return undefined;
}

/** The comma-separated `--candidates` list. */
export function candidateList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (list.length === 0) invalidArgument('--candidates', 'a comma-separated list of methods', JSON.stringify(value));
  return list;
}

/** The ranking table of a selection, best first, with the paired-bootstrap interval of each difference. */
export function formatSelection(s: Selection): string {
  const show = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 'n/a' : s.metric === 'ece' ? `${percent(v)}%` : v.toFixed(4));
  const signed = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? 'n/a' : `${v >= 0 ? '+' : ''}${show(v)}`);
  const pct = `${+(s.level * 100).toFixed(2)}%`;
  const rows = s.table.map((r) => [
    r.method === s.chosen ? `${r.method} *` : r.method,
    r.metrics ? r.metrics.nll.toFixed(4) : '',
    r.metrics ? `${percent(r.metrics.ece)}%` : '',
    r.metrics ? r.metrics.brier.toFixed(4) : '',
    r.difference !== undefined ? `${signed(r.difference)} [${signed(r.lower)}, ${signed(r.upper)}]` : '',
    r.status === 'ranked' ? (r.tied ? 'tied' : 'worse') : r.status,
    r.note ?? '',
  ]);
  const header = ['method', 'NLL', 'ECE', 'Brier', `Δ ${s.metric} vs best [${pct} CI]`, 'verdict', 'note'];
  return (
    `out-of-fold ranking by ${s.metric} (${s.folds} stratified folds, seed ${s.seed}; paired bootstrap, ${s.resamples} resamples; ECE ${s.bins} bins):\n` +
    `${formatTable(header, rows)}\nchose ${s.chosen}: ${s.reason}\n`
  );
}
