/**
 * Temperature scaling over choice sets of different sizes (multiple-choice questions with C_i options each):
 * p_i = softmax(z_i / T) over question i's own options, one T > 0 minimising the mean NLL over all questions
 * (Guo et al. 2017 with ragged rows). NLL(β) = (1/N) Σ_i [log Σ_k exp(β z_ik) − β z_iy], β = 1/T, is convex in β;
 * the rows are grouped by C and each group's NLL and derivatives come from `temperatureNll` (temperature.ts),
 * weighted by its share of the questions. With one C for every question, `fitTemperature` is used instead (the
 * same minimiser as `calib fit --method temperature`).
 *
 * The minimiser: Newton steps on β inside a sign-change bracket of NLL' (beta-bracket.ts: geometric bisection when a
 * step leaves it, ×4 expansion while there is no bracket), β ∈ [1/MAX_TEMPERATURE, 1/MIN_TEMPERATURE], stopped at a
 * relative step below 1e−10.
 */
import { matrix } from '../../util/matrix.js';
import { BetaBracket } from './beta-bracket.js';
import { CalibrationFitError } from '../fit-error.js';
import { fitTemperature, MAX_TEMPERATURE, MIN_TEMPERATURE, temperatureNll } from './temperature.js';

interface Group {
  readonly logits: Float64Array;
  readonly labels: Int32Array;
  readonly rows: number;
  readonly cols: number;
}

/** Group ragged rows by their number of options. */
function groupByWidth(scores: readonly Float64Array[], gold: ArrayLike<number>): Group[] {
  const byWidth = new Map<number, number[]>();
  scores.forEach((row, i) => {
    const list = byWidth.get(row.length) ?? [];
    list.push(i);
    byWidth.set(row.length, list);
  });
  return [...byWidth.entries()].map(([cols, rows]) => {
    const logits = new Float64Array(rows.length * cols);
    const labels = new Int32Array(rows.length);
    rows.forEach((i, r) => {
      logits.set(scores[i]!, r * cols);
      labels[r] = gold[i]!;
    });
    return { logits, labels, rows: rows.length, cols };
  });
}

/** Mean NLL derivatives in β over all groups. */
function derivatives(groups: readonly Group[], total: number, beta: number): { d1: number; d2: number } {
  let d1 = 0;
  let d2 = 0;
  for (const g of groups) {
    const t = temperatureNll(g.logits, g.rows, g.cols, g.labels, beta);
    d1 += (t.d1 * g.rows) / total;
    d2 += (t.d2 * g.rows) / total;
  }
  return { d1, d2 };
}

/** T minimising the mean NLL of softmax(z_i / T) over ragged rows `scores` with gold indices `gold`. */
export function raggedTemperature(scores: readonly Float64Array[], gold: ArrayLike<number>): number {
  const widths = new Set(scores.map((r) => r.length));
  if (widths.size === 1) {
    const cols = scores[0]!.length;
    const data = new Float64Array(scores.length * cols);
    scores.forEach((r, i) => data.set(r, i * cols));
    return fitTemperature({ logits: matrix(scores.length, cols, data) }, Int32Array.from(gold)).temperature;
  }
  const groups = groupByWidth(scores, gold);
  const method = 'temperature';
  const bracket = new BetaBracket(1 / MAX_TEMPERATURE, 1 / MIN_TEMPERATURE, method, {
    atMax: () => `the validation NLL keeps decreasing as T → 0 (down to T = ${MIN_TEMPERATURE}): the answers are (nearly) all correct`,
    atMin: () => `the validation NLL keeps decreasing as T → ∞ (up to T = ${MAX_TEMPERATURE}): the scores carry no information about the answers`,
  });
  let beta = 1;
  for (let iteration = 0; iteration < 200; iteration++) {
    const { d1, d2 } = derivatives(groups, scores.length, beta);
    if (!Number.isFinite(d1) || !Number.isFinite(d2)) throw new CalibrationFitError(method, `the NLL derivative is not finite at T = ${1 / beta}`);
    const falling = d1 <= 0;
    bracket.narrow(beta, falling);
    let next = d2 > 0 ? beta - d1 / d2 : NaN;
    if (!bracket.contains(next)) next = bracket.fallback(beta, falling);
    if (Math.abs(next - beta) <= 1e-10 * beta) return 1 / next;
    beta = next;
  }
  throw new CalibrationFitError(method, 'the NLL minimisation did not converge in 200 iterations');
}
