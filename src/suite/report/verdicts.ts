/**
 * Verdicts of a suite's claims (claim-entries.ts), in one vocabulary (verdict-vocabulary.ts).
 *
 * Directional ("mbls < ce on ece") and equivalence ("ls ~ mbls on ece", margin δ) claims: with two or more seeds,
 * runs are paired by seed and the claim is decided on the paired differences d_s = metric(A, s) − metric(B, s):
 * their mean, the t-interval (95 % directional, 90 % equivalence), the two-sided p (directional) or the TOST p
 * (equivalence) and the minimum detectable effect (statistics.ts). With one seed, by a paired percentile bootstrap
 * over the test samples (both runs see the same test set: each resample draws the same indices for A and B; 1,000
 * resamples, seed 0), on the difference of the metric. "A < B" holds when the whole 95 % interval is below 0, is
 * contradicted when it is wholly above 0, and is inconclusive when it contains 0 ("A > B" mirrors this); "A ~ B" is
 * equivalent when the 90 % interval lies inside ±δ, contradicted when it lies wholly outside. Each side is read raw
 * or after its calibrator (comparison.ts). Claim metrics other than test metrics (claim-metric.ts) are decided the
 * same way over seeds (report/claim-value.ts reads them); with one seed the OOD, corruption and mIoU ones are not
 * evaluated (their sets are not paired with the test samples), and neither is any claim on segmentation runs (their
 * rows are pixels, correlated within an image). Shape claims: qualitative-verdict.ts (an argmin / argmax whose minimum
 * is not at the paper's value is decided by a paired t-test of the paper's value against it, extremum-test.ts, and
 * joins the Holm family like any paired-t claim).
 *
 * On an unfinished suite a claim is not evaluated while any run of its methods is missing (missingRunsNote).
 *
 * Multiplicity: the p-values of the paper's claims decided by a paired t-test are Holm-adjusted as one family (the
 * suite's own checks as another), and the outcome at the adjusted level is the raw one where the adjusted p < 0.05,
 * inconclusive otherwise.
 */
import { adaptiveCalibrationError } from '../../metrics/binned/adaptive-ece.js';
import { bootstrapInterval } from '../../metrics/bootstrap.js';
import { expectedCalibrationError } from '../../metrics/binned/ece.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { topLabel } from '../../metrics/top-label.js';
import { calibratorFromJSON } from '../../posthoc/registry.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import { parseClaimMetric, type ClaimMetric } from '../claims/claim-metric.js';
import type { Comparison, Equivalence } from '../claims/comparison.js';
import { readRunPredictions } from '../posthoc-step.js';
import { claimEntries, type ClaimEntry } from './claim-entries.js';
import { claimValue } from './claim-value.js';
import { holmAdjust } from './holm.js';
import { qualitativeVerdict, type QualitativeCriterion } from './qualitative-verdict.js';
import { minimumDetectableEffect, outsideMarginP, tInterval, tostP, tTestP } from './statistics.js';
import type { RunResult, SuiteResults } from './suite-results.js';
import type { ClaimOutcome } from './verdict-vocabulary.js';

export type { ClaimOutcome } from './verdict-vocabulary.js';

export type VerdictMethod = 'paired t over seeds' | 'paired bootstrap over test samples' | 'criterion over seed means' | 'none';

export interface Verdict {
  readonly claim: ClaimEntry;
  /** The directional or equivalence comparison (absent for shape and untested claims). */
  readonly comparison?: Comparison | Equivalence;
  readonly outcome: ClaimOutcome;
  /** Mean of metric(A) − metric(B) (NaN without one). */
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
  /** Level of [lower, upper]: 0.95 for directional claims, 0.9 for equivalence; NaN without an interval. */
  readonly level: number;
  readonly method: VerdictMethod;
  /** Seeds paired (t, criteria) or test samples (bootstrap). */
  readonly n: number;
  /** Minimum detectable effect at 80 % power (statistics.ts; NaN where not computed). */
  readonly mde: number;
  /** Raw p-value of the paired t-test (NaN where none: bootstrap, shape, untested). */
  readonly p: number;
  /** Holm-adjusted p within the claim's family (NaN where not adjusted). */
  readonly pHolm: number;
  /** The outcome at the Holm-adjusted level (null where not adjusted). */
  readonly outcomeHolm: ClaimOutcome | null;
  /** Why the verdict is not Holm-adjusted (null where it is). */
  readonly holmNote: string | null;
  /** Not tested: why. */
  readonly reason?: string;
  readonly note?: string;
  /** Shape claims: the criterion and the numbers it used. */
  readonly criterion?: QualitativeCriterion;
}

/** The decision of a 95 % interval [lower, upper] on the difference, for the claim's direction. */
export function decide(direction: '<' | '>', lower: number, upper: number): 'holds' | 'contradicted' | 'inconclusive' {
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) return 'inconclusive';
  const below = upper < 0;
  const above = lower > 0;
  if (direction === '<') return below ? 'holds' : above ? 'contradicted' : 'inconclusive';
  return above ? 'holds' : below ? 'contradicted' : 'inconclusive';
}

/** The decision of a 90 % interval on the difference for equivalence within ±margin (TOST at 5 %). */
export function decideEquivalence(margin: number, lower: number, upper: number): 'equivalent' | 'contradicted' | 'inconclusive' {
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) return 'inconclusive';
  if (lower > -margin && upper < margin) return 'equivalent';
  if (lower > margin || upper < -margin) return 'contradicted';
  return 'inconclusive';
}

/** Predictions of a run as the comparison sees them: test logits, or the calibrator's probabilities. */
async function predictions(r: RunResult, after: string | undefined): Promise<{ m: Matrix; input: 'logits' | 'probabilities'; labels: Int32Array }> {
  const p = await readRunPredictions(r.dir);
  if (after === undefined) return { m: p.test, input: 'logits', labels: p.testLabels };
  const c = calibratorFromJSON(r.posthoc.calibrators[after]!.calibrator);
  return { m: c.apply({ logits: p.test }), input: 'probabilities', labels: p.testLabels };
}

function gather(m: Matrix, idx: Int32Array): Matrix {
  const out = new Float64Array(idx.length * m.cols);
  for (let i = 0; i < idx.length; i++) for (let j = 0; j < m.cols; j++) out[i * m.cols + j] = m.data[idx[i]! * m.cols + j]!;
  return { rows: idx.length, cols: m.cols, data: out };
}

/** metric(indices) of one prediction matrix: fast paths on top-label arrays, else the full evaluation. */
function metricOn(m: Matrix, labels: Int32Array, input: 'logits' | 'probabilities', metric: string, bins: number): (idx: Int32Array) => number {
  const { confidence, correct } = topLabel(m, labels, input);
  const conf = new Float64Array(labels.length);
  const corr = new Uint8Array(labels.length);
  const pick = (idx: Int32Array): void => {
    for (let i = 0; i < idx.length; i++) {
      conf[i] = confidence[idx[i]!]!;
      corr[i] = correct[idx[i]!]!;
    }
  };
  switch (metric) {
    case 'ece':
      return (idx) => (pick(idx), expectedCalibrationError(conf, corr, { bins, convention: '(l,u]' }));
    case 'adaece':
      return (idx) => (pick(idx), adaptiveCalibrationError(conf, corr, { bins }));
    case 'accuracy':
      return (idx) => {
        let s = 0;
        for (const i of idx) s += correct[i]!;
        return s / idx.length;
      };
    case 'mean_confidence':
      return (idx) => {
        let s = 0;
        for (const i of idx) s += confidence[i]!;
        return s / idx.length;
      };
    default:
      return (idx) => {
        const y = new Int32Array(idx.length);
        for (let i = 0; i < idx.length; i++) y[i] = labels[idx[i]!]!;
        return evaluate(gather(m, idx), y, { input, bins, convention: '(l,u]' })[metric as 'nll'] as number;
      };
  }
}

/** z₀.₉₇₅ and z₀.₈ of the standard normal: the one-seed (bootstrap) minimum detectable effect. */
const Z975 = 1.959963984540054;
const Z80 = 0.8416212335729143;

/** A verdict without a decision. */
function undecided(claim: ClaimEntry, outcome: 'not evaluated' | 'not tested', text: string, comparison?: Comparison | Equivalence): Verdict {
  return {
    claim,
    ...(comparison ? { comparison } : {}),
    outcome,
    difference: Number.NaN,
    lower: Number.NaN,
    upper: Number.NaN,
    level: Number.NaN,
    method: 'none',
    n: 0,
    mde: Number.NaN,
    p: Number.NaN,
    pHolm: Number.NaN,
    outcomeHolm: null,
    holmNote: null,
    ...(outcome === 'not tested' ? { reason: text } : { note: text }),
  };
}

/** Why some runs lack a claim metric. */
function missingMetric(metric: ClaimMetric, name: string): string {
  const why =
    metric.family === 'ood' || metric.family === 'shift'
      ? ' (the suite needs `ood: true`)'
      : metric.family === 'train'
        ? ' (the runs need `evaluateTrain: true`)'
        : metric.family === 'test'
          ? ''
          : ' (segmentation runs only)';
  return `some runs have no ${name}${why}`;
}

/** Decide a directional or equivalence claim on its two sides' runs (see the file's comment). */
async function decideSides(results: SuiteResults, claim: ClaimEntry, c: Comparison | Equivalence, margin = Number.NaN): Promise<Verdict> {
  const suite = results.record.suite;
  const metric = parseClaimMetric(c.metric)!;
  const none = (note: string): Verdict => undecided(claim, 'not evaluated', note, c);
  const left = results.methods.find((m) => m.name === c.left);
  const right = results.methods.find((m) => m.name === c.right);
  if (!left || !right) return none('a method has no finished run');
  // A pair counts only where both runs have the compared calibrator (a fit can fail on a collapsed model).
  const fitted = (r: RunResult, after: string | undefined): boolean => after === undefined || r.posthoc.calibrators[after] !== undefined;
  const pairs = left.runs.flatMap((a) => right.runs.filter((b) => b.run.seed === a.run.seed).map((b) => [a, b] as const)).filter(([a, b]) => fitted(a, c.leftAfter) && fitted(b, c.rightAfter));
  const equivalence = c.direction === '~';
  const level = equivalence ? 0.9 : 0.95;
  const decideInterval = (lower: number, upper: number): ClaimOutcome => (c.direction === '~' ? decideEquivalence(margin, lower, upper) : decide(c.direction, lower, upper));
  const base = { claim, comparison: c, level, pHolm: Number.NaN, outcomeHolm: null, holmNote: null };
  if (pairs.length >= 2) {
    const d = pairs.map(([a, b]) => claimValue(a, metric, c.leftAfter) - claimValue(b, metric, c.rightAfter));
    if (d.some((x) => Number.isNaN(x))) return none(missingMetric(metric, c.metric));
    const t = tInterval(d, level);
    const outcome = decideInterval(t.lower, t.upper);
    let p = tTestP(d);
    if (equivalence) {
      const inside = tostP(d, margin);
      const outside = outsideMarginP(d, margin);
      p = outcome === 'equivalent' ? inside : outcome === 'contradicted' ? outside : Math.min(inside, outside);
    }
    return { ...base, outcome, difference: t.mean, lower: t.lower, upper: t.upper, method: 'paired t over seeds', n: d.length, mde: minimumDetectableEffect(d), p };
  }
  if (pairs.length === 0) {
    const unfitted = [...left.runs.filter((r) => !fitted(r, c.leftAfter)).map(() => c.leftAfter), ...right.runs.filter((r) => !fitted(r, c.rightAfter)).map(() => c.rightAfter)];
    return none(unfitted.length ? `${unfitted[0]} has no fit on some runs (see the post-hoc notes)` : 'no seed shared by both methods');
  }
  if (metric.family !== 'test' && metric.family !== 'foreground')
    return none(`one seed shared: ${c.metric} is decided over paired seeds only (its sets are not the test samples a bootstrap resamples)`);
  const [a, b] = pairs[0]!;
  if (metric.family === 'foreground' && (a.posthoc.foreground === undefined || b.posthoc.foreground === undefined)) return none(`some runs have no ${c.metric} (segmentation runs only)`);
  if (a.posthoc.foreground !== undefined || b.posthoc.foreground !== undefined) {
    // The rows of a segmentation run are pixels: those of one image are strongly correlated, so a bootstrap over
    // pixels gives intervals several times too narrow (measured: 1.25 vs 11.1 points wide for foreground accuracy
    // resampling pixels vs whole images).
    return none('one seed shared: segmentation claims are decided over paired seeds only (pixels of one image are not independent samples for a bootstrap)');
  }
  const pa = await predictions(a, c.leftAfter);
  const pb = await predictions(b, c.rightAfter);
  if (pa.labels.length !== pb.labels.length || pa.labels.some((y, i) => y !== pb.labels[i]))
    invalidArgument(`claim "${c.text}"`, 'two runs evaluated on the same test samples', 'different test labels');
  const fa = metricOn(pa.m, pa.labels, pa.input, metric.metric, suite.bins);
  const fb = metricOn(pb.m, pb.labels, pb.input, metric.metric, suite.bins);
  const fast = ['ece', 'adaece', 'accuracy', 'mean_confidence'].includes(metric.metric);
  const ci = bootstrapInterval(pa.labels.length, (idx) => fa(idx) - fb(idx), { resamples: fast ? 1000 : 200, seed: 0, level });
  const halfWidth = (ci.upper - ci.lower) / 2;
  // The half-width of a 90 % interval is z₀.₉₅·se, of a 95 % one z₀.₉₇₅·se: the MDE is (z₀.₉₇₅ + z₀.₈)·se.
  const zLevel = equivalence ? 1.6448536269514722 : Z975;
  return {
    ...base,
    outcome: decideInterval(ci.lower, ci.upper),
    difference: ci.estimate,
    lower: ci.lower,
    upper: ci.upper,
    method: 'paired bootstrap over test samples',
    n: pa.labels.length,
    mde: (halfWidth / zLevel) * (Z975 + Z80),
    p: Number.NaN,
    note: `${ci.resamples} resamples`,
  };
}

/** The methods whose runs a claim reads (none for an untested claim). */
function claimMethods(t: ClaimEntry['test']): string[] {
  switch (t.kind) {
    case 'compare':
    case 'equivalent':
      return [t.comparison.left, t.comparison.right];
    case 'qualitative':
      return t.qualitative.kind === 'order' ? [...t.qualitative.methods] : [t.qualitative.method];
    case 'not tested':
      return [];
  }
}

/**
 * Why a claim cannot be decided on an unfinished suite, or null: every run the suite plans for the claim's methods
 * (each seed, each swept value) must be finished, so that no verdict is computed on fewer seeds (or a sweep chosen
 * over fewer values) than the report's settings state.
 */
export function missingRunsNote(results: SuiteResults, t: ClaimEntry['test']): string | null {
  const unfinished = new Set(results.missing);
  const parts = [...new Set(claimMethods(t))].flatMap((method) => {
    const planned = results.record.runs.filter((r) => r.method === method);
    const missing = planned.filter((r) => unfinished.has(r.id)).length;
    return missing ? [`${missing} of the ${planned.length} runs of ${method} not finished`] : [];
  });
  return parts.length ? `runs missing: ${parts.join('; ')}` : divergedRunsNote(results, t);
}

/**
 * Why a claim cannot be decided because a method it reads diverged, or null: an unswept method with a diverged seed,
 * or a swept one with no value left (suite-results.ts leaves both out of the methods). A swept method with some
 * values left is decided on them (the argmin/argmax note names the values left out).
 */
export function divergedRunsNote(results: SuiteResults, t: ClaimEntry['test']): string | null {
  const parts = [...new Set(claimMethods(t))].flatMap((method) => {
    const diverged = results.diverged.filter((d) => d.run.method === method).length;
    if (diverged === 0 || results.methods.some((m) => m.name === method)) return [];
    const planned = results.record.runs.filter((r) => r.method === method).length;
    return [`${method} diverged (training loss NaN or infinite) in ${diverged} of its ${planned} runs`];
  });
  return parts.length ? parts.join('; ') : null;
}

/** The raw verdict of one claim. */
async function decideClaim(results: SuiteResults, claim: ClaimEntry): Promise<Verdict> {
  const t = claim.test;
  const missing = missingRunsNote(results, t);
  if (missing !== null) {
    const none = undecided(claim, 'not evaluated', missing, t.kind === 'compare' || t.kind === 'equivalent' ? t.comparison : undefined);
    if (t.kind !== 'qualitative') return none;
    // The criterion as a sentence, without the numbers of the unfinished sweep.
    const { text, percent } = qualitativeVerdict(results, t.qualitative).criterion;
    return { ...none, criterion: { text, result: 'n/a', points: [], steps: [], percent } };
  }
  switch (t.kind) {
    case 'not tested':
      return undecided(claim, 'not tested', t.reason);
    case 'compare':
      return decideSides(results, claim, t.comparison);
    case 'equivalent':
      return decideSides(results, claim, t.comparison, t.margin);
    case 'qualitative': {
      const q = qualitativeVerdict(results, t.qualitative);
      const { note: _none, ...shape } = undecided(claim, 'not evaluated', '');
      const decided = {
        ...shape,
        outcome: q.outcome,
        method: q.outcome === 'not evaluated' ? ('none' as const) : ('criterion over seed means' as const),
        n: q.n,
        criterion: q.criterion,
        ...(q.note !== undefined ? { note: q.note } : {}),
      };
      if (q.test === undefined) return decided;
      // argmin / argmax with the minimum elsewhere: the paired test of the paper's value decides (and joins Holm's family).
      const { difference, lower, upper, n, mde, p } = q.test;
      return { ...decided, method: 'paired t over seeds', difference, lower, upper, level: 0.95, n, mde, p };
    }
  }
}

/** Why a verdict is outside the Holm families. */
function holmExclusion(v: Verdict): string {
  if (v.outcome === 'not tested' || v.outcome === 'not evaluated') return 'no test';
  if (v.method === 'paired bootstrap over test samples') return 'not adjusted (one seed: a bootstrap interval, no p-value)';
  if (v.criterion !== undefined && v.claim.test.kind === 'qualitative' && (v.claim.test.qualitative.kind === 'argmin' || v.claim.test.qualitative.kind === 'argmax'))
    return `not adjusted (the observed ${v.claim.test.qualitative.kind === 'argmin' ? 'minimum' : 'maximum'} is at the paper's value: nothing to test)`;
  if (v.criterion !== undefined) return 'not adjusted (a shape criterion)';
  return 'not adjusted';
}

/** Holm-adjust the paired-t p-values within each origin's family; the outcome at the adjusted level. */
function withHolm(verdicts: readonly Verdict[]): Verdict[] {
  const out = [...verdicts];
  for (const origin of ['paper', 'suite'] as const) {
    const family = verdicts.map((v, i) => [v, i] as const).filter(([v]) => v.claim.origin === origin && v.method === 'paired t over seeds' && Number.isFinite(v.p));
    const adjusted = holmAdjust(family.map(([v]) => v.p));
    family.forEach(([v, i], k) => {
      const pHolm = adjusted[k]!;
      out[i] = { ...v, pHolm, outcomeHolm: pHolm < 0.05 ? v.outcome : 'inconclusive', holmNote: null };
    });
  }
  return out.map((v) => (Number.isFinite(v.pHolm) ? v : { ...v, holmNote: holmExclusion(v) }));
}

/** Decide every claim of the suite (its `claims`, then its `compare` strings), Holm-adjusted per family. */
export async function suiteVerdicts(results: SuiteResults): Promise<Verdict[]> {
  const raw: Verdict[] = [];
  for (const claim of claimEntries(results.record.suite)) raw.push(await decideClaim(results, claim));
  return withHolm(raw);
}
