/**
 * Top-versus-all calibration (Le Coz et al. 2024, "Confidence calibration of classifiers with many classes";
 * the top-label reduction of Kumar et al. 2019 and Gupta & Ramdas 2022): the multiclass problem becomes one
 * binary problem, "is the predicted class correct?", with score c_i = max_k p_ik and outcome a_i = 1[ŷ_i = y_i].
 * One binary map g (score-map.ts: 'histogram' equal-mass bins, 'isotonic' or 'platt') is fitted on all (c_i, a_i)
 * pairs and applied to the confidence; the row is then rebuilt by `replaceTopProbability`:
 *   q_ŷ = g(c),  q_k = p_k · (1 − g(c)) / Σ_{j≠ŷ} p_j for k ≠ ŷ  (uniform (1 − g(c))/(C − 1) when c = 1),
 * so rows sum to 1 and the other classes keep their ratios. The prediction ŷ (first maximum) is kept only when
 * g(c) ≥ the largest rescaled other probability (not guaranteed for a non-increasing g or g(c) < 1/C).
 * Needs probabilities (logits go through a softmax).
 */
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, readHeader } from '../json.js';
import { enumOption, numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities } from '../nonparametric/probability-map.js';
import { applyScoreMap, fitScoreMap, SCORE_MAP_KINDS, scoreMapFromJSON, scoreMapToJSON, type ScoreMap } from '../nonparametric/score-map.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { topVersusAllToOnnx } from '../onnx/top-label.js';
import { argmaxRow } from '../../util/argmax.js';

export const topVersusAllOptions = {
  binary: enumOption(SCORE_MAP_KINDS, 'isotonic', "The binary calibrator fitted on (confidence, correct): equal-mass 'histogram', 'isotonic' or 'platt'."),
  bins: numberOption(15, { integer: true, min: 1, max: 100_000 }, "Number of equal-mass bins of the 'histogram' binary calibrator."),
};
export type TopVersusAllOptions = OptionsOf<typeof topVersusAllOptions>;

/** Index of the first maximum of row i (N × C row-major). */
export function rowArgmax(p: Float64Array, i: number, cols: number): number {
  return argmaxRow(p, i * cols, cols);
}

/** In place: row i's probability at `top` becomes `value`, the others are rescaled to sum to 1 − value. */
export function replaceTopProbability(p: Float64Array, i: number, cols: number, top: number, value: number): void {
  const o = i * cols;
  let rest = 0; // Σ_{k≠top} p_k (not 1 − c: exact for rows that sum to 1 only within rounding)
  for (let k = 0; k < cols; k++) if (k !== top) rest += p[o + k]!;
  for (let k = 0; k < cols; k++) {
    if (k === top) p[o + k] = value;
    else p[o + k] = rest > 0 ? (p[o + k]! * (1 - value)) / rest : (1 - value) / (cols - 1);
  }
}

/**
 * In place, every row of p (rows × cols probabilities): the top-label confidence c = p_ŷ becomes `recalibrate(c, ŷ)`
 * and the other classes are rescaled (`replaceTopProbability`); a row whose map returns undefined is left as it is.
 */
export function recalibrateTopLabel(p: Float64Array, rows: number, cols: number, recalibrate: (c: number, top: number) => number | undefined): void {
  for (let i = 0; i < rows; i++) {
    const top = rowArgmax(p, i, cols);
    const value = recalibrate(p[i * cols + top]!, top);
    if (value !== undefined) replaceTopProbability(p, i, cols, top, value);
  }
}

/** Top-label scores and outcomes: c_i = p_iŷ, a_i = 1[ŷ_i = y_i], ŷ_i the first maximum. */
export function topLabelPairs(p: Float64Array, rows: number, cols: number, labels: Int32Array) {
  const predicted = new Int32Array(rows);
  const confidence = new Float64Array(rows);
  const correct = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    const top = rowArgmax(p, i, cols);
    predicted[i] = top;
    confidence[i] = p[i * cols + top]!;
    correct[i] = top === labels[i] ? 1 : 0;
  }
  return { predicted, confidence, correct };
}

/** A fitted top-versus-all calibrator. */
export class TopVersusAllCalibrator implements Calibrator {
  readonly kind = 'top-versus-all' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof topVersusAllOptions>;
  readonly map: ScoreMap;

  constructor(classes: number, map: ScoreMap, settings: SettingsOf<typeof topVersusAllOptions>) {
    this.classes = classes;
    this.map = map;
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** q_ŷ = g(c), other classes rescaled: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => recalibrateTopLabel(p, rows, C, (c) => applyScoreMap(this.map, c)));
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('top-versus-all', this.classes, this.settings), map: scoreMapToJSON(this.map) };
  }
}

/** Fit top-versus-all calibration on validation predictions (N × C) and labels (N). */
export function fitTopVersusAll(input: Predictions, labels: Int32Array, options?: TopVersusAllOptions): TopVersusAllCalibrator {
  const settings = parseOptions('top-versus-all options', options, topVersusAllOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const { confidence, correct } = topLabelPairs(p, rows, cols, labels);
  return new TopVersusAllCalibrator(cols, fitScoreMap(settings.binary, confidence, correct, settings.bins), settings);
}

/** Rebuild a top-versus-all calibrator from its JSON. */
export function topVersusAllFromJSON(json: unknown): TopVersusAllCalibrator {
  const { record, classes, settings } = readHeader(json, 'top-versus-all', topVersusAllOptions);
  return new TopVersusAllCalibrator(classes, scoreMapFromJSON('json.map', record.map), settings);
}

/** The declaration of top-versus-all (calibrators.ts). */
export const topVersusAllDefinition = defineCalibrator({
  kind: 'top-versus-all',
  summary: 'one binary calibrator on (confidence, correct), the other classes rescaled (Le Coz et al. 2024)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: topVersusAllOptions,
  fit: fitTopVersusAll,
  weights: { refused: 'it wraps a binary calibrator of the top label that takes no weights (not implemented)' },
  checkedAgainst: 'hand-worked cases',
  fromJSON: topVersusAllFromJSON,
  onnx: topVersusAllToOnnx,
});
