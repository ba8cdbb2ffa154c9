import { describe, invalidArgument } from '../../util/errors.js';

/**
 * Per-sample weights w_i of the weighted metrics (scikit-learn's `sample_weight`): one finite w_i ≥ 0 per row,
 * not all zero. A weighted mean is Σ w_i x_i / Σ w_i, and integer weights equal repeating row i w_i times.
 * Returns the weights as a Float64Array (a copy). Throws InvalidArgumentError naming `argument` otherwise.
 */
export function requireSampleWeights(weights: unknown, rows: number, argument = 'weights'): Float64Array {
  if (!(Array.isArray(weights) || (ArrayBuffer.isView(weights) && !(weights instanceof DataView)))) invalidArgument(argument, 'an array of numbers (one weight per row)', describe(weights));
  const values = weights as ArrayLike<unknown>;
  if (values.length !== rows) invalidArgument(argument, `${rows} weights, one per row`, `${values.length}`);
  const out = new Float64Array(rows);
  let total = 0;
  for (let i = 0; i < rows; i++) {
    const w = values[i];
    if (typeof w !== 'number' && typeof w !== 'bigint') invalidArgument(`${argument}[${i}]`, 'a number', describe(w));
    const x = Number(w);
    if (!Number.isFinite(x) || x < 0) invalidArgument(`${argument}[${i}]`, 'a finite weight ≥ 0', describe(x));
    out[i] = x;
    total += x;
  }
  if (!(total > 0)) invalidArgument(argument, 'weights that are not all zero', rows === 0 ? '0 weights' : 'all zero');
  if (!Number.isFinite(total)) invalidArgument(argument, 'weights with a finite sum', 'a sum overflowing float64');
  return out;
}
