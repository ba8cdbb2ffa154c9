/**
 * Public API of calibkit, one namespace per layer: every subpath of package.json "exports" (`calibkit/metrics`,
 * `calibkit/posthoc`, …) is also here under its name (test/readme/package-root.test.ts). Importing a layer on its
 * own keeps ONNX Runtime out of programs that only measure or recalibrate predictions (`metrics`, `posthoc`, `io`,
 * `report`); the root loads every layer, the engine included.
 *
 * ```ts
 * import { metrics, posthoc } from 'calibkit';
 * // logits N × C as a row-major matrix, labels [N] (Int32Array); the same for a validation split
 * const logits = { rows: n, cols: classes, data: testLogits };
 * const before = metrics.evaluate(logits, labels, { input: 'logits', bins: 15 });
 * const ts = posthoc.fitCalibrator('temperature', { logits: valLogits }, valLabels);
 * const after = metrics.evaluate(ts.apply({ logits }), labels, { input: 'probabilities', bins: 15 });
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
export * as losses from './losses/index.js';
export * as nn from './nn/index.js';
export * as optim from './optim/index.js';
export * as train from './train/index.js';
