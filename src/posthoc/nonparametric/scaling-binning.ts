/**
 * The scaling-binning calibrator (Kumar, Liang & Ma 2019, "Verified uncertainty calibration", §4; the
 * `PlattBinnerMarginalCalibrator` / `PlattBinnerTopCalibrator` of p-lambda/verified_calibration):
 * 1. scaling: Platt scaling g(s) = σ(a · logit(s) + b) of a score s (score-map.ts 'platt');
 * 2. binning: equal-mass bins of the scaled validation scores g(s_i) (score-map.ts `equalMassEdges`);
 * 3. each bin outputs the MEAN OF THE SCALED SCORES g(s_i) in it (not of the labels: this is what makes the
 *    output discrete with a verifiable calibration error while keeping the scaling's sample efficiency).
 * Like the reference code, steps 1 and 2 use the same validation data (the paper splits it in three).
 * mode 'marginal': one calibrator per class on (p_ik, 1[y_i = k]); the rows are then renormalised to sum to 1
 * (the reference leaves them unnormalised; a row of zeros becomes uniform). mode 'top-label': one calibrator on
 * (max_k p_ik, 1[ŷ_i = y_i]); the top probability is replaced and the others rescaled (top-versus-all.ts).
 * Needs probabilities. Not argmax-preserving in general.
 */
import type { FitOptions } from '../fit-progress.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { jsonHeader, readHeader, requireRecord } from '../json.js';
import { enumOption, numberOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { fittingProbabilities, mapProbabilities, oneVsRestInPlace } from './probability-map.js';
import { applyScoreMap, binMeans, equalMassEdges, fitScoreMap, scoreMapFromJSON, scoreMapToJSON, type ScoreMap } from './score-map.js';
import { recalibrateTopLabel, topLabelPairs } from '../composite/top-versus-all.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { scalingBinningToOnnx } from '../onnx/top-label.js';

export const scalingBinningOptions = {
  bins: numberOption(10, { integer: true, min: 1, max: 100_000 }, 'Number of equal-mass bins B of the scaled scores.'),
  mode: enumOption(['marginal', 'top-label'] as const, 'marginal', "'marginal' (one calibrator per class) or 'top-label' (one on the confidence)."),
};
export type ScalingBinningOptions = OptionsOf<typeof scalingBinningOptions>;

/** Platt map followed by an equal-mass discretisation: `binned` is a 'histogram' score map on g(s). */
export interface ScalingBinningMap {
  readonly platt: ScoreMap;
  readonly binned: ScoreMap;
}

function applyMap(map: ScalingBinningMap, s: number): number {
  return applyScoreMap(map.binned, applyScoreMap(map.platt, s));
}

/** Fit one scaling-binning map on scores s and outcomes t. */
export function fitScalingBinningMap(scores: Float64Array, outcomes: Float64Array, bins: number): ScalingBinningMap {
  const platt = fitScoreMap('platt', scores, outcomes, bins);
  const scaled = scores.map((s) => applyScoreMap(platt, s));
  const edges = equalMassEdges(scaled, bins);
  return { platt, binned: { kind: 'histogram', edges, values: binMeans(edges, scaled, scaled) } };
}

/** A fitted scaling-binning calibrator: C maps ('marginal') or one ('top-label'). */
export class ScalingBinningCalibrator implements Calibrator {
  readonly kind = 'scaling-binning' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof scalingBinningOptions>;
  readonly maps: readonly ScalingBinningMap[];

  constructor(classes: number, maps: readonly ScalingBinningMap[], settings: SettingsOf<typeof scalingBinningOptions>) {
    this.classes = classes;
    this.maps = Object.freeze([...maps]);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** Calibrated probabilities N × C float64 (see the file comment for each mode). */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => {
      if (this.settings.mode === 'marginal') oneVsRestInPlace(p, rows, C, (v, k) => applyMap(this.maps[k]!, v));
      else recalibrateTopLabel(p, rows, C, (c) => applyMap(this.maps[0]!, c));
    });
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader('scaling-binning', this.classes, this.settings),
      maps: this.maps.map((m) => ({ platt: scoreMapToJSON(m.platt), binned: scoreMapToJSON(m.binned) })),
    };
  }
}

/** Fit scaling-binning on validation predictions (N × C) and labels (N). */
export function fitScalingBinning(input: Predictions, labels: Int32Array, options?: ScalingBinningOptions, fit: FitOptions = {}): ScalingBinningCalibrator {
  const settings = parseOptions('scaling-binning options', options, scalingBinningOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const maps: ScalingBinningMap[] = [];
  if (settings.mode === 'top-label') {
    const { confidence, correct } = topLabelPairs(p, rows, cols, labels);
    maps.push(fitScalingBinningMap(confidence, correct, settings.bins));
  } else {
    for (let k = 0; k < cols; k++) {
      const s = new Float64Array(rows);
      const t = new Float64Array(rows);
      for (let i = 0; i < rows; i++) {
        s[i] = p[i * cols + k]!;
        t[i] = labels[i] === k ? 1 : 0;
      }
      maps.push(fitScalingBinningMap(s, t, settings.bins));
      fit.onProgress?.((k + 1) / cols);
    }
  }
  return new ScalingBinningCalibrator(cols, maps, settings);
}

/** Rebuild a scaling-binning calibrator from its JSON. */
export function scalingBinningFromJSON(json: unknown): ScalingBinningCalibrator {
  const { record, classes, settings } = readHeader(json, 'scaling-binning', scalingBinningOptions);
  const count = settings.mode === 'marginal' ? classes : 1;
  const maps = record.maps;
  if (!Array.isArray(maps) || maps.length !== count) invalidArgument('json.maps', `an array of ${count} maps`, String(maps));
  return new ScalingBinningCalibrator(
    classes,
    maps.map((m: unknown, k: number) => {
      const r = requireRecord(`json.maps[${k}]`, m);
      const platt = scoreMapFromJSON(`json.maps[${k}].platt`, r.platt);
      const binned = scoreMapFromJSON(`json.maps[${k}].binned`, r.binned);
      if (platt.kind !== 'platt') invalidArgument(`json.maps[${k}].platt.kind`, '"platt"', platt.kind);
      if (binned.kind !== 'histogram') invalidArgument(`json.maps[${k}].binned.kind`, '"histogram"', binned.kind);
      return { platt, binned };
    }),
    settings,
  );
}

/** The declaration of scaling-binning (calibrators.ts). */
export const scalingBinningDefinition = defineCalibrator({
  kind: 'scaling-binning',
  summary: 'Platt scaling, then equal-mass bins output the mean scaled score (Kumar et al. 2019)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'no',
  options: scalingBinningOptions,
  fit: fitScalingBinning,
  weights: { refused: 'its equal-mass bins split the rows by count (Kumar et al.), which has no weighted form here' },
  checkedAgainst: 'p-lambda/verified_calibration PlattBinner*Calibrator',
  fromJSON: scalingBinningFromJSON,
  onnx: scalingBinningToOnnx,
});
