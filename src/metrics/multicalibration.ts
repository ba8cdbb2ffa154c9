/**
 * Multicalibration error, the top-label, binned, empirical version: over every cell (group g, confidence bin m)
 * holding at least `minCellSize` rows,
 *
 *   MCE_multi = max_{g, m} | (1/|S_gm|) Σ_{i ∈ S_gm} (c_i − a_i) |,
 *
 * c_i the top-label confidence, a_i = 1 if the top label is right, S_gm the rows of group g whose confidence falls
 * in bin m (M equal-width bins on [0, 1], '(l,u]': a confidence on an edge goes to the lower bin, 0 to the first).
 * Cells below the minimum are skipped (too few rows to estimate their mean) and counted. With sample weights w_i
 * the cell mean is Σ w_i (c_i − a_i) / Σ w_i (cells of zero weight skipped; the minimum still counts rows).
 * `multicalibrationOverColumns`: the same maximum over the cells of several group columns (a row is in one group
 * of each column, so the collection of sets is the union of the columns' groups).
 *
 * Source of the notion: Hébert-Johnson, Kim, Reingold & Rothblum (2018), "Multicalibration: Calibration for the
 * (Computationally-Identifiable) Masses" (ICML), define α-multicalibration of a predictor with respect to a
 * collection of sets: on every set of the collection and every level set of the prediction, the expected outcome
 * is within α of the prediction (their definition restricts to sets of at least a γ fraction of the population
 * and discretises predictions into intervals). This function is an empirical, top-label, binned version of that
 * quantity — the smallest α for which the evaluated rows are α-multicalibrated over groups × bins, with the
 * minimum cell size playing the role of their size threshold — not the paper's population definition.
 */
export interface MulticalibrationResult {
  /** The largest |mean(c − a)| over qualifying cells; null when no cell has `minCellSize` rows. */
  readonly value: number | null;
  /** Group index and bin index (0-based) of the largest cell, null with `value`. */
  readonly group: number | null;
  readonly bin: number | null;
  /** Rows of that cell. */
  readonly cellSize: number | null;
  /** Non-empty cells that were evaluated / skipped for having fewer than `minCellSize` rows. */
  readonly cellsEvaluated: number;
  readonly cellsSkipped: number;
  readonly bins: number;
  readonly minCellSize: number;
}

/** Bin index of a confidence under '(l,u]' with M equal-width bins (0 in the first bin). */
function binOf(confidence: number, bins: number): number {
  const k = Math.ceil(confidence * bins) - 1;
  return k < 0 ? 0 : k >= bins ? bins - 1 : k;
}

/**
 * @param confidence top-label confidences in [0, 1]
 * @param correct 1 where the top label is right, else 0
 * @param group group index per row, 0 … groupCount − 1
 */
export function multicalibrationError(
  confidence: ArrayLike<number>,
  correct: ArrayLike<number>,
  group: ArrayLike<number>,
  groupCount: number,
  options: { bins?: number; minCellSize?: number; weights?: ArrayLike<number> } = {},
): MulticalibrationResult {
  const bins = options.bins ?? 15;
  const minCellSize = options.minCellSize ?? 20;
  const w = options.weights;
  const count = new Float64Array(groupCount * bins);
  const mass = new Float64Array(groupCount * bins);
  const gap = new Float64Array(groupCount * bins);
  for (let i = 0; i < confidence.length; i++) {
    const cell = group[i]! * bins + binOf(confidence[i]!, bins);
    const wi = w === undefined ? 1 : w[i]!;
    count[cell]! += 1;
    mass[cell]! += wi;
    gap[cell]! += wi * (confidence[i]! - correct[i]!);
  }
  let best = -1;
  let at = -1;
  let evaluated = 0;
  let skipped = 0;
  for (let cell = 0; cell < count.length; cell++) {
    const n = count[cell]!;
    if (n === 0) continue;
    if (n < minCellSize || !(mass[cell]! > 0)) {
      skipped++;
      continue;
    }
    evaluated++;
    const value = Math.abs(gap[cell]! / mass[cell]!);
    if (value > best) ((best = value), (at = cell));
  }
  const found = at >= 0;
  return {
    value: found ? best : null,
    group: found ? Math.floor(at / bins) : null,
    bin: found ? at % bins : null,
    cellSize: found ? count[at]! : null,
    cellsEvaluated: evaluated,
    cellsSkipped: skipped,
    bins,
    minCellSize,
  };
}

/** The result over several group columns: the largest cell of any column (`column` its index; null with value). */
export interface ColumnsMulticalibrationResult extends MulticalibrationResult {
  readonly column: number | null;
}

/**
 * Multicalibration error over the union of several columns' groups: the maximum of `multicalibrationError` over
 * the columns (a cell of column j is (group of column j, bin)); evaluated and skipped cells are summed.
 */
export function multicalibrationOverColumns(
  confidence: ArrayLike<number>,
  correct: ArrayLike<number>,
  columns: readonly { readonly index: ArrayLike<number>; readonly count: number }[],
  options: { bins?: number; minCellSize?: number; weights?: ArrayLike<number> } = {},
): ColumnsMulticalibrationResult {
  const results = columns.map((c) => multicalibrationError(confidence, correct, c.index, c.count, options));
  let column: number | null = null;
  results.forEach((r, j) => {
    if (r.value !== null && (column === null || r.value > results[column]!.value!)) column = j;
  });
  const best = column === null ? null : results[column]!;
  return {
    value: best?.value ?? null,
    group: best?.group ?? null,
    bin: best?.bin ?? null,
    cellSize: best?.cellSize ?? null,
    cellsEvaluated: results.reduce((s, r) => s + r.cellsEvaluated, 0),
    cellsSkipped: results.reduce((s, r) => s + r.cellsSkipped, 0),
    bins: options.bins ?? 15,
    minCellSize: options.minCellSize ?? 20,
    column,
  };
}
