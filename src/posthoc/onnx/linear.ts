/**
 * ONNX emission of vector scaling (softmax(w ⊙ z + b)), matrix scaling (softmax(W z + b)) and Dirichlet
 * calibration (softmax(W ln p + b)), as in posthoc/scaling/linear-scaling.ts. W z is a MatMul with Wᵀ.
 */
import type { CalibratorJSON } from '../calibrator.js';
import type { OnnxSnippet, SnippetInput, SnippetOutput } from './snippet.js';

/** softmax(w ⊙ z + b); calibrated logits w ⊙ z + b. */
export function vectorToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const C = b.classes;
  const scaled = b.op('Mul', [b.logitsOf(input), b.constant('weights', [C], json.weights as number[])]);
  const logits = b.op('Add', [scaled, b.constant('bias', [C], json.bias as number[])]);
  return { probabilities: b.softmax(logits), logits };
}

/** x Wᵀ + b for the features x of the method (logits or log-probabilities). */
function fullLinear(json: CalibratorJSON, b: OnnxSnippet, x: string): SnippetOutput {
  const C = b.classes;
  const rows = json.weights as number[][];
  const transposed = new Array<number>(C * C);
  for (let k = 0; k < C; k++) for (let j = 0; j < C; j++) transposed[j * C + k] = rows[k]![j]!;
  const logits = b.op('Add', [b.op('MatMul', [x, b.constant('weights_t', [C, C], transposed)]), b.constant('bias', [C], json.bias as number[])]);
  return { probabilities: b.softmax(logits), logits };
}

/** softmax(W z + b). */
export function matrixToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  return fullLinear(json, b, b.logitsOf(input));
}

/** softmax(W ln p + b). */
export function dirichletToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  return fullLinear(json, b, b.logProbabilitiesOf(input));
}
