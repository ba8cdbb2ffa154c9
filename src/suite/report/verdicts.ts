/**
 * Verdicts of a suite's comparisons ("mbls < ce on ece"). With two or more seeds, runs are paired by seed and the
 * claim is decided on the paired differences d_s = metric(A, s) − metric(B, s): their mean and 95 % t-interval.
 * With one seed, by a paired percentile bootstrap over the test samples (both runs see the same test set: each
 * resample draws the same indices for A and B; 1,000 resamples, seed 0), on the difference of the metric.
 * "A < B" holds when the whole interval is below 0, does not hold when it is wholly above 0, and is inconclusive
 * when it contains 0 ("A > B" mirrors this). Each side is read raw or after its calibrator (comparison.ts).
 * Claim metrics other than test metrics (claim-metric.ts) are decided the same way over seeds (report/claim-value.ts
 * reads them); with one seed the OOD, corruption and mIoU ones are not evaluated (their sets are not paired with the
 * test samples), and neither is any claim on segmentation runs (their rows are pixels, correlated within an image).
 */
import { adaptiveCalibrationError } from '../../metrics/adaptive-ece.js';
import { bootstrapInterval } from '../../metrics/bootstrap.js';
import { expectedCalibrationError } from '../../metrics/ece.js';
import { evaluate } from '../../metrics/evaluate.js';
import { topLabel } from '../../metrics/top-label.js';
import { calibratorFromJSON } from '../../posthoc/registry.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import { parseClaimMetric } from '../claim-metric.js';
import { parseComparison, type Comparison } from '../comparison.js';
import { readRunPredictions } from '../posthoc-step.js';
import { claimValue } from './claim-value.js';
import { tInterval } from './statistics.js';
import type { RunResult, SuiteResults } from './suite-results.js';

export type VerdictOutcome = 'holds' | 'does not hold' | 'inconclusive';

export interface Verdict {
  readonly comparison: Comparison;
  readonly outcome: VerdictOutcome | 'not evaluated';
  /** Mean of metric(A) − metric(B). */
  readonly difference: number;
  readonly lower: number;
  readonly upper: number;
  readonly method: 'paired t over seeds' | 'paired bootstrap over test samples' | 'none';
  /** Seeds paired (t) or test samples (bootstrap). */
  readonly n: number;
  readonly note?: string;
}

/** The decision of an interval [lower, upper] on the difference, for the claim's direction. */
export function decide(direction: '<' | '>', lower: number, upper: number): VerdictOutcome {
  if (!Number.isFinite(lower) || !Number.isFinite(upper)) return 'inconclusive';
  const below = upper < 0;
  const above = lower > 0;
  if (direction === '<') return below ? 'holds' : above ? 'does not hold' : 'inconclusive';
  return above ? 'holds' : below ? 'does not hold' : 'inconclusive';
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

/** Decide every comparison of the suite. */
export async function suiteVerdicts(results: SuiteResults): Promise<Verdict[]> {
  const suite = results.record.suite;
  const names = suite.methods.map((m) => m.name);
  const out: Verdict[] = [];
  for (const text of suite.compare) {
    const c = parseComparison(text, names, suite.posthoc, 'compare');
    const claim = parseClaimMetric(c.metric)!;
    const left = results.methods.find((m) => m.name === c.left);
    const right = results.methods.find((m) => m.name === c.right);
    if (!left || !right) {
      out.push({ comparison: c, outcome: 'not evaluated', difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, method: 'none', n: 0, note: 'a method has no finished run' });
      continue;
    }
    // A pair counts only where both runs have the compared calibrator (a fit can fail on a collapsed model).
    const fitted = (r: RunResult, after: string | undefined): boolean => after === undefined || r.posthoc.calibrators[after] !== undefined;
    const pairs = left.runs.flatMap((a) => right.runs.filter((b) => b.run.seed === a.run.seed).map((b) => [a, b] as const)).filter(([a, b]) => fitted(a, c.leftAfter) && fitted(b, c.rightAfter));
    const none = (note: string): Verdict => ({ comparison: c, outcome: 'not evaluated', difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, method: 'none', n: 0, note });
    if (pairs.length >= 2) {
      const d = pairs.map(([a, b]) => claimValue(a, claim, c.leftAfter) - claimValue(b, claim, c.rightAfter));
      if (d.some((x) => Number.isNaN(x))) {
        const why = claim.family === 'ood' || claim.family === 'shift' ? ' (the suite needs `ood: true`)' : claim.family === 'test' ? '' : ' (segmentation runs only)';
        out.push(none(`some runs have no ${c.metric}${why}`));
        continue;
      }
      const t = tInterval(d);
      out.push({ comparison: c, outcome: decide(c.direction, t.lower, t.upper), difference: t.mean, lower: t.lower, upper: t.upper, method: 'paired t over seeds', n: d.length });
      continue;
    }
    if (pairs.length === 0) {
      const unfitted = [...left.runs.filter((r) => !fitted(r, c.leftAfter)).map(() => c.leftAfter), ...right.runs.filter((r) => !fitted(r, c.rightAfter)).map(() => c.rightAfter)];
      out.push(none(unfitted.length ? `${unfitted[0]} has no fit on some runs (see the post-hoc notes)` : 'no seed shared by both methods'));
      continue;
    }
    if (claim.family !== 'test' && claim.family !== 'foreground') {
      out.push(none(`one seed shared: ${c.metric} is decided over paired seeds only (its sets are not the test samples a bootstrap resamples)`));
      continue;
    }
    const [a, b] = pairs[0]!;
    if (claim.family === 'foreground' && (a.posthoc.foreground === undefined || b.posthoc.foreground === undefined)) {
      out.push(none(`some runs have no ${c.metric} (segmentation runs only)`));
      continue;
    }
    if (a.posthoc.foreground !== undefined || b.posthoc.foreground !== undefined) {
      // The rows of a segmentation run are pixels: those of one image are strongly correlated, so a bootstrap over
      // pixels gives intervals several times too narrow (measured: 1.25 vs 11.1 points wide for foreground accuracy
      // resampling pixels vs whole images).
      out.push(none(`one seed shared: segmentation claims are decided over paired seeds only (pixels of one image are not independent samples for a bootstrap)`));
      continue;
    }
    const pa = await predictions(a, c.leftAfter);
    const pb = await predictions(b, c.rightAfter);
    if (pa.labels.length !== pb.labels.length || pa.labels.some((y, i) => y !== pb.labels[i])) invalidArgument(`compare "${text}"`, 'two runs evaluated on the same test samples', 'different test labels');
    const fa = metricOn(pa.m, pa.labels, pa.input, claim.metric, suite.bins);
    const fb = metricOn(pb.m, pb.labels, pb.input, claim.metric, suite.bins);
    const fast = ['ece', 'adaece', 'accuracy', 'mean_confidence'].includes(claim.metric);
    const ci = bootstrapInterval(pa.labels.length, (idx) => fa(idx) - fb(idx), { resamples: fast ? 1000 : 200, seed: 0 });
    out.push({ comparison: c, outcome: decide(c.direction, ci.lower, ci.upper), difference: ci.estimate, lower: ci.lower, upper: ci.upper, method: 'paired bootstrap over test samples', n: pa.labels.length, note: `${ci.resamples} resamples` });
  }
  return out;
}
