/**
 * Inference over whole datasets with a compiled `EvalStep` (batch norm on running statistics, no dropout), and the
 * validation scores the trainer logs and selects by.
 */
import type { Dataset } from '../../data/dataset.js';
import { evaluate } from '../../metrics/accumulators/evaluate.js';
import { METRIC_NAMES, type MetricName } from '../../metrics/record/metric-registry.js';
import { matrix } from '../../util/matrix.js';
import { requireNumber } from '../../util/errors.js';
import type { ValidationScores } from '../run/best-epoch.js';
import type { EvalStep } from '../steps/compile-eval-step.js';
import { outputSize } from '../../nn/model.js';

/** Model weights as flat vectors (a `TrainState` or a loaded checkpoint's state). */
export interface Weights {
  readonly params: Float32Array;
  readonly buffers: Float32Array;
}

/** Per-example inputs of a dataset (images or token ids), row-major [N, …]. */
export function datasetInputs(data: Dataset): Float32Array | Int32Array {
  return data.kind === 'image' ? data.images : data.tokens;
}

/**
 * Logits [N, C] (row-major float32; [N, C, ...outputSpatial] for a dense model) of `inputs` ([N, …] row-major, `perExample` values per row) in batches of
 * `batch` (the last batch may be smaller and compiles its own session once).
 */
export function predictLogits(step: EvalStep, weights: Weights, inputs: Float32Array | Int32Array, batch: number): Float32Array {
  requireNumber('batch', batch, { integer: true, min: 1 });
  const perExample = step.layout.exampleSize;
  const n = inputs.length / perExample;
  const c = outputSize(step.model);
  const out = new Float32Array(n * c);
  for (let start = 0; start < n; start += batch) {
    const end = Math.min(n, start + batch);
    const { logits } = step.run(weights, inputs.subarray(start * perExample, end * perExample));
    out.set(logits, start * c);
  }
  return out;
}

/**
 * Accuracy, NLL, ECE and AdaECE (equal-width / equal-mass, `bins` bins, (l,u]) and the refinement NLL (`refinement_nll`)
 * of logits [N, C] against labels, and every other metric of the record (the criteria of `--select`).
 */
export function validationScores(logits: Float32Array, labels: Int32Array, classes: number, bins: number): ValidationScores {
  // The split is asked for explicitly (evaluate's default leaves it out): log.jsonl records val_refinement_nll and
  // --select refinement reads it.
  const m = evaluate(matrix(labels.length, classes, logits), labels, { input: 'logits', bins, refinementCalibrator: 'temperature' });
  const metrics = Object.fromEntries(METRIC_NAMES.map((key) => [key, m[key]])) as Record<MetricName, number>;
  return { accuracy: m.accuracy, nll: m.nll, ece: m.ece, adaece: m.adaece, refinement: m.refinement_nll, metrics };
}

/**
 * Top-label confidences max_k softmax(z)_k of logits [N, C], in float64: 1 / Σ_k exp(z_k − max_j z_j), exact for
 * logits of any magnitude (the shifted exponents are ≤ 0 and the sum is in [1, C]).
 */
export function confidences(logits: Float32Array, classes: number): Float64Array {
  const n = logits.length / classes;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const off = i * classes;
    let m = -Infinity;
    for (let k = 0; k < classes; k++) m = Math.max(m, logits[off + k]!);
    let s = 0;
    for (let k = 0; k < classes; k++) s += Math.exp(logits[off + k]! - m);
    out[i] = 1 / s;
  }
  return out;
}
