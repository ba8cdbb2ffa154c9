/**
 * Class-balanced sample weights, scikit-learn's `class_weight='balanced'` convention
 * (sklearn.utils.class_weight.compute_class_weight): w_i = N / (C · n_{y_i}), with n_k the count of class k among
 * the N labels and C the number of classes present (as scikit-learn, which counts the classes found in y). Every
 * present class then carries the same total weight N / C, and the weights sum to N.
 */
import { invalidArgument } from '../util/errors.js';

/** w_i = N / (C · n_{y_i}) for labels in [0, classes) (see the file comment). */
export function balancedClassWeights(labels: Int32Array, classes: number): Float64Array {
  const n = labels.length;
  if (n === 0) invalidArgument('labels', 'at least one label', '0 labels');
  const counts = new Float64Array(classes);
  for (let i = 0; i < n; i++) {
    const y = labels[i]!;
    if (!(y >= 0 && y < classes)) invalidArgument(`labels[${i}]`, `a class in [0, ${classes})`, String(y));
    counts[y] = counts[y]! + 1;
  }
  let present = 0;
  for (const c of counts) if (c > 0) present++;
  const weights = new Float64Array(n);
  for (let i = 0; i < n; i++) weights[i] = n / (present * counts[labels[i]!]!);
  return weights;
}
