/**
 * Out-of-distribution and dataset-shift evaluation of a trained classifier (Thulasidasan et al. 2019 §4.3;
 * Hendrycks & Dietterich 2019):
 *
 * - noise:    confidence AUROC of the in-distribution test set (positives) against Gaussian-noise images with the
 *             training set's per-pixel mean and variance (src/data/shift.ts), as many as test images;
 * - dataset:  confidence AUROC of the test set against another dataset of the same image shape (MNIST vs
 *             Fashion-MNIST, CIFAR-10 vs SVHN), as many samples as test images (a seeded random subset);
 * - corruptions: accuracy, NLL, ECE and AdaECE of the test set under each common corruption at severities 1–5
 *             (src/data/corruptions/corruptions.ts).
 *
 * Confidence = max softmax probability; AUROC = P(c_in > c_out) + ½ P(tie) (src/metrics/selective/auroc.ts): 1 means every
 * in-distribution sample is more confident than every OOD sample, 0.5 means no separation.
 */
import { CORRUPTIONS, type Corruption, corrupt, FILTER_CORRUPTIONS } from '../../data/corruptions/corruptions.js';
import { type ImageDataset, subset } from '../../data/dataset.js';
import { gaussianNoiseDataset } from '../../data/shift.js';
import { describe, invalidArgument, requireNumber } from '../../util/errors.js';
import { matrix } from '../../util/matrix.js';
import { Random } from '../../util/random.js';
import { shiftReport, type ShiftReport, type ShiftSets } from './shift-metrics.js';

/** The default second dataset for OOD AUROC of a dataset: its declared OOD partner (data/load-dataset.ts). */
export { defaultOodDataset } from '../../data/load-dataset.js';
export { CONFIDENCE_HISTOGRAM_BINS, confidenceCounts, type ShiftMetrics, type ShiftReport, type ShiftSets } from './shift-metrics.js';

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

/**
 * The model's logits on the test set, noise, a second dataset and corrupted test sets (see the module comment), the
 * input of `shiftReport` (shift-metrics.ts) and the files of the run directory's shift/ (shift-logits.ts).
 * `train` supplies the noise statistics. Shapes: every dataset [N, C_in, H, W] like `test`.
 */
export function predictShiftSets(predict: Predictor, train: ImageDataset, test: ImageDataset, options: ShiftOptions = {}): ShiftSets {
  if (train?.kind !== 'image' || test?.kind !== 'image') invalidArgument('train/test', 'image datasets', `${describe(train?.kind)} / ${describe(test?.kind)}`);
  if (train.shape.join() !== test.shape.join()) invalidArgument('test', `images of shape [${train.shape.join(', ')}] like train`, `[${test.shape.join(', ')}]`);
  const seed = requireNumber('options.seed', options.seed ?? 0, { integer: true });
  const severities = options.severities ?? [1, 2, 3, 4, 5];
  severities.forEach((s, i) => requireNumber(`options.severities[${i}]`, s, { integer: true, min: 1, max: 5 }));
  const corruptions = options.corruptions ?? FILTER_CORRUPTIONS;
  corruptions.forEach((c, i) => {
    if (!(CORRUPTIONS as readonly string[]).includes(c)) invalidArgument(`options.corruptions[${i}]`, `one of ${CORRUPTIONS.join(', ')}`, describe(c));
  });
  const progress = options.onProgress ?? (() => {});
  const classes = test.classes;
  const n = test.labels.length;
  const logitsOf = (images: Float32Array) => {
    const z = predict(images);
    return matrix(z.length / classes, classes, z);
  };

  progress(`in-distribution ${test.name}`);
  const testLogits = logitsOf(test.images);

  let noise: ShiftSets['noise'] = null;
  if (options.noise ?? true) {
    progress('gaussian noise');
    noise = logitsOf(gaussianNoiseDataset(train, { count: n, seed }).images);
  }

  let oodDataset: ShiftSets['oodDataset'] = null;
  if (options.oodDataset) {
    const other = options.oodDataset;
    if (other.kind !== 'image' || other.shape.join() !== test.shape.join()) {
      invalidArgument('options.oodDataset', `images of shape [${test.shape.join(', ')}]`, `${other.name} [${other.shape.join(', ')}]`);
    }
    const m = Math.min(n, other.labels.length);
    const pick = new Random(seed).permutation(other.labels.length).slice(0, m).sort();
    const sample = subset(other, pick);
    progress(`OOD dataset ${other.name}`);
    oodDataset = { dataset: other.name, predictions: logitsOf(sample.images) };
  }

  // Each corrupted set is `corruptDataset(test, corruption, severity, { seed })`'s images (a fresh Random(seed) per
  // set), written into one reused array: only its logits are kept, and fresh memory is slow to touch (src/engine/README.md).
  const shifted: ShiftSets['corruptions'][number][] = [];
  const corrupted = corruptions.length > 0 && severities.length > 0 ? new Float32Array(test.images.length) : null;
  for (const corruption of corruptions) {
    for (const severity of severities) {
      progress(`${corruption} severity ${severity}`);
      corrupt(test.images, [n, ...test.shape], corruption, severity, { rng: new Random(seed), out: corrupted! });
      shifted.push({ corruption, severity, predictions: logitsOf(corrupted!) });
    }
  }
  return { input: 'logits', test: { dataset: test.name, predictions: testLogits, labels: test.labels }, noise, oodDataset, corruptions: shifted };
}

/**
 * Evaluate `predict` on the test set, noise, a second dataset and corrupted test sets (see the module comment):
 * `predictShiftSets` then `shiftReport`. The sets' logits come back too (`sets`), for the run directory's shift/.
 */
export function evaluateShiftSets(predict: Predictor, train: ImageDataset, test: ImageDataset, options: ShiftOptions = {}): { report: ShiftReport; sets: ShiftSets } {
  const bins = requireNumber('options.bins', options.bins ?? 15, { integer: true, min: 1 });
  const sets = predictShiftSets(predict, train, test, options);
  return { report: shiftReport(sets, { bins, seed: options.seed ?? 0 }), sets };
}

/** `evaluateShiftSets`' report alone. */
export function evaluateShift(predict: Predictor, train: ImageDataset, test: ImageDataset, options: ShiftOptions = {}): ShiftReport {
  return evaluateShiftSets(predict, train, test, options).report;
}
