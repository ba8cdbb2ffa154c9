import { invalidArgument } from '../util/errors.js';

/**
 * Shape checks on predictions and labels read from files, made before any value is read (a streamed `.npy`
 * file's size is known from its header). Value checks (finite entries, probability rows summing to 1 within
 * `PROBABILITY_SUM_TOLERANCE` = 1e-3, labels integral and in [0, C)) are the metrics layer's: see
 * `requirePredictionValues` and `requireLabels` in src/metrics/validation.ts, which take the same argument names
 * and a row offset for chunks.
 */

/**
 * N ≥ 1 rows, C ≥ 2 columns, and one label per row. `predictionsArg`/`labelsArg` name the inputs in errors
 * (e.g. `--logits`, `--labels`); pass `labels` undefined when there are none (e.g. `calib apply`).
 */
export function requirePredictionShape(predictionsArg: string, rows: number, cols: number, labelsArg?: string, labels?: number): void {
  if (rows < 1) invalidArgument(predictionsArg, 'at least one sample (row)', '0 rows');
  if (cols < 2) invalidArgument(predictionsArg, 'at least 2 classes (columns)', `${cols} column${cols === 1 ? '' : 's'}`);
  if (labelsArg !== undefined && labels !== rows) {
    invalidArgument(labelsArg, `${rows} labels, one per row of ${predictionsArg}`, `${labels}`);
  }
}
