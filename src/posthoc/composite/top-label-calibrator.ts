/**
 * Top-label calibration (Gupta & Ramdas 2022, "Top-label calibration and multiclass-to-binary reductions"):
 * one binary calibrator per predicted class. For every class l, the validation samples predicted as l
 * (ŷ_i = l, first maximum) give pairs (c_i = p_il, a_i = 1[y_i = l]) and a binary map g_l is fitted on them
 * (score-map.ts; the paper's top-label histogram binning is 'histogram' with B_l = max(1, ⌊n_l / pointsPerBin⌋)
 * equal-mass bins). A class never predicted on the validation split keeps g_l = identity (its scores are not
 * changed). Applying: q_ŷ = g_ŷ(c), the other classes rescaled as in top-versus-all.ts. Needs probabilities.
 */
import type { FitOptions } from '../fit-progress.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, readHeader } from '../json.js';
import { enumOption, numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities } from '../nonparametric/probability-map.js';
import { applyScoreMap, fitScoreMap, SCORE_MAP_KINDS, scoreMapFromJSON, scoreMapToJSON, type ScoreMap } from '../nonparametric/score-map.js';
import { recalibrateTopLabel, topLabelPairs } from './top-versus-all.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { topLabelToOnnx } from '../onnx/top-label.js';

export const topLabelOptions = {
  binary: enumOption(SCORE_MAP_KINDS, 'histogram', "The binary calibrator per predicted class: equal-mass 'histogram' (the paper's), 'isotonic' or 'platt'."),
  pointsPerBin: numberOption(50, { integer: true, min: 1 }, "'histogram': validation points per bin (the paper's default 50); class l gets max(1, ⌊n_l / this⌋) bins."),
};
export type TopLabelOptions = OptionsOf<typeof topLabelOptions>;

/** A fitted top-label calibrator: per class, a score map or null (class never predicted: identity). */
export class TopLabelCalibrator implements Calibrator {
  readonly kind = 'top-label' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof topLabelOptions>;
  readonly maps: readonly (ScoreMap | null)[];

  constructor(maps: readonly (ScoreMap | null)[], settings: SettingsOf<typeof topLabelOptions>) {
    this.classes = maps.length;
    this.maps = Object.freeze([...maps]);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** q_ŷ = g_ŷ(c), other classes rescaled: N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) =>
      recalibrateTopLabel(p, rows, C, (c, top) => {
        const map = this.maps[top];
        return map ? applyScoreMap(map, c) : undefined;
      }),
    );
  }

  toJSON(): CalibratorJSON {
    return { ...jsonHeader('top-label', this.classes, this.settings), maps: this.maps.map((m) => (m ? scoreMapToJSON(m) : null)) };
  }
}

/** Fit top-label calibration on validation predictions (N × C) and labels (N). */
export function fitTopLabel(input: Predictions, labels: Int32Array, options?: TopLabelOptions, fit: FitOptions = {}): TopLabelCalibrator {
  const settings = parseOptions('top-label options', options, topLabelOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const { predicted, confidence, correct } = topLabelPairs(p, rows, cols, labels);
  const maps: (ScoreMap | null)[] = [];
  for (let l = 0; l < cols; l++) {
    const idx: number[] = [];
    for (let i = 0; i < rows; i++) if (predicted[i] === l) idx.push(i);
    if (idx.length === 0) {
      maps.push(null);
    } else {
      const s = Float64Array.from(idx, (i) => confidence[i]!);
      const a = Float64Array.from(idx, (i) => correct[i]!);
      const bins = Math.max(1, Math.floor(idx.length / settings.pointsPerBin));
      maps.push(fitScoreMap(settings.binary, s, a, bins));
    }
    fit.onProgress?.((l + 1) / cols);
  }
  return new TopLabelCalibrator(maps, settings);
}

/** Rebuild a top-label calibrator from its JSON. */
export function topLabelFromJSON(json: unknown): TopLabelCalibrator {
  const { record, classes, settings } = readHeader(json, 'top-label', topLabelOptions);
  const maps = record.maps;
  if (!Array.isArray(maps) || maps.length !== classes) invalidArgument('json.maps', `an array of ${classes} maps or nulls`, String(maps));
  return new TopLabelCalibrator(
    maps.map((m: unknown, l: number) => (m === null ? null : scoreMapFromJSON(`json.maps[${l}]`, m))),
    settings,
  );
}

/** The declaration of top-label (calibrators.ts). */
export const topLabelDefinition = defineCalibrator({
  kind: 'top-label',
  summary: 'one binary calibrator of the confidence per predicted class (Gupta & Ramdas 2022)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: topLabelOptions,
  fit: fitTopLabel,
  weights: { refused: 'it wraps a binary calibrator of the top label that takes no weights (not implemented)' },
  checkedAgainst: 'hand-worked cases',
  fromJSON: topLabelFromJSON,
  onnx: topLabelToOnnx,
});
