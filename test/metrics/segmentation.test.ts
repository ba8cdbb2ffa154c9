import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluate } from '../../src/metrics/accumulators/evaluate.js';
import { meanIoU, pixelRows, segmentationMetrics } from '../../src/metrics/segmentation.js';
import { matrix } from '../../src/util/matrix.js';

// One image, C = 3, 2×2 pixels, NCHW: logits[(k * 4) + j] for class k at pixel j.
// Pixel labels [0, 1, 255, 2]; predictions by pixel: p0 → 0 (right), p1 → 2 (wrong), p2 → ignored, p3 → 2 (right).
const LOGITS = Float64Array.from([/* k=0 */ 2, 0, 0, 0, /* k=1 */ 0, 1, 5, 0, /* k=2 */ 0, 2, 0, 3]);
const LABELS = Int32Array.from([0, 1, 255, 2]);

test('pixelRows gathers counted pixels as rows, classes last', () => {
  const r = pixelRows(LOGITS, LABELS, 1, 3, (y) => y !== 255);
  assert.deepEqual(Array.from(r.labels), [0, 1, 2]);
  assert.deepEqual(Array.from(r.predictions.data), [2, 0, 0, 0, 1, 2, 0, 0, 3]);
  assert.throws(() => pixelRows(LOGITS, LABELS, 3, 3, () => true), /labels: expected a multiple of 3/);
  assert.throws(() => pixelRows(LOGITS.subarray(1), LABELS, 1, 3, () => true), /logits: expected 1 × 3 × 4/);
});

test('meanIoU by hand: VOC convention over classes present in predictions or labels', () => {
  // predictions [0, 2, 2], labels [0, 1, 2]: IoU_0 = 1/1, IoU_1 = 0/1, IoU_2 = 1/2
  const r = meanIoU(matrix(3, 3, Float64Array.from([2, 0, 0, 0, 1, 2, 0, 0, 3])), Int32Array.from([0, 1, 2]));
  assert.deepEqual(Array.from(r.iou), [1, 0, 0.5]);
  assert.equal(r.miou, 0.5);
  // class 2 absent from both: left out
  const absent = meanIoU(matrix(2, 3, Float64Array.from([1, 0, 0, 0, 1, 0])), Int32Array.from([0, 1]));
  assert.ok(Number.isNaN(absent.iou[2]!));
  assert.equal(absent.miou, 1);
});

test('segmentationMetrics: pixel ECE with and without background, ignore label excluded, by hand', () => {
  const m = segmentationMetrics(LOGITS, LABELS, 1, 3, { bins: 10 });
  // softmax confidences of the three counted pixels
  const c0 = Math.exp(2) / (Math.exp(2) + 2);
  const c1 = Math.exp(2) / (1 + Math.exp(1) + Math.exp(2));
  const c3 = Math.exp(3) / (Math.exp(3) + 2);
  // bins of width 0.1: c0 ≈ 0.787 (bin 8), c1 ≈ 0.665 (bin 7), c3 ≈ 0.909 (bin 10): one pixel per bin
  const ece = (Math.abs(1 - c0) + Math.abs(0 - c1) + Math.abs(1 - c3)) / 3;
  assert.equal(m.pixels, 3);
  assert.ok(Math.abs(m.pixel_accuracy - 2 / 3) < 1e-12);
  assert.ok(Math.abs(m.ece - ece) < 1e-12, `${m.ece} vs ${ece}`);
  assert.equal(m.miou, 0.5);
  assert.ok(Math.abs(m.mean_confidence - (c0 + c1 + c3) / 3) < 1e-12);
  // without background: pixels 1 and 3 only
  const eceFg = (Math.abs(0 - c1) + Math.abs(1 - c3)) / 2;
  assert.equal(m.foreground.pixels, 2);
  assert.ok(Math.abs(m.foreground.ece - eceFg) < 1e-12, `${m.foreground.ece} vs ${eceFg}`);
  assert.ok(Math.abs(m.foreground.pixel_accuracy - 0.5) < 1e-12);
  // the other metrics are evaluate's on the same rows
  const ref = evaluate(matrix(3, 3, Float64Array.from([2, 0, 0, 0, 1, 2, 0, 0, 3])), Int32Array.from([0, 1, 2]), { input: 'logits', bins: 10 });
  assert.equal(m.adaece, ref.adaece);
  assert.equal(m.classwise_ece, ref.classwise_ece);
  assert.equal(m.nll, ref.nll);
  assert.throws(() => segmentationMetrics(LOGITS, Int32Array.from([255, 255, 255, 255]), 1, 3), /at least one labelled pixel/);
});
