import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import type { Random } from '../util/random.js';
import { oneHot } from './label-smoothing.js';

/**
 * Mixup (Zhang et al. 2018; METHODS.md "Training procedures"), host side.
 *
 * Per batch: λ ~ Beta(α, α) and a permutation π of the batch; x̃_i = λ x_i + (1 − λ) x_π(i) and
 * q̃_i = λ q_i + (1 − λ) q_π(i), trained with soft-label CE. α = 0 means no mixing (λ = 1, π = identity).
 * Feature-only mixup (Thulasidasan et al. 2019, §5) mixes the inputs but keeps the hard label of the nearer
 * sample: y_i if λ ≥ 0.5, else y_π(i). λ and π are returned so that manifold / embedding mixup can mix inside
 * the model graph with the same draw.
 */
export interface MixupDraw {
  /** Mixing weight λ of the batch itself, in [0, 1]. */
  readonly lambda: number;
  /** Partner of each sample: π(i), a permutation of 0..B−1. */
  readonly perm: Int32Array;
}

/**
 * Draw λ and π for a batch of `batchSize`: with α > 0, λ = rng.beta(α, α) and then π = rng.permutation(B)
 * (in that order); with α = 0, λ = 1 and π = identity without consuming random numbers.
 */
export function drawMixup(batchSize: number, alpha: number, rng: Random): MixupDraw {
  const b = requireNumber('batchSize', batchSize, { integer: true, min: 1 });
  const a = requireNumber('alpha', alpha, { min: 0 });
  if (a === 0) return { lambda: 1, perm: Int32Array.from({ length: b }, (_, i) => i) };
  const lambda = rng.beta(a, a);
  return { lambda, perm: rng.permutation(b) };
}

/**
 * Mix the rows of a row-major [B, D] array: out_i = λ row_i + (1 − λ) row_π(i), computed in float64 and
 * stored in `out` (a new array of the same type by default; must not alias `rows`).
 */
export function mixRows<T extends Float32Array | Float64Array>(rows: T, draw: MixupDraw, out?: T): T {
  const b = draw.perm.length;
  if (rows.length % b !== 0) invalidArgument('rows', `a multiple of the batch size ${b} values`, `${rows.length}`);
  const d = rows.length / b;
  const result = out ?? new (rows.constructor as new (n: number) => T)(rows.length);
  if (result.length !== rows.length) invalidArgument('out', `${rows.length} values`, `${result.length}`);
  if (result.buffer === rows.buffer && result.byteOffset < rows.byteOffset + rows.byteLength && rows.byteOffset < result.byteOffset + result.byteLength)
    invalidArgument('out', 'an array that does not overlap rows', 'an overlapping view of the same memory');
  const l = draw.lambda;
  const m = 1 - l;
  for (let i = 0; i < b; i++) {
    const a = i * d;
    const p = draw.perm[i]! * d;
    for (let j = 0; j < d; j++) result[a + j] = l * rows[a + j]! + m * rows[p + j]!;
  }
  return result;
}

/** Result of `mixup`. */
export interface MixupBatch extends MixupDraw {
  /** Mixed inputs, same shape as the input batch. */
  readonly inputs: Float32Array;
  /** Mixed soft targets [B, C]; each row sums to 1 when the input targets do. */
  readonly targets: Float32Array;
}

/** Options of `mixup` and `featureOnlyMixup`. */
export interface MixupOptions {
  /** Beta(α, α) parameter; 0 disables mixing. */
  alpha: number;
  rng: Random;
}

/**
 * Input mixup with soft targets. `inputs`: [B, ...] float32 (any per-sample size); `targets`: either Int32Array
 * labels (then `classes` is required and targets are one-hot) or float32 soft targets [B, C] (e.g. smoothed labels).
 */
export function mixup(inputs: Float32Array, targets: Int32Array | Float32Array, options: MixupOptions & { classes?: number }): MixupBatch {
  const soft = toSoftTargets(targets, inputs, options.classes);
  const draw = drawMixup(soft.rows, options.alpha, options.rng);
  return { ...draw, inputs: mixRows(inputs, draw), targets: mixRows(soft.data, draw) };
}

/** Result of `featureOnlyMixup`. */
export interface FeatureOnlyMixupBatch extends MixupDraw {
  readonly inputs: Float32Array;
  /** Hard labels: y_i if λ ≥ 0.5, else y_π(i). */
  readonly labels: Int32Array;
}

/** Feature-only mixup: mixed inputs, hard label of the nearer sample (Thulasidasan et al. 2019, §5). */
export function featureOnlyMixup(inputs: Float32Array, labels: Int32Array, options: MixupOptions): FeatureOnlyMixupBatch {
  if (!(labels instanceof Int32Array) || labels.length === 0) invalidArgument('labels', 'a non-empty Int32Array', describe(labels));
  checkInputs(inputs, labels.length);
  const draw = drawMixup(labels.length, options.alpha, options.rng);
  const mixedLabels = new Int32Array(labels.length);
  for (let i = 0; i < labels.length; i++) mixedLabels[i] = draw.lambda >= 0.5 ? labels[i]! : labels[draw.perm[i]!]!;
  return { ...draw, inputs: mixRows(inputs, draw), labels: mixedLabels };
}

function checkInputs(inputs: Float32Array, b: number): void {
  if (!(inputs instanceof Float32Array)) invalidArgument('inputs', 'a Float32Array', describe(inputs));
  if (inputs.length % b !== 0 || inputs.length === 0) invalidArgument('inputs', `B = ${b} samples of equal size (a non-zero multiple of ${b} values)`, `${inputs.length} values`);
}

function toSoftTargets(targets: Int32Array | Float32Array, inputs: Float32Array, classes: number | undefined): { rows: number; data: Float32Array } {
  if (targets instanceof Int32Array) {
    if (targets.length === 0) invalidArgument('targets', 'at least one label', 'none');
    checkInputs(inputs, targets.length);
    const c = requireNumber('classes', classes, { integer: true, min: 1 });
    return { rows: targets.length, data: oneHot(targets, c) };
  }
  if (!(targets instanceof Float32Array)) invalidArgument('targets', 'Int32Array labels or Float32Array soft targets [B, C]', describe(targets));
  const c = requireNumber('classes', classes, { integer: true, min: 1 });
  if (targets.length % c !== 0 || targets.length === 0) invalidArgument('targets', `B × ${c} values`, `${targets.length}`);
  const rows = targets.length / c;
  checkInputs(inputs, rows);
  return { rows, data: targets };
}
