/**
 * Pixel-level metrics of semantic segmentation, as reported by Liu et al. CVPR 2022 (MbLS, Table 5, PASCAL VOC):
 * pixel accuracy, mIoU, and the calibration metrics of `evaluate` over pixels — over every labelled pixel, and
 * without the background pixels (label 0), since background dominates the pixel count. Pixels whose label is the
 * ignore index (VOC's void boundary, 255) are always left out. No new calibration math: the pixels become rows of
 * an M × C matrix and go through `evaluate`.
 */
import { evaluate } from './accumulators/evaluate.js';
import { invalidArgument, requireNumber } from '../util/errors.js';
import { argmaxRow } from '../util/argmax.js';
import { matrix, type FloatArray, type Matrix } from '../util/matrix.js';

/**
 * The counted pixels of dense logits [N, C, S] (S positions per image, row-major NCHW) with labels [N, S], as rows:
 * predictions [M, C] (pixel (n, j) → one row, classes last) and labels [M], in (n, j) order, keeping the pixels whose
 * label passes `keep`. N = labels.length / S is implied by `images`.
 */
export function pixelRows(logits: FloatArray, labels: Int32Array, images: number, classes: number, keep: (label: number) => boolean): { predictions: Matrix<Float32Array>; labels: Int32Array } {
  requireNumber('images', images, { integer: true, min: 1 });
  requireNumber('classes', classes, { integer: true, min: 2 });
  const s = labels.length / images;
  if (!Number.isInteger(s)) invalidArgument('labels', `a multiple of ${images} values (N × H × W)`, String(labels.length));
  if (logits.length !== labels.length * classes) invalidArgument('logits', `${images} × ${classes} × ${s} values (N × C × H × W)`, String(logits.length));
  let m = 0;
  for (let i = 0; i < labels.length; i++) if (keep(labels[i]!)) m++;
  const data = new Float32Array(m * classes);
  const y = new Int32Array(m);
  let r = 0;
  for (let n = 0; n < images; n++) {
    for (let j = 0; j < s; j++) {
      const label = labels[n * s + j]!;
      if (!keep(label)) continue;
      for (let k = 0; k < classes; k++) data[r * classes + k] = logits[(n * classes + k) * s + j]!;
      y[r++] = label;
    }
  }
  return { predictions: matrix(m, classes, data), labels: y };
}

/** The rows of predictions [M, C] whose label passes `keep`, with their labels (e.g. ignored pixels dropped). */
export function selectRows<T extends Matrix>(predictions: T, labels: Int32Array, keep: (label: number) => boolean): { predictions: Matrix<Float32Array | Float64Array>; labels: Int32Array } {
  const { rows, cols, data } = predictions;
  if (labels.length !== rows) invalidArgument('labels', `${rows} labels (one per row)`, String(labels.length));
  let m = 0;
  for (let i = 0; i < rows; i++) if (keep(labels[i]!)) m++;
  const out = data instanceof Float64Array ? new Float64Array(m * cols) : new Float32Array(m * cols);
  const y = new Int32Array(m);
  let r = 0;
  for (let i = 0; i < rows; i++) {
    if (!keep(labels[i]!)) continue;
    out.set(data.subarray(i * cols, (i + 1) * cols), r * cols);
    y[r++] = labels[i]!;
  }
  return { predictions: matrix(m, cols, out), labels: y };
}

/**
 * Intersection over union per class from predictions [M, C] (argmax, first index on ties) and labels [M]:
 * IoU_k = |{ŷ = k} ∩ {y = k}| / |{ŷ = k} ∪ {y = k}|; mIoU = their mean over the classes whose union is non-empty
 * (the PASCAL VOC convention: a class absent from both predictions and labels is left out). IoU_k is NaN there.
 */
export function meanIoU(predictions: Matrix, labels: Int32Array): { miou: number; iou: Float64Array } {
  const { rows, cols, data } = predictions;
  if (labels.length !== rows) invalidArgument('labels', `${rows} labels (one per row)`, String(labels.length));
  const inter = new Float64Array(cols);
  const union = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const p = argmaxRow(data, i * cols, cols);
    const y = labels[i]!;
    if (!(y >= 0 && y < cols)) invalidArgument(`labels[${i}]`, `a class in [0, ${cols})`, String(y));
    if (p === y) {
      inter[y]!++;
      union[y]!++;
    } else {
      union[p]!++;
      union[y]!++;
    }
  }
  const iou = new Float64Array(cols);
  let total = 0;
  let present = 0;
  for (let k = 0; k < cols; k++) {
    iou[k] = union[k]! > 0 ? inter[k]! / union[k]! : NaN;
    if (union[k]! > 0) {
      total += iou[k]!;
      present++;
    }
  }
  return { miou: present > 0 ? total / present : NaN, iou };
}

/** Pixel calibration over one set of pixels (fractions; `pixels` = how many were counted). */
export interface PixelCalibration {
  readonly pixels: number;
  readonly pixel_accuracy: number;
  /** Mean top-label confidence: above `pixel_accuracy` = overconfident. */
  readonly mean_confidence: number;
  readonly nll: number;
  readonly ece: number;
  readonly adaece: number;
  readonly classwise_ece: number;
}

/** What `segmentationMetrics` reports. */
export interface SegmentationMetrics extends PixelCalibration {
  readonly miou: number;
  /** IoU per class (NaN (null in JSON) for a class absent from predictions and labels). */
  readonly iou: readonly number[];
  /** The same calibration metrics without the background pixels. */
  readonly foreground: PixelCalibration;
  readonly ignore_index: number;
  readonly background: number;
  readonly bins: number;
}

/** Options of `segmentationMetrics`. */
export interface SegmentationMetricsOptions {
  /** Label of unlabelled pixels (default 255, PASCAL VOC's void). */
  readonly ignoreIndex?: number;
  /** Background class left out of `foreground` (default 0). */
  readonly background?: number;
  /** Bins of ECE, AdaECE and classwise ECE (default 15). */
  readonly bins?: number;
}

function calibrationOf(predictions: Matrix, labels: Int32Array, bins: number): PixelCalibration {
  if (labels.length === 0) return { pixels: 0, pixel_accuracy: NaN, mean_confidence: NaN, nll: NaN, ece: NaN, adaece: NaN, classwise_ece: NaN };
  const m = evaluate(predictions, labels, { input: 'logits', bins });
  return { pixels: labels.length, pixel_accuracy: m.accuracy, mean_confidence: m.mean_confidence, nll: m.nll, ece: m.ece, adaece: m.adaece, classwise_ece: m.classwise_ece };
}

/**
 * Pixel accuracy, mIoU, mean confidence, NLL, ECE, AdaECE and classwise ECE of dense logits [N, C, H, W] (flat NCHW, `images` = N)
 * against masks [N, H, W], over every pixel not labelled `ignoreIndex`; and the calibration metrics again over the
 * pixels not labelled `background` either (`foreground`).
 */
export function segmentationMetrics(logits: FloatArray, labels: Int32Array, images: number, classes: number, options: SegmentationMetricsOptions = {}): SegmentationMetrics {
  const ignoreIndex = requireNumber('ignoreIndex', options.ignoreIndex ?? 255, { integer: true });
  const background = requireNumber('background', options.background ?? 0, { integer: true });
  const bins = requireNumber('bins', options.bins ?? 15, { integer: true, min: 1 });
  const all = pixelRows(logits, labels, images, classes, (y) => y !== ignoreIndex);
  if (all.labels.length === 0) invalidArgument('labels', 'at least one labelled pixel', `every pixel is ${ignoreIndex}`);
  const fg = selectRows(all.predictions, all.labels, (y) => y !== background);
  const { miou, iou } = meanIoU(all.predictions, all.labels);
  return {
    ...calibrationOf(all.predictions, all.labels, bins),
    miou,
    iou: Array.from(iou),
    foreground: calibrationOf(fg.predictions, fg.labels, bins),
    ignore_index: ignoreIndex,
    background,
    bins,
  };
}
