/**
 * Pool adjacent violators (PAV): the weighted least-squares non-decreasing fit to a sequence, in place on values y
 * with weights w (scikit-learn's `_inplace_contiguous_isotonic_regression`: single pass with backtracking, O(n));
 * returns y. A numeric primitive under both metrics (CORP decomposition) and posthoc (isotonic regression,
 * Venn-ABERS), so it lives in util/.
 */
export function pav(y: Float64Array, w: Float64Array): Float64Array {
  const n = y.length;
  const target = new Int32Array(n);
  for (let j = 0; j < n; j++) target[j] = j; // a plain loop: Int32Array.from with a callback costs ~20× more at N = 10⁶
  let i = 0;
  while (i < n) {
    let k = target[i]! + 1;
    if (k === n) break;
    if (y[i]! < y[k]!) {
      i = k;
      continue;
    }
    let sumWy = w[i]! * y[i]!;
    let sumW = w[i]!;
    for (;;) {
      const prevY = y[k]!;
      sumWy += w[k]! * y[k]!;
      sumW += w[k]!;
      k = target[k]! + 1;
      if (k === n || prevY < y[k]!) {
        y[i] = sumWy / sumW;
        w[i] = sumW;
        target[i] = k - 1;
        target[k - 1] = i;
        if (i > 0) i = target[i - 1]!;
        break;
      }
    }
  }
  i = 0;
  while (i < n) {
    const k = target[i]! + 1;
    for (let j = i + 1; j < k; j++) y[j] = y[i]!;
    i = k;
  }
  return y;
}
