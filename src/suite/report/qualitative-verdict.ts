/**
 * Shape claims (suite/qualitative-claim.ts) decided from the runs: each kind's criterion is computed from the seed
 * means of the claim's metric (and, where the criterion asks for it, paired 95 % t-intervals over seeds), and the
 * verdict carries the criterion as a sentence with every number it used.
 *
 * - argmin / argmax: the swept value whose seed mean is lowest (highest) is one of `expect`;
 * - u-shape: the lowest seed mean is at an interior swept value, and at both ends the paired interval of
 *   end − minimum (seeds shared by both values) lies above 0;
 * - monotone: each consecutive pair of swept values moves the seed mean in the `trend`'s direction (with
 *   `significant`, each step's paired interval also excludes 0 that way);
 * - order: the methods' seed means are in the claimed order, best first (with `significant`, each adjacent pair's
 *   paired interval excludes 0 that way).
 */
import { claimMetricPercent, parseClaimMetric } from '../claim-metric.js';
import { higherIsBetter, type QualitativeClaim } from '../qualitative-claim.js';
import { claimValue } from './claim-value.js';
import { mean, tInterval } from './statistics.js';
import type { RunResult, SuiteResults } from './suite-results.js';

/** One point of the criterion: a swept value or a method, with its seed mean. */
export interface CriterionPoint {
  readonly label: string;
  readonly mean: number;
  readonly n: number;
}

/** A paired step the criterion tested: later − earlier point, 95 % t-interval over shared seeds. */
export interface CriterionStep {
  readonly label: string;
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
  readonly n: number;
}

export interface QualitativeCriterion {
  /** The criterion, as a sentence. */
  readonly text: string;
  /** What the numbers gave ("minimum at 6"). */
  readonly result: string;
  readonly points: readonly CriterionPoint[];
  readonly steps: readonly CriterionStep[];
  /** Whether values are shown in points of % (rates) or as plain numbers. */
  readonly percent: boolean;
}

export interface QualitativeResult {
  readonly outcome: 'criterion met' | 'criterion not met' | 'not evaluated';
  readonly criterion: QualitativeCriterion;
  /** The fewest seeds behind any point. */
  readonly n: number;
  readonly note?: string;
}

/** The value of the claim's metric for one run on the claim's split. */
function valueOf(q: QualitativeClaim): (r: RunResult) => number {
  if (q.split === 'validation') {
    return (r) => {
      const v = r.posthoc.validation[q.metric];
      return typeof v === 'number' ? v : Number.NaN;
    };
  }
  const metric = parseClaimMetric(q.metric)!;
  return (r) => claimValue(r, metric, q.after);
}

/** Paired 95 % interval of value(later) − value(earlier) over the seeds both have. */
function pairedStep(label: string, earlier: readonly RunResult[], later: readonly RunResult[], value: (r: RunResult) => number): CriterionStep {
  const d = later.flatMap((b) => earlier.filter((a) => a.run.seed === b.run.seed).map((a) => value(b) - value(a))).filter((x) => Number.isFinite(x));
  const t = tInterval(d);
  return { label, difference: t.mean, lower: t.lower, upper: t.upper, n: d.length };
}

function metricName(q: QualitativeClaim): string {
  return `${q.split === 'validation' ? 'validation' : 'test'} ${q.metric}${q.after ? ` after ${q.after}` : ''}`;
}

/** Decide a shape claim from the suite's runs. */
export function qualitativeVerdict(results: SuiteResults, q: QualitativeClaim): QualitativeResult {
  const value = valueOf(q);
  const percent = claimMetricPercent(q.metric);
  const point = (label: string, runs: readonly RunResult[]): CriterionPoint => {
    const vs = runs.map(value).filter((x) => Number.isFinite(x));
    return { label, mean: mean(vs), n: vs.length };
  };
  const fmt = (x: number): string => (percent ? `${(x * 100).toFixed(2)} %` : x.toFixed(4));
  const series = (points: readonly CriterionPoint[]): string => points.map((p) => `${p.label}: ${fmt(p.mean)}`).join(', ');

  if (q.kind === 'order') {
    const lowerBetter = q.better !== undefined ? q.better === 'lower' : !higherIsBetter(q.metric);
    const text = `seed means of ${metricName(q)} in the order ${q.methods.join(', ')} (${lowerBetter ? 'lowest' : 'highest'} first)${q.significant ? ', each adjacent pair separated by its paired 95 % interval' : ''}`;
    const runsOf = q.methods.map((name) => results.methods.find((m) => m.name === name)?.runs ?? []);
    const points = q.methods.map((name, i) => point(name, runsOf[i]!));
    const missing = points.filter((p) => p.n === 0).map((p) => p.label);
    const steps = q.methods.slice(1).map((name, i) => pairedStep(`${name} − ${q.methods[i]}`, runsOf[i]!, runsOf[i + 1]!, value));
    const criterion = (result: string): QualitativeCriterion => ({ text, result, points, steps, percent });
    if (missing.length) return { outcome: 'not evaluated', criterion: criterion('n/a'), n: 0, note: `no ${q.metric} for ${missing.join(', ')}` };
    const inOrder = points.slice(1).every((p, i) => (lowerBetter ? p.mean > points[i]!.mean : p.mean < points[i]!.mean));
    const separated = steps.every((s) => (lowerBetter ? s.lower > 0 : s.upper < 0));
    const met = inOrder && (!q.significant || separated);
    const ranked = [...points].sort((a, b) => (lowerBetter ? a.mean - b.mean : b.mean - a.mean)).map((p) => p.label);
    return { outcome: met ? 'criterion met' : 'criterion not met', criterion: criterion(`${series(points)}; observed order ${ranked.join(', ')}${q.significant && inOrder && !separated ? '; not every step is separated' : ''}`), n: Math.min(...points.map((p) => p.n)) };
  }

  const method = results.methods.find((m) => m.name === q.method);
  const kindText: Record<typeof q.kind, string> = {
    argmin: `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is lowest at one of ${'expect' in q ? q.expect.join(', ') : ''}`,
    argmax: `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is highest at one of ${'expect' in q ? q.expect.join(', ') : ''}`,
    'u-shape': `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is lowest at an interior value, and at both ends the paired 95 % interval of end − minimum lies above 0`,
    monotone: `the seed-mean ${metricName(q)} of ${q.method} ${q.kind === 'monotone' && q.trend === 'increasing' ? 'rises' : 'falls'} from each value of ${q.sweep} to the next${q.kind === 'monotone' && q.significant ? ', each step separated by its paired 95 % interval' : ''}`,
  };
  const text = kindText[q.kind];
  const empty: QualitativeCriterion = { text, result: 'n/a', points: [], steps: [], percent };
  if (!method || method.sweep === undefined || method.sweep.key !== q.sweep) return { outcome: 'not evaluated', criterion: empty, n: 0, note: `no finished runs of the ${q.sweep} sweep of ${q.method}` };
  const values = method.sweep.values;
  // Swept values with a diverged seed are not in `values` (suite-results.ts): no candidate for an argmin/argmax, and a
  // shape over the sweep (u-shape, monotone) cannot be judged without them.
  const divergedText = method.sweep.diverged.map((d) => `${q.sweep} = ${d.value} diverged (training loss NaN or infinite) in ${d.diverged} of ${d.planned} seeds`).join('; ');
  if (divergedText && (q.kind === 'u-shape' || q.kind === 'monotone')) return { outcome: 'not evaluated', criterion: empty, n: 0, note: `${divergedText}: the shape needs every value` };
  const points = values.map((v) => point(String(v.value), v.runs));
  const criterion = (result: string, steps: readonly CriterionStep[] = []): QualitativeCriterion => ({ text, result, points, steps, percent });
  const missing = points.filter((p) => p.n === 0).map((p) => p.label);
  if (missing.length) return { outcome: 'not evaluated', criterion: criterion('n/a'), n: 0, note: `no ${q.metric} at ${q.sweep} = ${missing.join(', ')}` };
  const n = Math.min(...points.map((p) => p.n));
  const extreme = (lowest: boolean): number => points.reduce((best, p, i) => ((lowest ? p.mean < points[best]!.mean : p.mean > points[best]!.mean) ? i : best), 0);
  const verdict = (met: boolean, result: string, steps: readonly CriterionStep[] = [], note?: string): QualitativeResult => ({ outcome: met ? 'criterion met' : 'criterion not met', criterion: criterion(result, steps), n, ...(note !== undefined ? { note } : {}) });

  switch (q.kind) {
    case 'argmin':
    case 'argmax': {
      const at = values[extreme(q.kind === 'argmin')]!.value;
      return verdict(q.expect.includes(at), `${series(points)}; ${q.kind === 'argmin' ? 'minimum' : 'maximum'} at ${at}`, [], divergedText ? `${divergedText}: not a candidate` : undefined);
    }
    case 'u-shape': {
      const i = extreme(true);
      const last = points.length - 1;
      const steps = [pairedStep(`${points[0]!.label} − ${points[i]!.label}`, values[i]!.runs, values[0]!.runs, value), pairedStep(`${points[last]!.label} − ${points[i]!.label}`, values[i]!.runs, values[last]!.runs, value)];
      if (i === 0 || i === last) return verdict(false, `${series(points)}; minimum at the end value ${points[i]!.label}`);
      if (steps.some((s) => s.n < 2)) return { outcome: 'not evaluated', criterion: criterion(`${series(points)}; minimum at ${points[i]!.label}`, steps), n, note: 'the end intervals need two or more seeds shared with the minimum' };
      const above = steps.every((s) => s.lower > 0);
      return verdict(above, `${series(points)}; minimum at ${points[i]!.label}; ${above ? 'both ends above it' : 'an end is not above it'}`, steps);
    }
    case 'monotone': {
      const up = q.trend === 'increasing';
      const steps = values.slice(1).map((v, k) => pairedStep(`${v.value} − ${values[k]!.value}`, values[k]!.runs, v.runs, value));
      const moves = points.slice(1).every((p, k) => (up ? p.mean > points[k]!.mean : p.mean < points[k]!.mean));
      const separated = steps.every((s) => (up ? s.lower > 0 : s.upper < 0));
      if (q.significant && steps.some((s) => s.n < 2)) return { outcome: 'not evaluated', criterion: criterion(series(points), steps), n, note: 'the step intervals need two or more shared seeds' };
      return verdict(moves && (!q.significant || separated), `${series(points)}; ${moves ? (up ? 'rising' : 'falling') : `not ${up ? 'rising' : 'falling'} at every step`}${q.significant && moves && !separated ? ', not every step separated' : ''}`, steps);
    }
  }
}
