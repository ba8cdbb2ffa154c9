/**
 * Inductive Venn–Abers predictors (Vovk, Petej & Fedorova 2015, "Large-scale probabilistic predictors with and
 * without guarantees of validity", Algorithms 1–6; the reference is ip200/venn-abers `calc_p0p1` /
 * `calc_probs`). For a binary score s and calibration pairs (s_i, t_i):
 *   p0(s) = the isotonic regression of the calibration set ∪ {(s, 0)} evaluated at s,
 *   p1(s) = the same with {(s, 1)},
 *   p(s) = p1 / (1 − p0 + p1)   (the log-loss-minimax merge of the interval [p0, p1]).
 * p0 and p1 depend on s only through its position among the m distinct calibration scores c_1 < … < c_m, so
 * they are precomputed for the m + 1 gaps (exactly, by pool-adjacent-violators on the m grouped calibration
 * points plus the test point: O(m²) once). As in the reference, a test score equal to some c_j takes p1 from
 * the gap below c_j (searchsorted 'left') and p0 from the gap above (searchsorted 'right').
 * Multiclass (C > 2): mode 'top-label' applies one Venn–Abers predictor to the confidence (correct or not) and
 * rescales the other classes (top-versus-all.ts); mode 'one-vs-rest' fits one per class on (p_k, 1[y = k]) and
 * renormalises the rows. For C = 2 both modes fit on p_1 and output [1 − p, p], as the reference does.
 * Needs probabilities.
 */
import type { FitOptions } from '../fit-progress.js';
import { invalidArgument } from '../../util/errors.js';
import type { Matrix } from '../../util/matrix.js';
import type { Calibrator, CalibratorJSON, Predictions } from '../calibrator.js';
import { pav } from '../../util/pav.js';
import { jsonHeader, readHeader, readVector, requireRecord } from '../json.js';
import { enumOption, parseOptions, type OptionsOf, type SettingsOf } from '../options.js';
import { binaryInPlace, fittingProbabilities, mapProbabilities, oneVsRestInPlace } from './probability-map.js';
import { recalibrateTopLabel, topLabelPairs } from '../composite/top-versus-all.js';
import { defineCalibrator } from '../calibrator-definition.js';
import { vennAbersToOnnx } from '../onnx/top-label.js';

export const vennAbersOptions = {
  mode: enumOption(['top-label', 'one-vs-rest'] as const, 'top-label', "Multiclass reduction: 'top-label' (one predictor on the confidence) or 'one-vs-rest'."),
};
export type VennAbersOptions = OptionsOf<typeof vennAbersOptions>;

/** A fitted binary Venn–Abers predictor: distinct scores c (m) and p0, p1 per gap (m + 1 each). */
export interface VennAbersTable {
  readonly scores: Float64Array;
  readonly p0: Float64Array;
  readonly p1: Float64Array;
}

/** Fit the p0 / p1 table on calibration scores s and outcomes t ∈ {0, 1}. */
export function fitVennAbersTable(s: Float64Array, t: Float64Array): VennAbersTable {
  const order = Array.from(s.keys()).sort((a, b) => s[a]! - s[b]!);
  const scores: number[] = [];
  const weight: number[] = [];
  const sum: number[] = [];
  for (const i of order) {
    if (scores.length > 0 && scores[scores.length - 1] === s[i]) {
      weight[weight.length - 1]! += 1;
      sum[sum.length - 1]! += t[i]!;
    } else {
      scores.push(s[i]!);
      weight.push(1);
      sum.push(t[i]!);
    }
  }
  const m = scores.length;
  const p0 = new Float64Array(m + 1);
  const p1 = new Float64Array(m + 1);
  const y = new Float64Array(m + 1);
  const w = new Float64Array(m + 1);
  for (let gap = 0; gap <= m; gap++) {
    for (const label of [0, 1]) {
      // Points in score order with the test point inserted at position `gap` (before c_gap).
      for (let j = 0, k = 0; j <= m; j++) {
        if (j === gap) {
          y[j] = label;
          w[j] = 1;
        } else {
          y[j] = sum[k]! / weight[k]!;
          w[j] = weight[k]!;
          k++;
        }
      }
      pav(y, w);
      (label === 0 ? p0 : p1)[gap] = y[gap]!;
    }
  }
  return { scores: Float64Array.from(scores), p0, p1 };
}

/** searchsorted(c, v, side) (numpy semantics). */
function searchSorted(c: Float64Array, v: number, right: boolean): number {
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (right ? c[mid]! <= v : c[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The interval [p0, p1] of a test score s and the merged probability p1 / (1 − p0 + p1). */
export function vennAbersPredict(table: VennAbersTable, s: number): { p0: number; p1: number; p: number } {
  const p0 = table.p0[searchSorted(table.scores, s, true)]!;
  const p1 = table.p1[searchSorted(table.scores, s, false)]!;
  return { p0, p1, p: p1 / (1 - p0 + p1) };
}

/** A fitted Venn–Abers calibrator: one table (C = 2 or 'top-label') or C tables ('one-vs-rest'). */
export class VennAbersCalibrator implements Calibrator {
  readonly kind = 'venn-abers' as const;
  readonly classes: number;
  readonly settings: SettingsOf<typeof vennAbersOptions>;
  readonly tables: readonly VennAbersTable[];

  constructor(classes: number, tables: readonly VennAbersTable[], settings: SettingsOf<typeof vennAbersOptions>) {
    this.classes = classes;
    this.tables = Object.freeze([...tables]);
    this.settings = Object.freeze({ ...settings });
    Object.freeze(this);
  }

  /** Calibrated probabilities N × C float64. */
  apply(input: Predictions): Matrix<Float64Array> {
    return mapProbabilities(input, this.classes, (p, rows, C) => {
      if (C === 2) binaryInPlace(p, rows, (p1) => vennAbersPredict(this.tables[0]!, p1).p);
      else if (this.settings.mode === 'top-label') recalibrateTopLabel(p, rows, C, (c) => vennAbersPredict(this.tables[0]!, c).p);
      else oneVsRestInPlace(p, rows, C, (v, k) => vennAbersPredict(this.tables[k]!, v).p);
    });
  }

  toJSON(): CalibratorJSON {
    return {
      ...jsonHeader('venn-abers', this.classes, this.settings),
      tables: this.tables.map((t) => ({ scores: Array.from(t.scores), p0: Array.from(t.p0), p1: Array.from(t.p1) })),
    };
  }
}

function tableCount(classes: number, mode: string): number {
  return classes === 2 || mode === 'top-label' ? 1 : classes;
}

/** Fit inductive Venn–Abers calibration on validation (calibration) predictions (N × C) and labels (N). */
export function fitVennAbers(input: Predictions, labels: Int32Array, options?: VennAbersOptions, fit: FitOptions = {}): VennAbersCalibrator {
  const settings = parseOptions('venn-abers options', options, vennAbersOptions);
  const { p, rows, cols } = fittingProbabilities(input, labels);
  const tables: VennAbersTable[] = [];
  if (cols === 2) {
    tables.push(
      fitVennAbersTable(
        Float64Array.from({ length: rows }, (_, i) => p[2 * i + 1]!),
        Float64Array.from(labels),
      ),
    );
  } else if (settings.mode === 'top-label') {
    const { confidence, correct } = topLabelPairs(p, rows, cols, labels);
    tables.push(fitVennAbersTable(confidence, correct));
  } else {
    for (let k = 0; k < cols; k++) {
      const s = Float64Array.from({ length: rows }, (_, i) => p[i * cols + k]!);
      tables.push(
        fitVennAbersTable(
          s,
          Float64Array.from(labels, (y) => (y === k ? 1 : 0)),
        ),
      );
      fit.onProgress?.((k + 1) / cols);
    }
  }
  return new VennAbersCalibrator(cols, tables, settings);
}

/** Rebuild a Venn–Abers calibrator from its JSON. */
export function vennAbersFromJSON(json: unknown): VennAbersCalibrator {
  const { record, classes, settings } = readHeader(json, 'venn-abers', vennAbersOptions);
  const count = tableCount(classes, settings.mode);
  const tables = record.tables;
  if (!Array.isArray(tables) || tables.length !== count) invalidArgument('json.tables', `an array of ${count} tables`, String(tables));
  return new VennAbersCalibrator(
    classes,
    tables.map((t: unknown, k: number) => {
      const name = `json.tables[${k}]`;
      const r = requireRecord(name, t);
      const m = Array.isArray(r.scores) ? r.scores.length : -1;
      if (m < 1) invalidArgument(`${name}.scores`, 'a non-empty array of numbers', String(r.scores));
      const scores = readVector(`${name}.scores`, r.scores, m);
      scores.forEach((v, i) => {
        if (i > 0 && !(v > scores[i - 1]!)) invalidArgument(`${name}.scores[${i}]`, `a value > ${scores[i - 1]}`, String(v));
      });
      const p0 = readVector(`${name}.p0`, r.p0, m + 1);
      const p1 = readVector(`${name}.p1`, r.p1, m + 1);
      for (const [field, v] of [
        ['p0', p0],
        ['p1', p1],
      ] as const) {
        v.forEach((x, i) => {
          if (!(x >= 0 && x <= 1)) invalidArgument(`${name}.${field}[${i}]`, 'a value in [0, 1]', String(x));
        });
      }
      return { scores, p0, p1 };
    }),
    settings,
  );
}

/** The declaration of venn-abers (calibrators.ts). */
export const vennAbersDefinition = defineCalibrator({
  kind: 'venn-abers',
  summary: 'inductive Venn-Abers, p = p1 / (1 − p0 + p1) (Vovk et al. 2015)',
  input: 'probabilities',
  classes: 'any',
  keepsArgmax: 'not in general',
  options: vennAbersOptions,
  fit: fitVennAbers,
  weights: { refused: 'its isotonic fits are refitted with each test point added at unit weight (conformal validity needs exchangeable unit-weight rows)' },
  checkedAgainst: 'ip200/venn-abers VennAbers',
  fromJSON: vennAbersFromJSON,
  onnx: vennAbersToOnnx,
});
