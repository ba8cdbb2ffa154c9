/**
 * The numbers of an OOD / dataset-shift evaluation (ood.json, and posthoc.json's `calibrators[kind].shift`) from the
 * predictions of its sets — the trained model's logits, or a post-hoc calibrator's probabilities of those logits —
 * so raw and calibrated predictions go through the same definitions:
 *
 * - confidence = max softmax probability (metrics/selective/ood-scores.ts `msp`; for probabilities, max_k p_k);
 * - AUROC of in-distribution (positives) vs noise / second dataset (negatives) confidences (metrics/selective/auroc.ts);
 * - accuracy, NLL, ECE, AdaECE and AdaECE ℓ2 (`bins` bins; ECE equal-width (l,u], AdaECE equal-mass with the ℓ1 and
 *   the ℓ2 norm — the latter the "ECE" of Karandikar et al. 2021) of the test set and of each corrupted copy, all from
 *   one metrics/accumulators/evaluate.ts call;
 * - confidence histograms: counts in CONFIDENCE_HISTOGRAM_BINS equal-width (l,u] bins (metrics/binned/bin-statistics.ts).
 */
import type { Corruption } from '../../data/corruptions/corruptions.js';
import { oodAuroc } from '../../metrics/selective/auroc.js';
import { equalWidthBinSums } from '../../metrics/binned/bin-statistics.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { oodScores } from '../../metrics/selective/ood-scores.js';
import type { PredictionKind } from '../../metrics/validation.js';
import type { Matrix } from '../../util/matrix.js';

/** Predictions [N, C] of every set of a shift evaluation (labels of the corrupted sets = the test labels). */
export interface ShiftSets {
  /** 'logits' (the model's) or 'probabilities' (a calibrator's). */
  readonly input: PredictionKind;
  readonly test: { readonly dataset: string; readonly predictions: Matrix; readonly labels: Int32Array };
  readonly noise: Matrix | null;
  readonly oodDataset: { readonly dataset: string; readonly predictions: Matrix } | null;
  readonly corruptions: readonly { readonly corruption: Corruption; readonly severity: number; readonly predictions: Matrix }[];
}

/** Calibration numbers of one evaluated set. */
export interface ShiftMetrics {
  readonly n: number;
  readonly accuracy: number;
  readonly nll: number;
  readonly ece: number;
  readonly adaece: number;
  /**
   * Equal-mass ℓ2 ECE, metrics/accumulators/evaluate.ts `adaece_l2`. Absent in files written before it existed: readers take a
   * missing key as NaN (n/a).
   */
  readonly adaece_l2: number;
  readonly mean_confidence: number;
}

/** The per-set numbers a report can plot against corruption severity (the suite key `shiftMetric`). */
export const SHIFT_METRIC_KEYS = ['ece', 'adaece', 'adaece_l2', 'nll', 'accuracy'] as const satisfies readonly (keyof ShiftMetrics)[];
export type ShiftMetricKey = (typeof SHIFT_METRIC_KEYS)[number];

/** The report written to ood.json (and, of calibrated predictions, to posthoc.json's `calibrators[kind].shift`). */
export interface ShiftReport {
  readonly in_distribution: ShiftMetrics & { readonly dataset: string };
  readonly noise: { readonly n: number; readonly auroc: number; readonly mean_confidence: number } | null;
  readonly ood_dataset: { readonly dataset: string; readonly n: number; readonly auroc: number; readonly mean_confidence: number } | null;
  readonly corruptions: readonly (ShiftMetrics & { readonly corruption: Corruption; readonly severity: number })[];
  /**
   * Counts of the confidence (max softmax) in `bins` equal-width (l, u] bins of [0, 1], in distribution and on each
   * OOD set (null where not evaluated): the in-vs-out confidence histograms of the suite report.
   */
  readonly confidence_histogram: { readonly bins: number; readonly in_distribution: readonly number[]; readonly noise: readonly number[] | null; readonly ood_dataset: readonly number[] | null };
  readonly settings: { readonly bins: number; readonly convention: '(l,u]'; readonly seed: number; readonly confidence: 'max softmax' };
}

/** Bins of the in-vs-out confidence histograms. */
export const CONFIDENCE_HISTOGRAM_BINS = 20;

/** Counts of `confidence` in `bins` equal-width (l, u] bins (metrics/binned/bin-statistics.ts, the toolkit's one bin rule). */
export function confidenceCounts(confidence: Float64Array, bins = CONFIDENCE_HISTOGRAM_BINS): number[] {
  return Array.from(equalWidthBinSums(confidence, new Uint8Array(confidence.length), bins, '(l,u]').counts);
}

function mean(a: Float64Array): number {
  let s = 0;
  for (const v of a) s += v;
  return s / a.length;
}

/** Accuracy, NLL, ECE, AdaECE, AdaECE ℓ2 (`bins` bins) and mean confidence of predictions against labels. */
export function shiftMetrics(predictions: Matrix, labels: Int32Array, input: PredictionKind, bins: number): ShiftMetrics {
  const m = evaluate(predictions, labels, { input, bins });
  return { n: labels.length, accuracy: m.accuracy, nll: m.nll, ece: m.ece, adaece: m.adaece, adaece_l2: m.adaece_l2, mean_confidence: mean(oodScores(predictions, 'msp', input)) };
}

/** The shift report of `sets`: `bins` bins of ECE / AdaECE; `seed` is recorded (the seed the sets were drawn with). */
export function shiftReport(sets: ShiftSets, settings: { readonly bins: number; readonly seed: number }): ShiftReport {
  const { input } = sets;
  const { bins, seed } = settings;
  const confidence = (m: Matrix): Float64Array => oodScores(m, 'msp', input);
  const inConfidence = confidence(sets.test.predictions);
  const against = (m: Matrix) => {
    const c = confidence(m);
    return { n: m.rows, auroc: oodAuroc(inConfidence, c), mean_confidence: mean(c), counts: confidenceCounts(c) };
  };
  const noise = sets.noise ? against(sets.noise) : null;
  const other = sets.oodDataset ? against(sets.oodDataset.predictions) : null;
  const labels = sets.test.labels;
  return {
    in_distribution: { dataset: sets.test.dataset, ...shiftMetrics(sets.test.predictions, labels, input, bins) },
    noise: noise ? { n: noise.n, auroc: noise.auroc, mean_confidence: noise.mean_confidence } : null,
    ood_dataset: other ? { dataset: sets.oodDataset!.dataset, n: other.n, auroc: other.auroc, mean_confidence: other.mean_confidence } : null,
    corruptions: sets.corruptions.map((c) => ({ corruption: c.corruption, severity: c.severity, ...shiftMetrics(c.predictions, labels, input, bins) })),
    confidence_histogram: { bins: CONFIDENCE_HISTOGRAM_BINS, in_distribution: confidenceCounts(inConfidence), noise: noise?.counts ?? null, ood_dataset: other?.counts ?? null },
    settings: { bins, convention: '(l,u]', seed, confidence: 'max softmax' },
  };
}

/** `sets` with every prediction matrix mapped by `f` (e.g. a fitted calibrator's `apply`), now of kind `input`. */
export function mapShiftSets(sets: ShiftSets, input: PredictionKind, f: (m: Matrix) => Matrix): ShiftSets {
  return {
    input,
    test: { ...sets.test, predictions: f(sets.test.predictions) },
    noise: sets.noise ? f(sets.noise) : null,
    oodDataset: sets.oodDataset ? { dataset: sets.oodDataset.dataset, predictions: f(sets.oodDataset.predictions) } : null,
    corruptions: sets.corruptions.map((c) => ({ ...c, predictions: f(c.predictions) })),
  };
}
