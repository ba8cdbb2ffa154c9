/**
 * Public API of calibkit, one namespace per layer. Each layer is also importable on its own
 * (`calibkit/metrics`, `calibkit/posthoc`, ...), which keeps ONNX Runtime out of programs that only
 * measure or recalibrate predictions.
 *
 * ```ts
 * import { metrics, posthoc } from 'calibkit';
 * const report = metrics.evaluate({ logits }, labels, { bins: 15 });
 * const ts = posthoc.fitCalibrator('temperature', { logits: valLogits }, valLabels);
 * ```
 */
export { InvalidArgumentError } from './util/errors.js';
export { Random } from './util/random.js';
export type { Matrix, FloatArray } from './util/matrix.js';
export * as metrics from './metrics/index.js';
export * as posthoc from './posthoc/index.js';
export * as io from './io/index.js';
export * as report from './report/index.js';
export * as data from './data/index.js';
export * as augment from './augment/index.js';
export * as engine from './engine/index.js';
