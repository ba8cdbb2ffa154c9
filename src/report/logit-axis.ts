import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { niceTicks } from './axes.js';

/**
 * Logit axes of a calibration plot (as clinical calibration plots draw them): x = logit of a bin's mean predicted probability, y = logit of its observed frequency, with
 * logit(q) = ln(q / (1 − q)). A bin of n rows whose frequency is 0 or 1 has an infinite logit, so both coordinates
 * are clipped to [0.5/n, 1 − 0.5/n] first — the usual continuity correction of half an event — and such a bin is
 * flagged as clipped. No coordinate is ever ±∞ or NaN.
 */
export const LOGIT_CLIP_RULE = "frequencies of 0 or 1 clipped to [0.5/n, 1 − 0.5/n] of the bin's n rows";

/** One non-empty bin in logit units. */
export interface LogitPoint {
  readonly bin: number;
  readonly x: number;
  readonly y: number;
  /** Whether either coordinate was clipped (its probability was outside [0.5/n, 1 − 0.5/n]). */
  readonly clipped: boolean;
}

/** logit(q) of q clipped to [0.5/n, 1 − 0.5/n]; `clipped` says whether the clip moved q. */
export function clippedLogit(q: number, n: number): { value: number; clipped: boolean } {
  const lo = 0.5 / n;
  const c = Math.min(Math.max(q, lo), 1 - lo);
  return { value: Math.log(c / (1 - c)), clipped: c !== q };
}

/** The logit coordinates of every non-empty bin (empty bins are not drawn). */
export function logitPoints(data: ReliabilityData): LogitPoint[] {
  const points: LogitPoint[] = [];
  data.bins.forEach((bin, b) => {
    if (bin.count === 0) return;
    // A bin of a single row has 0.5/n = 0.5: both coordinates collapse to 0; that is the correction's answer for n = 1.
    const x = clippedLogit(bin.meanConfidence, bin.count);
    const y = clippedLogit(bin.accuracy, bin.count);
    points.push({ bin: b, x: x.value, y: y.value, clipped: x.clipped || y.clipped });
  });
  return points;
}

/**
 * Common domain and ticks of both logit axes (the same on x and y, so the identity line is the diagonal):
 * symmetric around 0, reaching the largest |coordinate| (at least 2, i.e. p ≈ 0.12 … 0.88) with a nice step.
 */
export function logitDomain(points: readonly LogitPoint[]): { limit: number; ticks: number[] } {
  let max = 2;
  for (const p of points) max = Math.max(max, Math.abs(p.x), Math.abs(p.y));
  const positive = niceTicks(max * 1.05, 3);
  const limit = positive[positive.length - 1]!;
  const ticks = [
    ...positive
      .slice(1)
      .reverse()
      .map((t) => -t),
    ...positive,
  ];
  return { limit, ticks };
}
