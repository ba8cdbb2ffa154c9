/**
 * Out-of-distribution and dataset-shift evaluation of a trained classifier (Thulasidasan et al. 2019 §4.3;
 * Hendrycks & Dietterich 2019):
 *
 * - noise:    confidence AUROC of the in-distribution test set (positives) against Gaussian-noise images with the
 *             training set's per-pixel mean and variance (src/data/shift.ts), as many as test images;
 * - dataset:  confidence AUROC of the test set against another dataset of the same image shape (MNIST vs
 *             Fashion-MNIST, CIFAR-10 vs SVHN), as many samples as test images (a seeded random subset);
 * - corruptions: accuracy, NLL, ECE and AdaECE of the test set under each common corruption at severities 1–5
 *             (src/data/corruptions.ts).
 *
 * Confidence = max softmax probability; AUROC = P(c_in > c_out) + ½ P(tie) (src/metrics/auroc.ts): 1 means every
 * in-distribution sample is more confident than every OOD sample, 0.5 means no separation.
 */
import { CORRUPTIONS, type Corruption, corruptDataset, FILTER_CORRUPTIONS } from '../data/corruptions.js';
import { type ImageDataset, subset } from '../data/dataset.js';
import { gaussianNoiseDataset } from '../data/shift.js';
import { oodAuroc } from '../metrics/auroc.js';
import { equalWidthBinSums } from '../metrics/bin-statistics.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import { Random } from '../util/random.js';
import { confidences, validationScores } from './predict.js';

/** Logits [N, C] of images [N, C_in, H, W]. */
export type Predictor = (images: Float32Array) => Float32Array;

/** Options of `evaluateShift`. */
export interface ShiftOptions {
  /** Include the Gaussian-noise AUROC (default true). */
  readonly noise?: boolean;
  /** Second dataset for the OOD AUROC (same image shape), or nothing. */
  readonly oodDataset?: ImageDataset;
  /** Corruptions to evaluate (default FILTER_CORRUPTIONS, the nine single-filter kinds; [] for none). */
  readonly corruptions?: readonly Corruption[];
  /** Severities (default 1..5). */
  readonly severities?: readonly number[];
  /** Seed of the noise images, the OOD subset and the noise corruptions (default 0). */
  readonly seed?: number;
  /** Bins of ECE / AdaECE (default 15). */
  readonly bins?: number;
  /** Called before each evaluation with a short description (progress). */
  readonly onProgress?: (what: string) => void;
}

/** Calibration numbers of one evaluated set. */
export interface ShiftMetrics {
  readonly n: number;
  readonly accuracy: number;
  readonly nll: number;
  readonly ece: number;
  readonly adaece: number;
  readonly mean_confidence: number;
}

/** The report written to ood.json. */
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

function mean(a: Float64Array): number {
  let s = 0;
  for (const v of a) s += v;
  return s / a.length;
}

/** Bins of the in-vs-out confidence histograms. */
export const CONFIDENCE_HISTOGRAM_BINS = 20;

/** Counts of `confidence` in `bins` equal-width (l, u] bins (metrics/bin-statistics.ts, the toolkit's one bin rule). */
export function confidenceCounts(confidence: Float64Array, bins = CONFIDENCE_HISTOGRAM_BINS): number[] {
  return Array.from(equalWidthBinSums(confidence, new Uint8Array(confidence.length), bins, '(l,u]').counts);
}

function metricsOf(logits: Float32Array, labels: Int32Array, classes: number, bins: number): ShiftMetrics {
  const s = validationScores(logits, labels, classes, bins);
  return { n: labels.length, ...s, mean_confidence: mean(confidences(logits, classes)) };
}

/**
 * Evaluate `predict` on the test set, noise, a second dataset and corrupted test sets (see the module comment).
 * `train` supplies the noise statistics. Shapes: every dataset [N, C_in, H, W] like `test`.
 */
export function evaluateShift(predict: Predictor, train: ImageDataset, test: ImageDataset, options: ShiftOptions = {}): ShiftReport {
  if (train?.kind !== 'image' || test?.kind !== 'image') invalidArgument('train/test', 'image datasets', `${describe(train?.kind)} / ${describe(test?.kind)}`);
  if (train.shape.join() !== test.shape.join()) invalidArgument('test', `images of shape [${train.shape.join(', ')}] like train`, `[${test.shape.join(', ')}]`);
  const seed = requireNumber('options.seed', options.seed ?? 0, { integer: true });
  const bins = requireNumber('options.bins', options.bins ?? 15, { integer: true, min: 1 });
  const severities = options.severities ?? [1, 2, 3, 4, 5];
  severities.forEach((s, i) => requireNumber(`options.severities[${i}]`, s, { integer: true, min: 1, max: 5 }));
  const corruptions = options.corruptions ?? FILTER_CORRUPTIONS;
  corruptions.forEach((c, i) => {
    if (!(CORRUPTIONS as readonly string[]).includes(c)) invalidArgument(`options.corruptions[${i}]`, `one of ${CORRUPTIONS.join(', ')}`, describe(c));
  });
  const progress = options.onProgress ?? (() => {});
  const classes = test.classes;
  const n = test.labels.length;

  progress(`in-distribution ${test.name}`);
  const testLogits = predict(test.images);
  const inConfidence = confidences(testLogits, classes);
  const inDistribution = { dataset: test.name, ...metricsOf(testLogits, test.labels, classes, bins) };

  let noise: ShiftReport['noise'] = null;
  let noiseCounts: number[] | null = null;
  let oodCounts: number[] | null = null;
  if (options.noise ?? true) {
    progress('gaussian noise');
    const noiseSet = gaussianNoiseDataset(train, { count: n, seed });
    const c = confidences(predict(noiseSet.images), classes);
    noise = { n, auroc: oodAuroc(inConfidence, c), mean_confidence: mean(c) };
    noiseCounts = confidenceCounts(c);
  }

  let oodDataset: ShiftReport['ood_dataset'] = null;
  if (options.oodDataset) {
    const other = options.oodDataset;
    if (other.kind !== 'image' || other.shape.join() !== test.shape.join()) {
      invalidArgument('options.oodDataset', `images of shape [${test.shape.join(', ')}]`, `${other.name} [${other.shape.join(', ')}]`);
    }
    const m = Math.min(n, other.labels.length);
    const pick = new Random(seed).permutation(other.labels.length).slice(0, m).sort();
    const sample = subset(other, pick);
    progress(`OOD dataset ${other.name}`);
    const c = confidences(predict(sample.images), classes);
    oodDataset = { dataset: other.name, n: m, auroc: oodAuroc(inConfidence, c), mean_confidence: mean(c) };
    oodCounts = confidenceCounts(c);
  }

  const shifted: (ShiftMetrics & { corruption: Corruption; severity: number })[] = [];
  for (const corruption of corruptions) {
    for (const severity of severities) {
      progress(`${corruption} severity ${severity}`);
      const set = corruptDataset(test, corruption, severity, { seed });
      shifted.push({ corruption, severity, ...metricsOf(predict(set.images), set.labels, classes, bins) });
    }
  }
  const confidence_histogram = { bins: CONFIDENCE_HISTOGRAM_BINS, in_distribution: confidenceCounts(inConfidence), noise: noiseCounts, ood_dataset: oodCounts };
  return { in_distribution: inDistribution, noise, ood_dataset: oodDataset, corruptions: shifted, confidence_histogram, settings: { bins, convention: '(l,u]', seed, confidence: 'max softmax' } };
}

/** The default second dataset for OOD AUROC of a dataset (null when there is no natural pair). */
export function defaultOodDataset(dataset: string): string | null {
  const pairs: Readonly<Record<string, string>> = { mnist: 'fashion-mnist', 'fashion-mnist': 'mnist', cifar10: 'svhn', cifar100: 'svhn', svhn: 'cifar10' };
  return pairs[dataset] ?? null;
}
