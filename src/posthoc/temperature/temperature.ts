/**
 * Temperature scaling (Guo et al. 2017, "On Calibration of Modern Neural Networks"; METHODS.md § Post-hoc
 * calibrators): p = softmax(z / T) with one T > 0 fitted on a validation split. Needs logits (probabilities are
 * turned into log p). Two objectives, chosen by `objective`:
 *
 * - 'nll' (default): T minimising the mean NLL, NLL(β) = mean_i [log Σ_k exp(β z_ik) − β z_iy], β = 1/T.
 *   NLL is convex in β with NLL' = mean_i (E_p[z_i] − z_iy), NLL'' = mean_i Var_p(z_i) and
 *   NLL''' = mean_i (third central moment of z_i under p), all from one pass over the logits.
 *   Solved by a safeguarded Halley/Newton iteration on β kept inside a sign-change bracket (geometric
 *   bisection when a step leaves it; ×4 expansion while no bracket exists and the steps stop shrinking),
 *   started from a rough (1e−3) solution on a strided subsample of 4096 rows (for N > 8192), and stopped after
 *   a Halley step below 1e−6 relative (error O(δ³)), a Newton step below 1e−8 (error O(δ²)) or any other step
 *   below 1e−10: typically 2–3 passes over the data (the inner loop uses fast-exp.ts). T is searched in
 *   [1e−4·s, 1e4·s], where s = 1 for ordinary logits and, when the mean row spread (max − min) of the logits is
 *   outside [1/16, 256], s is the power of two nearest to it: the iteration then runs on β·s with logits
 *   divided by s (exact in floating point), so logits of magnitude 1e4–1e30 fit as well as ordinary ones
 *   (scaled parametrisation; the scale only moves the search range). If the NLL has no minimum there (e.g. every validation prediction is correct, so the NLL
 *   falls as T → 0), or the iteration cap (100) is reached, a `CalibrationFitError` is thrown.
 * - 'grid-ece': the papers' code (focal-calibration, MbLS, ACLS): T from the grid 0.1, 0.2, …, 10.0 with the
 *   lowest validation top-label ECE (metrics/binned/ece.ts, `bins` equal-width (l, u] bins; first minimum on ties).
 */
import { expectedCalibrationError } from '../../metrics/binned/ece.js';
import { invalidArgument } from '../../util/errors.js';
import type { FitOptions } from '../fit-progress.js';
import type { FloatArray } from '../../util/matrix.js';
import type { Predictions } from '../calibrator.js';
import { expNonPositive } from '../solvers/fast-exp.js';
import { BetaBracket } from './beta-bracket.js';
import { CalibrationFitError } from '../fit-error.js';
import { readHeader, readNumber } from '../json.js';
import { enumOption, numberOption, parseOptions, type OptionsOf } from '../options.js';
import { logitFitData } from '../predictions.js';
import { TemperatureCalibrator } from './temperature-calibrator.js';
import { confidencesAt, topLabel } from './top-label.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { temperatureToOnnx } from '../onnx/temperature.js';

export const temperatureOptions = {
  objective: enumOption(['nll', 'grid-ece'] as const, 'nll', "'nll' (Guo et al.) or 'grid-ece' (grid 0.1…10 by validation ECE, as in the papers' code)."),
  bins: numberOption(15, { integer: true, min: 1 }, "Number of equal-width bins of the ECE in 'grid-ece' mode (unused by 'nll')."),
};
export type TemperatureOptions = OptionsOf<typeof temperatureOptions>;

/** Range searched by the 'nll' objective. */
export const MIN_TEMPERATURE = 1e-4;
export const MAX_TEMPERATURE = 1e4;

/** Mean NLL of softmax(β z) and its first three derivatives with respect to β = 1/T. */
export interface NllInBeta {
  readonly nll: number;
  readonly d1: number;
  readonly d2: number;
  readonly d3: number;
}

/** Logits prepared for repeated NLL evaluations: row maxima m_i and label gaps z_iy − m_i ≤ 0. */
interface Prepared {
  readonly logits: FloatArray;
  readonly rows: number;
  readonly cols: number;
  readonly rowMax: Float64Array;
  readonly labelGap: Float64Array;
  /** Whether every row is constant (then the NLL does not depend on T). */
  readonly constant: boolean;
  /** Scale s of the logits: the iteration works on t / s and β·s (see the file comment). */
  readonly scale: number;
  /** Sample weights w_i (undefined: all 1) and their sum (N when unweighted). */
  readonly weights: Float64Array | undefined;
  readonly weightSum: number;
}

/** Mean row spreads outside [1/16, 256] get a scaled parametrisation. */
const UNSCALED_SPREAD = { min: 1 / 16, max: 256 } as const;

/**
 * Scale s of the scaled parametrisation for logits of mean row spread (max − min) `spread`: 1 within
 * UNSCALED_SPREAD, else the power of two nearest to the spread (dividing by it is exact in floating point).
 */
export function logitScale(spread: number): number {
  return spread > 0 && Number.isFinite(spread) && (spread < UNSCALED_SPREAD.min || spread > UNSCALED_SPREAD.max) ? 2 ** Math.round(Math.log2(spread)) : 1;
}

/**
 * Row maxima and label gaps of the logits; `scale`: 'auto' picks s from the mean row spread (1 when it is
 * within UNSCALED_SPREAD, else the nearest power of two), or a given s.
 */
function prepare(logits: FloatArray, rows: number, cols: number, labels: Int32Array, scale: number | 'auto' = 'auto', weights?: Float64Array): Prepared {
  const rowMax = new Float64Array(rows);
  const labelGap = new Float64Array(rows);
  let constant = true;
  let spreadSum = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let m = logits[o]!;
    let lo = m;
    for (let k = 1; k < cols; k++) {
      const v = logits[o + k]!;
      if (v > m) m = v;
      if (v < lo) lo = v;
    }
    if (lo !== m) constant = false;
    spreadSum += m - lo;
    rowMax[i] = m;
    labelGap[i] = logits[o + labels[i]!]! - m;
  }
  const s = scale !== 'auto' ? scale : logitScale(spreadSum / rows);
  if (s !== 1) for (let i = 0; i < rows; i++) labelGap[i] = labelGap[i]! / s;
  let weightSum = rows;
  if (weights) {
    weightSum = 0;
    for (let i = 0; i < rows; i++) weightSum += weights[i]!;
  }
  return { logits, rows, cols, rowMax, labelGap, constant, scale: s, weights, weightSum };
}

/**
 * Mean NLL of softmax(β z) against `labels` and its derivatives in β, in one pass (logits N × C, labels N).
 * With t_ik = z_ik − max_k z_ik and e_ik = exp(β t_ik): NLL_i = log Σ_k e_ik − β t_iy, and the derivatives
 * are the mean, variance and third central moment of t_i under p_i = e_i / Σ e_i (minus t_iy for the first).
 */
export function temperatureNll(logits: FloatArray, rows: number, cols: number, labels: Int32Array, beta: number): NllInBeta {
  return nllTerms(prepare(logits, rows, cols, labels, 1), beta);
}

function nllTerms(prep: Prepared, beta: number): NllInBeta {
  const { logits, rows, cols, rowMax, labelGap, weights } = prep;
  const invScale = 1 / prep.scale;
  let f = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const m = rowMax[i]!;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k < cols; k++) {
      const t = prep.scale === 1 ? logits[o + k]! - m : (logits[o + k]! - m) * invScale;
      const e = expNonPositive(beta * t);
      const et = e * t;
      const et2 = et * t;
      s0 += e;
      s1 += et;
      s2 += et2;
      s3 += et2 * t;
    }
    const inv = 1 / s0;
    const mu1 = s1 * inv;
    const mu2 = s2 * inv;
    const mu3 = s3 * inv;
    // Weighted: Σ w_i (term_i) / Σ w_i (w_i = 1 when unweighted, so the sums are the unweighted ones exactly).
    const w = weights === undefined ? 1 : weights[i]!;
    if (w === 0) continue;
    f += w * (Math.log(s0) - beta * labelGap[i]!);
    d1 += w * (mu1 - labelGap[i]!);
    d2 += w * (mu2 - mu1 * mu1);
    d3 += w * (mu3 - 3 * mu1 * mu2 + 2 * mu1 * mu1 * mu1);
  }
  const n = prep.weightSum;
  return { nll: f / n, d1: d1 / n, d2: Math.max(d2 / n, 0), d3: d3 / n };
}

/**
 * β·s minimising the NLL (s = prep.scale; β = 1/T), from `beta0` (also in units of 1/s); throws
 * CalibrationFitError when there is no minimum in range.
 */
function solveBeta(prep: Prepared, beta0: number, method: string, loose = false): number {
  const betaMin = 1 / MAX_TEMPERATURE;
  const betaMax = 1 / MIN_TEMPERATURE;
  const bracket = new BetaBracket(betaMin, betaMax, method, {
    atMax: () =>
      `the validation NLL keeps decreasing as T → 0 (down to T = ${MIN_TEMPERATURE * prep.scale}${rangeNote(prep)}): the validation ` +
      'predictions are (nearly) all correct, so the NLL has no minimum; use objective "grid-ece" or a larger validation split',
    atMin: () => `the validation NLL keeps decreasing as T → ∞ (up to T = ${MAX_TEMPERATURE * prep.scale}${rangeNote(prep)}): ` + 'the predictions carry no information about the labels',
  });
  if (prep.constant) {
    throw new CalibrationFitError(method, 'the NLL does not depend on T (every row of logits is constant)');
  }
  let beta = Math.min(Math.max(beta0, betaMin), betaMax);
  let previousStep = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    const { d1: g, d2: h, d3 } = nllTerms(prep, beta);
    if (!Number.isFinite(g) || !Number.isFinite(h)) {
      throw new CalibrationFitError(method, `the NLL derivative is not finite at T = ${prep.scale / beta}`);
    }
    if (g === 0 && h > 0) return beta;
    // g = h = 0: every softmax is numerically one-hot and every prediction correct (rows are not all constant,
    // checked above), so the NLL is still falling toward T → 0: treat as g < 0.
    const falling = g < 0 || g === 0;
    bracket.narrow(beta, falling);
    // Halley step (third order), else Newton, else bisection / expansion. A Halley step of relative size δ
    // leaves an error O(δ³), a Newton step O(δ²): stop after a Halley step below 1e−6 or a Newton step below
    // 1e−8 (error ~1e−16 relative), after any other step below 1e−10 (`loose`: 1e−3 for every kind).
    let next = NaN;
    let stop = loose ? 1e-3 : 1e-10;
    if (h > 0) {
      const den = 2 * h * h - g * d3;
      next = den > 0 ? beta - (2 * g * h) / den : NaN;
      if (bracket.contains(next)) stop = loose ? 1e-3 : 1e-6;
      else {
        next = beta - g / h;
        stop = loose ? 1e-3 : 1e-8;
      }
    }
    if (Number.isFinite(next) && next > 0 && Math.abs(next - beta) <= stop * beta) return next;
    // Without a bracket, steps that do not shrink (ratio > ½, same direction) mean a flat tail (e.g. the NLL
    // decaying exponentially as T → 0): expand geometrically instead of creeping.
    const step = next - beta;
    const creeping = !bracket.closed && step * previousStep > 0 && Math.abs(step) > 0.5 * Math.abs(previousStep);
    if (creeping || !bracket.contains(next)) next = bracket.fallback(beta, falling);
    if (Math.abs(next - beta) <= (loose ? 1e-3 : 1e-10) * beta) return next;
    previousStep = next - beta;
    beta = next;
  }
  throw new CalibrationFitError(method, 'the NLL minimisation did not converge in 100 iterations');
}

/** The searched range relative to the logits' scale, for messages. */
function rangeNote(prep: Prepared): string {
  return `, the search range being ${MIN_TEMPERATURE}–${MAX_TEMPERATURE} × s for the logits' scale s = ${prep.scale}`;
}

/**
 * T minimising the validation NLL of softmax(z / T) (see the file comment). Logits N × C, labels N; `weights`
 * (N values ≥ 0, not all zero): the weighted mean NLL Σ w_i NLL_i / Σ w_i instead (the warm start's subsample
 * keeps its rows' weights).
 */
export function nllTemperature(logits: FloatArray, rows: number, cols: number, labels: Int32Array, method = 'temperature', weights?: Float64Array): number {
  const prep = prepare(logits, rows, cols, labels, 'auto', weights);
  let beta0 = 1;
  const sub = 4096;
  if (rows > 2 * sub) {
    // Same array type as the input, so the inner loop stays monomorphic.
    const subLogits = logits instanceof Float32Array ? new Float32Array(sub * cols) : new Float64Array(sub * cols);
    const subLabels = new Int32Array(sub);
    const subWeights = weights && new Float64Array(sub);
    for (let j = 0; j < sub; j++) {
      const i = Math.floor((j * rows) / sub);
      for (let k = 0; k < cols; k++) subLogits[j * cols + k] = logits[i * cols + k]!;
      subLabels[j] = labels[i]!;
      if (subWeights) subWeights[j] = weights![i]!;
    }
    try {
      if (subWeights && !subWeights.some((w) => w > 0)) throw new CalibrationFitError(method, 'no weight in the subsample');
      beta0 = solveBeta(prepare(subLogits, sub, cols, subLabels, prep.scale, subWeights), 1, method, true);
    } catch (error) {
      if (!(error instanceof CalibrationFitError)) throw error;
    }
  }
  return prep.scale / solveBeta(prep, beta0, method);
}

/** The papers' grid of the 'grid-ece' objective: T = 0.1, 0.2, …, 10. */
const GRID_ECE_PER_UNIT = 10;
const GRID_ECE_STEPS = 100;

/** Whether a 'grid-ece' temperature is an end of the grid (the ECE minimum may then lie outside it). */
export function atGridEceEdge(temperature: number): boolean {
  return temperature === 1 / GRID_ECE_PER_UNIT || temperature === GRID_ECE_STEPS / GRID_ECE_PER_UNIT;
}

/** T from 0.1, 0.2, …, 10.0 with the lowest top-label ECE (`bins` equal-width bins); first minimum on ties. */
export function gridEceTemperature(logits: FloatArray, rows: number, cols: number, labels: Int32Array, bins: number): number {
  const top = topLabel(logits, rows, cols, labels);
  const conf = new Float64Array(rows);
  let best = Infinity;
  let bestT = NaN;
  for (let i = 1; i <= GRID_ECE_STEPS; i++) {
    const t = i / GRID_ECE_PER_UNIT;
    const ece = expectedCalibrationError(confidencesAt(top, 1 / t, conf), top.correctMask, { bins });
    if (ece < best) {
      best = ece;
      bestT = t;
    }
  }
  return bestT;
}

/**
 * Fit temperature scaling on validation predictions (N × C) and labels (N); `fit.sampleWeights` weight the NLL
 * (the 'grid-ece' objective refuses them: its binned ECE is the papers' unweighted one).
 */
export function fitTemperature(input: Predictions, labels: Int32Array, options?: TemperatureOptions, fit: FitOptions = {}): TemperatureCalibrator {
  const settings = parseOptions('temperature options', options, temperatureOptions);
  const { logits, rows, cols } = logitFitData(input, labels);
  if (fit.sampleWeights && settings.objective !== 'nll') {
    invalidArgument('temperature options.objective', "'nll' with sample weights (the 'grid-ece' objective's binned ECE is unweighted)", "'grid-ece'");
  }
  const temperature = settings.objective === 'nll' ? nllTemperature(logits, rows, cols, labels, 'temperature', fit.sampleWeights) : gridEceTemperature(logits, rows, cols, labels, settings.bins);
  return new TemperatureCalibrator('temperature', cols, temperature, settings);
}

/** Rebuild a temperature calibrator from its JSON (validated; errors name the field). */
export function temperatureFromJSON(json: unknown): TemperatureCalibrator {
  const { record, classes, settings } = readHeader(json, 'temperature', temperatureOptions);
  return new TemperatureCalibrator('temperature', classes, readNumber(record, 'temperature', { positive: true, temperature: true }), settings);
}

/** The declaration of temperature (calibrators.ts). */
export const temperatureDefinition = defineCalibrator({
  kind: 'temperature',
  summary: "softmax(z / T), one T fitted by NLL or by the papers' ECE grid (Guo et al. 2017)",
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'yes',
  options: temperatureOptions,
  fit: fitTemperature,
  weights: 'accepted',
  checkedAgainst: "the NLL in NumPy minimised by scipy (fixture); Kull et al.'s DenseNet-40 TS numbers",
  fromJSON: temperatureFromJSON,
  onnx: temperatureToOnnx,
});
