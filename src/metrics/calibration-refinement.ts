import { defineMetric, type MetricShape, type RowBlock } from './record/metric-definition.js';
import type { MetricContext } from './record/metric-context.js';
import type { MetricState, StateSpec } from './accumulators/metric-state.js';
import { NLL_CLIP } from './accumulators/probability-kernel.js';
import { type Labels, requireLabels } from './validation.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { FloatArray } from '../util/matrix.js';
import { brierTemperature } from '../posthoc/temperature/brier-temperature.js';
import { CalibrationFitError } from '../posthoc/fit-error.js';
import { fitIsotonicCalibrator } from '../posthoc/nonparametric/isotonic.js';
import { MAX_TEMPERATURE, MIN_TEMPERATURE, nllTemperature } from '../posthoc/temperature/temperature.js';

/**
 * The calibration–refinement split of a proper loss ℓ (log loss or Brier score) of predictions p_i against labels y_i:
 *
 *   refinement_ℓ  = mean_i ℓ(q_i, y_i),   q = g(p), g the recalibration map fitted on the evaluated rows themselves,
 *   calibration_ℓ = mean_i ℓ(p_i, y_i) − refinement_ℓ.
 *
 * This is the classical decomposition of a proper score into a calibration (reliability) term and a refinement
 * term (DeGroot & Fienberg 1983, "The comparison and evaluation of forecasters", The Statistician 32; Bröcker 2009,
 * "Reliability, sufficiency, and the decomposition of proper scores", QJRMS 135: the refinement is the expected score
 * of the recalibrated forecast P(Y | p), the calibration term the expected divergence between p and it), with the
 * ideal recalibration P(Y | p) replaced by a fitted one — the "variational" estimate of Berta, Holzmüller, Jordan &
 * Bach 2025 ("Rethinking early stopping: refine, then calibrate", arXiv:2501.19195), who estimate the refinement
 * error as the loss after temperature scaling and propose to stop training on it.
 *
 * Recalibrators (`RefinementCalibrator`):
 * - 'temperature' (default): q = softmax(β log p) with β = 1/T minimising the loss being split — the NLL for
 *   `*_nll` (posthoc/temperature/temperature.ts's exact 1-D solver), the Brier score for `*_brier` (posthoc/temperature/brier-temperature.ts).
 *   T = 1 is in the family, so 0 ≤ calibration_ℓ and refinement_ℓ ≤ ℓ exactly; T* > 1 means over-confidence,
 *   T* < 1 under-confidence. Invariant to a temperature change of the logits (the family absorbs it).
 * - 'isotonic': one-vs-rest isotonic regression of every class's probability, renormalised (posthoc/nonparametric/isotonic.ts).
 *   Not loss-specific and not a superset of the identity: calibration_ℓ can be (slightly) negative.
 *
 * Over- and under-confidence parts (calibration_ℓ = over + under): row i is over-confident when the recalibrated
 * top-label confidence max_k q_ik is below max_k p_ik, under-confident otherwise; over_ℓ = (1/N) Σ_{i over}
 * [ℓ(p_i) − ℓ(q_i)], under_ℓ the same over the other rows. Under temperature scaling every row moves the same way,
 * so the whole term is over-confidence when T* > 1 and under-confidence when T* < 1; under isotonic recalibration
 * both parts can be non-zero (and a part can be negative, since ℓ(q_i) < ℓ(p_i) holds only on average).
 *
 * Rows are kept as log p_i with p clipped below at 5e−324 (as `nll` clips p_y), so the NLL at T = 1 equals `nll`
 * except where a probability underflows (logit gaps beyond ~744); softmax(β log p) equals softmax(β z) for logits z.
 * When the loss has no minimum in T's range (e.g. every prediction correct: the loss falls as T → 0, or constant
 * rows), the refinement is the smallest loss at T = 1e−4, 1 and 1e4. Cost: 8·N·C bytes for the rows, and a few
 * passes over them (NLL) plus a grid on ≤ 4,096 rows and a local search (Brier) per `compute()`.
 */
export const REFINEMENT_CALIBRATORS = ['temperature', 'isotonic'] as const;
export type RefinementCalibrator = (typeof REFINEMENT_CALIBRATORS)[number];
/**
 * The accumulator's setting: a recalibrator, or 'none' — the split is not computed (its metrics are NaN, null in
 * JSON), which is `evaluate`'s default: the split keeps 8·N·C bytes and runs ~20 passes over the rows (measured at
 * 200,000 × 100: ≈ 9 CPU-s against 0.3–0.8 s for every other metric together), so it is computed where asked for —
 * `calib eval` (default 'temperature'), the per-epoch validation scores (`--select refinement`) and `evaluate(…,
 * { refinementCalibrator })`.
 */
export const REFINEMENT_SETTINGS = [...REFINEMENT_CALIBRATORS, 'none'] as const;
export type RefinementSetting = (typeof REFINEMENT_SETTINGS)[number];

/** One loss split into its parts (means over the rows). */
export interface LossSplit {
  /** The loss of the predictions as given. */
  readonly loss: number;
  readonly refinement: number;
  /** loss − refinement. */
  readonly calibration: number;
  /** The part of `calibration` from over-confident rows (recalibration lowers their top-label confidence). */
  readonly over: number;
  /** The part from the other rows. */
  readonly under: number;
  /** The fitted temperature (recalibrator 'temperature'; NaN for 'isotonic'). */
  readonly temperature: number;
}

export interface CalibrationRefinement {
  readonly nll: LossSplit;
  readonly brier: LossSplit;
  readonly calibrator: RefinementCalibrator;
}

/** Check a `RefinementCalibrator` option. */
export function requireRefinementCalibrator(value: unknown, name = 'refinementCalibrator'): RefinementCalibrator {
  if (!(REFINEMENT_CALIBRATORS as readonly unknown[]).includes(value)) invalidArgument(name, `one of ${REFINEMENT_CALIBRATORS.join(', ')}`, describe(value));
  return value as RefinementCalibrator;
}

/** Check a `RefinementSetting` option (a recalibrator or 'none'). */
export function requireRefinementSetting(value: unknown, name = 'refinementCalibrator'): RefinementSetting {
  if (!(REFINEMENT_SETTINGS as readonly unknown[]).includes(value)) invalidArgument(name, `one of ${REFINEMENT_SETTINGS.join(', ')}`, describe(value));
  return value as RefinementSetting;
}

/** log p with p clipped below at 5e−324 (finite, ≥ −744.44), in place. */
function clippedLog(p: FloatArray, out: Float64Array, offset: number, count: number): void {
  for (let j = 0; j < count; j++) {
    const v = p[j]!;
    out[offset + j] = Math.log(v < NLL_CLIP ? NLL_CLIP : v > 1 ? 1 : v);
  }
}

/** q = softmax(β l) of one row (l = log p, length C) into `q`. */
function softmaxRow(l: Float64Array, offset: number, cols: number, beta: number, q: Float64Array): void {
  let m = -Infinity;
  for (let k = 0; k < cols; k++) m = Math.max(m, beta * l[offset + k]!);
  let s = 0;
  for (let k = 0; k < cols; k++) {
    const e = Math.exp(beta * l[offset + k]! - m);
    q[k] = e;
    s += e;
  }
  for (let k = 0; k < cols; k++) q[k] = q[k]! / s;
}

/** Per-row NLL and Brier of probability rows q (length C) against label y. */
function rowLosses(q: Float64Array, qOffset: number, cols: number, y: number): { nll: number; brier: number; top: number } {
  let sq = 0;
  let top = 0;
  for (let k = 0; k < cols; k++) {
    const v = q[qOffset + k]!;
    sq += v * v;
    if (v > top) top = v;
  }
  const py = q[qOffset + y]!;
  return { nll: -Math.log(py < NLL_CLIP ? NLL_CLIP : py > 1 ? 1 : py), brier: sq - 2 * py + 1, top };
}

/** Split of each loss for recalibrated rows `recalibrated(i, q)` (fills q [C] with row i's recalibrated probabilities). */
function split(
  logP: Float64Array,
  rows: number,
  cols: number,
  labels: Labels,
  recalibrated: (loss: 'nll' | 'brier', i: number, q: Float64Array) => void,
  temperatures: { nll: number; brier: number },
): { nll: LossSplit; brier: LossSplit } {
  const p = new Float64Array(cols);
  const q = new Float64Array(cols);
  const out = {} as { nll: LossSplit; brier: LossSplit };
  for (const loss of ['nll', 'brier'] as const) {
    let total = 0;
    let refined = 0;
    let over = 0;
    let under = 0;
    for (let i = 0; i < rows; i++) {
      const y = labels[i]!;
      softmaxRow(logP, i * cols, cols, 1, p);
      recalibrated(loss, i, q);
      const before = rowLosses(p, 0, cols, y);
      const after = rowLosses(q, 0, cols, y);
      total += before[loss];
      refined += after[loss];
      if (after.top < before.top) over += before[loss] - after[loss];
      else under += before[loss] - after[loss];
    }
    out[loss] = {
      loss: total / rows,
      refinement: refined / rows,
      calibration: (total - refined) / rows,
      over: over / rows,
      under: under / rows,
      temperature: temperatures[loss],
    };
  }
  return out;
}

/** Mean loss of softmax(β l) over the rows. */
function lossAt(loss: 'nll' | 'brier', logP: Float64Array, rows: number, cols: number, labels: Labels, beta: number): number {
  const q = new Float64Array(cols);
  let total = 0;
  for (let i = 0; i < rows; i++) {
    softmaxRow(logP, i * cols, cols, beta, q);
    total += rowLosses(q, 0, cols, labels[i]!)[loss];
  }
  return total / rows;
}

/**
 * T minimising `loss` of softmax(l / T); where the loss has no minimum in range (CalibrationFitError), the best of
 * T = 1e−4, 1, 1e4; and never a T whose loss exceeds T = 1's (so refinement ≤ loss holds exactly).
 */
function bestTemperature(loss: 'nll' | 'brier', logP: Float64Array, rows: number, cols: number, labels: Int32Array): number {
  let fitted = NaN;
  try {
    fitted = loss === 'nll' ? nllTemperature(logP, rows, cols, labels, 'refinement') : brierTemperature(logP, rows, cols, labels, 'refinement');
  } catch (error) {
    if (!(error instanceof CalibrationFitError)) throw error;
  }
  const candidates = [1, MIN_TEMPERATURE, MAX_TEMPERATURE];
  if (Number.isFinite(fitted)) candidates.unshift(fitted);
  let best = 1;
  let bestLoss = Infinity;
  for (const t of candidates) {
    const v = lossAt(loss, logP, rows, cols, labels, 1 / t);
    if (v < bestLoss) {
      bestLoss = v;
      best = t;
    }
  }
  return best;
}

/** The split of kept log-probability rows (N × C, log p clipped at 5e−324) against labels. */
export function splitLogProbabilities(logP: Float64Array, rows: number, cols: number, labels: Int32Array, calibrator: RefinementCalibrator = 'temperature'): CalibrationRefinement {
  if (calibrator === 'temperature') {
    const temperatures = { nll: bestTemperature('nll', logP, rows, cols, labels), brier: bestTemperature('brier', logP, rows, cols, labels) };
    const parts = split(logP, rows, cols, labels, (loss, i, q) => softmaxRow(logP, i * cols, cols, 1 / temperatures[loss], q), temperatures);
    return { ...parts, calibrator };
  }
  const probabilities = new Float64Array(rows * cols);
  const row = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    softmaxRow(logP, i * cols, cols, 1, row);
    probabilities.set(row, i * cols);
  }
  const isotonic = fitIsotonicCalibrator({ probabilities: { rows, cols, data: probabilities } }, labels);
  const q = isotonic.apply({ probabilities: { rows, cols, data: probabilities } }).data;
  const parts = split(logP, rows, cols, labels, (_loss, i, out) => out.set(q.subarray(i * cols, (i + 1) * cols)), { nll: NaN, brier: NaN });
  return { ...parts, calibrator };
}

/**
 * The calibration–refinement split of predictions (N × C logits or probabilities, row-major) against labels [N]
 * (see the file comment). Logits are turned into log-softmax; probability rows are used as given (clipped at 5e−324).
 */
export function calibrationRefinement(
  predictions: { readonly logits: { rows: number; cols: number; data: FloatArray } } | { readonly probabilities: { rows: number; cols: number; data: FloatArray } },
  labels: Labels,
  options: { readonly calibrator?: RefinementCalibrator } = {},
): CalibrationRefinement {
  const calibrator = requireRefinementCalibrator(options.calibrator ?? 'temperature', 'calibrator');
  const m = 'logits' in predictions ? predictions.logits : predictions.probabilities;
  const { rows, cols, data } = m;
  requireNumber('predictions.cols', cols, { integer: true, min: 2 });
  if (rows < 1) invalidArgument('predictions', 'at least one row', '0 rows');
  requireLabels(labels, rows, cols, 'labels');
  const logP = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    if ('logits' in predictions) {
      let mx = -Infinity;
      for (let k = 0; k < cols; k++) mx = Math.max(mx, data[o + k]!);
      let s = 0;
      for (let k = 0; k < cols; k++) s += Math.exp(data[o + k]! - mx);
      const lse = mx + Math.log(s);
      for (let k = 0; k < cols; k++) logP[o + k] = Math.max(data[o + k]! - lse, Math.log(NLL_CLIP));
    } else {
      clippedLog(data.subarray(o, o + cols), logP, o, cols);
    }
  }
  return splitLogProbabilities(logP, rows, cols, Int32Array.from(labels), calibrator);
}

// ---- the metrics (metric-registry.ts) ----

const NOT_COMPUTED: LossSplit = { loss: NaN, refinement: NaN, calibration: NaN, over: NaN, under: NaN, temperature: NaN };

function keptSplit(context: MetricContext, state: MetricState): CalibrationRefinement | { nll: LossSplit; brier: LossSplit } {
  return context.shared('calibration-refinement', () => {
    const { classes, refinementCalibrator } = context.classes();
    if (refinementCalibrator === 'none') return { nll: NOT_COMPUTED, brier: NOT_COMPUTED };
    const logP = state.column('logProbabilities') as Float64Array;
    const labels = state.column('labels') as Int32Array;
    return splitLogProbabilities(logP, context.n, classes, labels, refinementCalibrator);
  });
}

const keepRows = {
  // No state (so no rows kept and no probabilities formed for it) when the split is not asked for.
  state: (shape: MetricShape): StateSpec =>
    shape.refinementCalibrator === 'none'
      ? {}
      : {
          logProbabilities: { merge: 'concat' as const, length: shape.classes },
          labels: { merge: 'concat' as const, type: 'int32' as const },
        },
  needsProbabilities: true,
};

function keepUpdate(state: MetricState, block: RowBlock): void {
  const width = block.classes;
  const logs = new Float64Array(block.rows * width);
  clippedLog(block.probabilities, logs, 0, block.rows * width);
  state.append('logProbabilities', logs, 0, block.rows);
  for (let r = 0; r < block.rows; r++) state.push('labels', block.labels[block.labelOffset + r]!);
}

const RECALIBRATED = 'recalibrated on the evaluated rows (temperature scaling by default; see `--refinement-calibrator`)';

export const refinementNll = defineMetric({
  key: 'refinement_nll',
  label: 'refinement NLL',
  percent: false,
  better: 'lower',
  nullable: true,
  description: `NLL after recalibration, ${RECALIBRATED}; the "refine" loss of Berta et al. 2025`,
  ...keepRows,
  update: keepUpdate,
  compute: (context, state) => keptSplit(context, state).nll.refinement,
});

export const calibrationNll = defineMetric({
  key: 'calibration_nll',
  nullable: true,
  label: 'calibration NLL',
  percent: false,
  better: 'lower',
  description: 'NLL − refinement NLL: the log loss that recalibration removes (DeGroot & Fienberg 1983; Bröcker 2009)',
  compute: (context, state) => keptSplit(context, state).nll.calibration,
});

export const calibrationNllOver = defineMetric({
  key: 'calibration_nll_over',
  nullable: true,
  label: 'calibration NLL, over-confident rows',
  percent: false,
  better: 'lower',
  description: 'the part of calibration NLL from rows whose recalibrated top-label confidence is lower',
  compute: (context, state) => keptSplit(context, state).nll.over,
});

export const calibrationNllUnder = defineMetric({
  key: 'calibration_nll_under',
  nullable: true,
  label: 'calibration NLL, under-confident rows',
  percent: false,
  better: 'lower',
  description: 'the part of calibration NLL from the other rows (recalibrated top-label confidence not lower)',
  compute: (context, state) => keptSplit(context, state).nll.under,
});

export const refinementBrier = defineMetric({
  key: 'refinement_brier',
  nullable: true,
  label: 'refinement Brier',
  percent: false,
  better: 'lower',
  description: `Brier score after recalibration, ${RECALIBRATED.replace('temperature scaling', 'temperature scaling by Brier')}`,
  compute: (context, state) => keptSplit(context, state).brier.refinement,
});

export const calibrationBrier = defineMetric({
  key: 'calibration_brier',
  nullable: true,
  label: 'calibration Brier',
  percent: false,
  better: 'lower',
  description: 'Brier − refinement Brier: the Brier score that recalibration removes',
  compute: (context, state) => keptSplit(context, state).brier.calibration,
});

export const calibrationBrierOver = defineMetric({
  key: 'calibration_brier_over',
  nullable: true,
  label: 'calibration Brier, over-confident rows',
  percent: false,
  better: 'lower',
  description: 'the part of calibration Brier from rows whose recalibrated top-label confidence is lower',
  compute: (context, state) => keptSplit(context, state).brier.over,
});

export const calibrationBrierUnder = defineMetric({
  key: 'calibration_brier_under',
  nullable: true,
  label: 'calibration Brier, under-confident rows',
  percent: false,
  better: 'lower',
  description: 'the part of calibration Brier from the other rows',
  compute: (context, state) => keptSplit(context, state).brier.under,
});
