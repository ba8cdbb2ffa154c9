/**
 * One-dimensional binary calibration maps g: [0, 1] → [0, 1] fitted on scores s_i (a probability: a top-label
 * confidence or one class's probability) and outcomes t_i ∈ {0, 1}. They are the building blocks of the
 * top-label, top-versus-all and scaling-binning calibrators. Each map is plain data (JSON round trip exact).
 *
 * - 'histogram': equal-mass histogram binning as in Kumar et al. 2019's `HistogramCalibrator`
 *   (p-lambda/verified_calibration, utils.get_equal_bins + get_histogram_calibrator): the sorted scores are
 *   split into B near-equal parts (numpy array_split: the first n mod B parts get one more), the edges are the
 *   midpoints between consecutive parts plus a final edge 1, duplicates dropped; a score s falls in the first
 *   bin whose edge is ≥ s (searchsorted 'left', so bins are (e_{m−1}, e_m]); a bin's value is the mean outcome
 *   of its scores, an empty bin gets the midpoint of its edges (e_0 / 2 for the first).
 * - 'isotonic': isotonic regression of t on s (isotonic-regression.ts, scikit-learn's behaviour).
 * - 'platt': Platt scaling on the log-odds, g(s) = σ(a · logit(s) + b) with s clipped to [1e−12, 1 − 1e−12]
 *   (Kumar et al.'s `get_platt_scaler`), fitted by unregularised logistic regression (logistic-regression.ts).
 */
import { describe, invalidArgument } from '../../util/errors.js';
import { CalibrationFitError } from '../fit-error.js';
import type { IsotonicFit } from './isotonic-regression.js';
import { fitIsotonic, predictIsotonic } from './isotonic-regression.js';
import { readNumber, readVector, requireRecord } from '../json.js';
import { fitLogistic, sigmoid } from '../scaling/logistic-regression.js';

export const SCORE_MAP_KINDS = ['histogram', 'isotonic', 'platt'] as const;
export type ScoreMapKind = (typeof SCORE_MAP_KINDS)[number];

/** Clip used before the log-odds of a score (Kumar et al.'s eps). */
export const LOGIT_CLIP = 1e-12;

export type ScoreMap =
  | { readonly kind: 'histogram'; readonly edges: Float64Array; readonly values: Float64Array }
  | { readonly kind: 'isotonic'; readonly fit: IsotonicFit }
  | { readonly kind: 'platt'; readonly a: number; readonly b: number };

/** log(s / (1 − s)) of s clipped to [LOGIT_CLIP, 1 − LOGIT_CLIP]. */
export function clippedLogit(s: number): number {
  const c = Math.min(Math.max(s, LOGIT_CLIP), 1 - LOGIT_CLIP);
  return Math.log(c / (1 - c));
}

/**
 * Equal-mass bin edges of `scores` for at most `bins` bins (Kumar et al.'s get_equal_bins): increasing, last
 * edge 1. Fewer bins than requested when there are fewer scores or repeated midpoints.
 */
export function equalMassEdges(scores: Float64Array, bins: number): Float64Array {
  const sorted = Float64Array.from(scores).sort();
  const n = sorted.length;
  const parts = Math.min(bins, n);
  const base = Math.floor(n / parts);
  const extra = n % parts;
  const edges: number[] = [];
  let start = 0;
  for (let p = 0; p < parts - 1; p++) {
    const end = start + base + (p < extra ? 1 : 0); // exclusive end of part p
    edges.push((sorted[end - 1]! + sorted[end]!) / 2);
    start = end;
  }
  edges.push(1);
  const unique = Array.from(new Set(edges)).sort((x, y) => x - y);
  return Float64Array.from(unique);
}

/** Index of the first edge ≥ s (searchsorted 'left'), clipped to the last bin. */
export function edgeBin(edges: Float64Array, s: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, edges.length - 1);
}

/** Mean of `values` per equal-mass bin of `scores` (empty bins: midpoint of their edges). */
export function binMeans(edges: Float64Array, scores: Float64Array, values: Float64Array): Float64Array {
  const sum = new Float64Array(edges.length);
  const count = new Float64Array(edges.length);
  for (let i = 0; i < scores.length; i++) {
    const b = edgeBin(edges, scores[i]!);
    sum[b] = sum[b]! + values[i]!;
    count[b] = count[b]! + 1;
  }
  return sum.map((s, b) => (count[b]! > 0 ? s / count[b]! : (b === 0 ? edges[0]! : edges[b]! + edges[b - 1]!) / 2));
}

/** Fit a score map of `kind` on scores s (in [0, 1]) and outcomes t (0/1); `bins` is for 'histogram'. */
export function fitScoreMap(kind: ScoreMapKind, scores: Float64Array, outcomes: Float64Array, bins: number): ScoreMap {
  if (scores.length === 0) invalidArgument('scores', 'at least one score', '0 scores');
  if (kind === 'histogram') {
    const edges = equalMassEdges(scores, bins);
    return { kind, edges, values: binMeans(edges, scores, outcomes) };
  }
  if (kind === 'isotonic') return { kind, fit: fitIsotonic(scores, outcomes) };
  const n = scores.length;
  const X = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    X[2 * i] = clippedLogit(scores[i]!);
    X[2 * i + 1] = 1;
  }
  const r = fitLogistic(X, n, 2, outcomes, new Float64Array(2), Float64Array.of(1, 0));
  if (!r.converged) {
    throw new CalibrationFitError('platt', 'Newton did not converge (the outcomes may be separable by the score)');
  }
  return { kind, a: r.x[0]!, b: r.x[1]! };
}

/** g(s). */
export function applyScoreMap(map: ScoreMap, s: number): number {
  if (map.kind === 'histogram') return map.values[edgeBin(map.edges, s)]!;
  if (map.kind === 'isotonic') return predictIsotonic(map.fit, s);
  return sigmoid(map.a * clippedLogit(s) + map.b);
}

/** Plain-object form of a score map. */
export function scoreMapToJSON(map: ScoreMap): Record<string, unknown> {
  if (map.kind === 'histogram') return { kind: map.kind, edges: Array.from(map.edges), values: Array.from(map.values) };
  if (map.kind === 'isotonic') return { kind: map.kind, x: Array.from(map.fit.x), y: Array.from(map.fit.y) };
  return { kind: map.kind, a: map.a, b: map.b };
}

/** Read a score map written by `scoreMapToJSON` (validated; errors name `argument`'s fields). */
export function scoreMapFromJSON(argument: string, value: unknown): ScoreMap {
  const r = requireRecord(argument, value);
  const lengthOf = (field: string) => {
    const v = r[field];
    if (!Array.isArray(v) || v.length < 1) invalidArgument(`${argument}.${field}`, 'a non-empty array of numbers', describe(v));
    return v.length;
  };
  const inUnit = (name: string, values: Float64Array) =>
    values.forEach((v, i) => {
      if (!(v >= 0 && v <= 1)) invalidArgument(`${name}[${i}]`, 'a value in [0, 1]', String(v));
    });
  const increasing = (name: string, values: Float64Array, strict: boolean) =>
    values.forEach((v, i) => {
      if (i > 0 && (strict ? !(v > values[i - 1]!) : !(v >= values[i - 1]!))) {
        invalidArgument(`${name}[${i}]`, `a value ${strict ? '>' : '≥'} ${values[i - 1]}`, String(v));
      }
    });
  if (r.kind === 'histogram') {
    const n = lengthOf('edges');
    const edges = readVector(`${argument}.edges`, r.edges, n);
    const values = readVector(`${argument}.values`, r.values, n);
    increasing(`${argument}.edges`, edges, true);
    inUnit(`${argument}.values`, values);
    return { kind: 'histogram', edges, values };
  }
  if (r.kind === 'isotonic') {
    const n = lengthOf('x');
    const x = readVector(`${argument}.x`, r.x, n);
    const y = readVector(`${argument}.y`, r.y, n);
    increasing(`${argument}.x`, x, true);
    increasing(`${argument}.y`, y, false);
    inUnit(`${argument}.y`, y);
    return { kind: 'isotonic', fit: { x, y } };
  }
  if (r.kind === 'platt') {
    const a = readNumber(r, 'a');
    const b = readNumber(r, 'b');
    return { kind: 'platt', a, b };
  }
  return invalidArgument(`${argument}.kind`, `one of ${SCORE_MAP_KINDS.join(', ')}`, describe(r.kind));
}
