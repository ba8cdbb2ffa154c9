/**
 * Shape claims (suite/claims/qualitative-claim.ts) decided from the runs: each kind's criterion is computed from the seed
 * means of the claim's metric (and, where the criterion asks for it, paired 95 % t-intervals over seeds), and the
 * verdict carries the criterion as a sentence with every number it used.
 *
 * - argmin / argmax: the swept value whose seed mean is lowest (highest) is one of `expect` (criterion met); where it
 *   is not, the paper's value is tested against the observed minimum over the seeds (extremum-test.ts): not the
 *   minimum (criterion not met), within the claim's margin (met), or consistent with it within seed noise
 *   (inconclusive, with the MDE); both the observed argmin and the test are reported;
 * - u-shape: the lowest seed mean is at an interior swept value, and at both ends the paired interval of
 *   end − minimum (seeds shared by both values) lies above 0;
 * - monotone: each consecutive pair of swept values moves the seed mean in the `trend`'s direction (with
 *   `significant`, each step's paired interval also excludes 0 that way);
 * - order: the methods' seed means are in the claimed order, best first (with `significant`, each adjacent pair's
 *   paired interval excludes 0 that way).
 */
import { claimMetricPercent, parseClaimMetric } from '../claims/claim-metric.js';
import { higherIsBetter, type QualitativeClaim } from '../claims/qualitative-claim.js';
import { claimValue } from './claim-value.js';
import { extremumTest, type ExtremumTest } from './extremum-test.js';
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
  readonly outcome: 'criterion met' | 'criterion not met' | 'inconclusive' | 'not evaluated';
  /** argmin / argmax with the minimum elsewhere: the paired test of the paper's value against it (extremum-test.ts). */
  readonly test?: ExtremumTest;
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

/** value(later) − value(earlier) on each seed both have (finite values only). */
function pairedDifferences(earlier: readonly RunResult[], later: readonly RunResult[], value: (r: RunResult) => number): number[] {
  return later.flatMap((b) => earlier.filter((a) => a.run.seed === b.run.seed).map((a) => value(b) - value(a))).filter((x) => Number.isFinite(x));
}

/** Paired 95 % interval of value(later) − value(earlier) over the seeds both have. */
function pairedStep(label: string, earlier: readonly RunResult[], later: readonly RunResult[], value: (r: RunResult) => number): CriterionStep {
  const d = pairedDifferences(earlier, later, value);
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
    return {
      outcome: met ? 'criterion met' : 'criterion not met',
      criterion: criterion(`${series(points)}; observed order ${ranked.join(', ')}${q.significant && inOrder && !separated ? '; not every step is separated' : ''}`),
      n: Math.min(...points.map((p) => p.n)),
    };
  }

  const method = results.methods.find((m) => m.name === q.method);
  const noiseText = (lowest: boolean): string => {
    const margin = 'margin' in q && q.margin !== undefined ? q.margin : undefined;
    const worse = lowest ? 'above' : 'below';
    return `; where it is elsewhere, the paired 95 % interval over seeds of (paper's value − observed ${lowest ? 'minimum' : 'maximum'}) decides: wholly ${worse} ${margin !== undefined ? `±${percent ? `${(margin * 100).toFixed(2)} pt` : margin} (the margin)` : '0'} → not met${margin !== undefined ? `, wholly within the margin → met` : ''}, else inconclusive (consistent with the ${lowest ? 'minimum' : 'maximum'} within seed noise)`;
  };
  const kindText: Record<typeof q.kind, string> = {
    argmin: `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is lowest at one of ${'expect' in q ? q.expect.join(', ') : ''}${noiseText(true)}`,
    argmax: `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is highest at one of ${'expect' in q ? q.expect.join(', ') : ''}${noiseText(false)}`,
    'u-shape': `the seed-mean ${metricName(q)} of ${q.method} over ${q.sweep} is lowest at an interior value, and at both ends the paired 95 % interval of end − minimum lies above 0`,
    monotone: `the seed-mean ${metricName(q)} of ${q.method} ${q.kind === 'monotone' && q.trend === 'increasing' ? 'rises' : 'falls'} from each value of ${q.sweep} to the next${q.kind === 'monotone' && q.significant ? ', each step separated by its paired 95 % interval' : ''}`,
  };
  const text = kindText[q.kind];
  const empty: QualitativeCriterion = { text, result: 'n/a', points: [], steps: [], percent };
  if (!method || method.sweep === undefined || method.sweep.key !== q.sweep)
    return { outcome: 'not evaluated', criterion: empty, n: 0, note: `no finished runs of the ${q.sweep} sweep of ${q.method}` };
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
  const verdict = (met: boolean, result: string, steps: readonly CriterionStep[] = [], note?: string): QualitativeResult => ({
    outcome: met ? 'criterion met' : 'criterion not met',
    criterion: criterion(result, steps),
    n,
    ...(note !== undefined ? { note } : {}),
  });

  switch (q.kind) {
    case 'argmin':
    case 'argmax': {
      const lowest = q.kind === 'argmin';
      const word = lowest ? 'minimum' : 'maximum';
      const i = extreme(lowest);
      const at = values[i]!.value;
      const divergedNote = divergedText ? `${divergedText}: not a candidate` : undefined;
      if (q.expect.includes(at)) {
        // Met; the runner-up's paired interval says whether the minimum is separated from the next value.
        const rest = points.map((_, k) => k).filter((k) => k !== i);
        const runnerUp = rest.length ? rest.reduce((best, k) => ((lowest ? points[k]!.mean < points[best]!.mean : points[k]!.mean > points[best]!.mean) ? k : best)) : -1;
        const steps = runnerUp >= 0 ? [pairedStep(`${points[runnerUp]!.label} − ${points[i]!.label} (runner-up − ${word})`, values[i]!.runs, values[runnerUp]!.runs, value)] : [];
        return verdict(true, `${series(points)}; ${word} at ${at} (the paper's value)`, steps, divergedNote);
      }
      // The paper's value (of `expect`, the one with the best seed mean) against the observed extreme, over seeds.
      const expected = values.map((v, k) => k).filter((k) => q.expect.includes(values[k]!.value));
      const observed = `${series(points)}; ${word} at ${at}`;
      if (expected.length === 0) return verdict(false, `${observed}; no paper's value (${q.expect.join(', ')}) among the candidates`, [], divergedNote);
      const j = expected.reduce((best, k) => ((lowest ? points[k]!.mean < points[best]!.mean : points[k]!.mean > points[best]!.mean) ? k : best));
      const label = `${points[j]!.label} − ${points[i]!.label} (paper's value − observed ${word})`;
      const step = pairedStep(label, values[i]!.runs, values[j]!.runs, value);
      const d = pairedDifferences(values[i]!.runs, values[j]!.runs, value);
      if (d.length < 2)
        return verdict(
          false,
          observed,
          [step],
          [divergedNote, `${d.length} seed(s) shared by ${points[j]!.label} and ${at}: no interval over seeds, decided on the seed means alone`].filter((x) => x).join('; '),
        );
      const test = extremumTest(d, lowest, q.margin ?? 0);
      const pt = (x: number): string => (percent ? `${(x * 100).toFixed(2)} pt` : x.toFixed(4));
      const margin = q.margin !== undefined ? ` (margin ${pt(q.margin)})` : '';
      const said: Record<typeof test.decision, string> = {
        'not the minimum': `the paper's value ${points[j]!.label} is not the ${word}${margin}`,
        'within the margin': `the paper's value ${points[j]!.label} is within the margin of the ${word}${margin}`,
        consistent: `the paper's value ${points[j]!.label} is consistent with the ${word} within seed noise${margin}`,
      };
      const result = `${observed}; ${said[test.decision]} (paired t, n = ${test.n}; MDE ${pt(test.mde)}; p = ${test.p < 1e-4 ? test.p.toExponential(1) : test.p.toFixed(4)})`;
      const outcome = test.decision === 'not the minimum' ? 'criterion not met' : test.decision === 'within the margin' ? 'criterion met' : 'inconclusive';
      return { outcome, criterion: criterion(result, [step]), n, test, ...(divergedNote !== undefined ? { note: divergedNote } : {}) };
    }
    case 'u-shape': {
      const i = extreme(true);
      const last = points.length - 1;
      const steps = [
        pairedStep(`${points[0]!.label} − ${points[i]!.label}`, values[i]!.runs, values[0]!.runs, value),
        pairedStep(`${points[last]!.label} − ${points[i]!.label}`, values[i]!.runs, values[last]!.runs, value),
      ];
      if (i === 0 || i === last) return verdict(false, `${series(points)}; minimum at the end value ${points[i]!.label}`);
      if (steps.some((s) => s.n < 2))
        return {
          outcome: 'not evaluated',
          criterion: criterion(`${series(points)}; minimum at ${points[i]!.label}`, steps),
          n,
          note: 'the end intervals need two or more seeds shared with the minimum',
        };
      const above = steps.every((s) => s.lower > 0);
      return verdict(above, `${series(points)}; minimum at ${points[i]!.label}; ${above ? 'both ends above it' : 'an end is not above it'}`, steps);
    }
    case 'monotone': {
      const up = q.trend === 'increasing';
      const steps = values.slice(1).map((v, k) => pairedStep(`${v.value} − ${values[k]!.value}`, values[k]!.runs, v.runs, value));
      const moves = points.slice(1).every((p, k) => (up ? p.mean > points[k]!.mean : p.mean < points[k]!.mean));
      const separated = steps.every((s) => (up ? s.lower > 0 : s.upper < 0));
      if (q.significant && steps.some((s) => s.n < 2)) return { outcome: 'not evaluated', criterion: criterion(series(points), steps), n, note: 'the step intervals need two or more shared seeds' };
      return verdict(
        moves && (!q.significant || separated),
        `${series(points)}; ${moves ? (up ? 'rising' : 'falling') : `not ${up ? 'rising' : 'falling'} at every step`}${q.significant && moves && !separated ? ', not every step separated' : ''}`,
        steps,
      );
    }
  }
}
