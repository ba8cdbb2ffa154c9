import type { ReliabilityData } from '../metrics/binned/reliability-types.js';
import { describe, invalidArgument } from '../util/errors.js';

/** Absolute tolerance on bin edges (edges computed as m/M in floating point may overshoot 1 by an ulp or so). */
const EDGE_TOLERANCE = 1e-9;

function isFraction(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1;
}

/**
 * Validate `ReliabilityData` before drawing it (the report layer draws what the metrics layer computed and
 * never recomputes calibration). Requirements:
 * - `bins` is a non-empty array; edges satisfy 0 ≤ lower ≤ upper ≤ 1 and are ascending (lower_b ≥ upper_{b−1});
 * - each `count` is a non-negative integer and Σ count ≤ `total` (equal-mass binning as in the papers' code may
 *   drop a sample, so the sum may fall short of the total);
 * - a non-empty bin has `accuracy` and `meanConfidence` in [0, 1]; an empty bin's values are ignored;
 * - `total` is a non-negative integer; when it is positive, `ece`, `accuracy` and `meanConfidence` are in [0, 1];
 * - `convention` is '(l,u]' or '[l,u)'.
 * Throws `InvalidArgumentError` naming the offending field (e.g. `data.bins[3].accuracy`).
 */
export function checkReliabilityData(data: ReliabilityData, argument = 'data'): void {
  if (data === null || typeof data !== 'object') invalidArgument(argument, 'a ReliabilityData object', describe(data));
  const bins = data.bins;
  if (!Array.isArray(bins) || bins.length === 0) invalidArgument(`${argument}.bins`, 'a non-empty array of bins', describe(bins));
  const total = data.total;
  if (typeof total !== 'number' || !Number.isInteger(total) || total < 0) invalidArgument(`${argument}.total`, 'a non-negative integer', describe(total));
  if (data.convention !== '(l,u]' && data.convention !== '[l,u)') invalidArgument(`${argument}.convention`, "'(l,u]' or '[l,u)'", describe(data.convention));
  let sum = 0;
  let previousUpper = -Infinity;
  for (let b = 0; b < bins.length; b++) {
    const bin = bins[b];
    const name = `${argument}.bins[${b}]`;
    if (bin === null || typeof bin !== 'object') invalidArgument(name, 'a bin object', describe(bin));
    const { lower, upper, count } = bin;
    if (typeof lower !== 'number' || !Number.isFinite(lower) || lower < -EDGE_TOLERANCE || lower > 1 + EDGE_TOLERANCE) invalidArgument(`${name}.lower`, 'a number in [0, 1]', describe(lower));
    if (typeof upper !== 'number' || !Number.isFinite(upper) || upper < lower || upper > 1 + EDGE_TOLERANCE) invalidArgument(`${name}.upper`, `a number in [lower = ${lower}, 1]`, describe(upper));
    if (lower < previousUpper - EDGE_TOLERANCE) invalidArgument(`${name}.lower`, `bins in ascending order (≥ previous upper ${previousUpper})`, describe(lower));
    previousUpper = upper;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) invalidArgument(`${name}.count`, 'a non-negative integer', describe(count));
    sum += count;
    if (count > 0) {
      if (!isFraction(bin.accuracy)) invalidArgument(`${name}.accuracy`, 'a number in [0, 1]', describe(bin.accuracy));
      if (!isFraction(bin.meanConfidence)) invalidArgument(`${name}.meanConfidence`, 'a number in [0, 1]', describe(bin.meanConfidence));
    }
  }
  if (sum > total) invalidArgument(`${argument}.total`, `at least the sum of bin counts (${sum})`, describe(total));
  if (total > 0) {
    if (!isFraction(data.ece)) invalidArgument(`${argument}.ece`, 'a number in [0, 1]', describe(data.ece));
    if (!isFraction(data.accuracy)) invalidArgument(`${argument}.accuracy`, 'a number in [0, 1]', describe(data.accuracy));
    if (!isFraction(data.meanConfidence)) invalidArgument(`${argument}.meanConfidence`, 'a number in [0, 1]', describe(data.meanConfidence));
  }
}
