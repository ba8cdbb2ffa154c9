/**
 * ONNX emission of ts-mix ((1 − ε) softmax(z / T) + ε / C) and of structured vector / matrix scaling
 * (softmax(W log ts-mix(z) + b)), as in posthoc/temperature/ts-mix.ts and structured-scaling.ts.
 */
import type { CalibratorJSON } from '../calibrator.js';
import type { OnnxSnippet, SnippetInput, SnippetOutput } from './snippet.js';

/** (1 − ε) softmax(z / T) + ε / C. */
function mixedTemperature(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): string {
  const epsilon = json.uniformWeight as number;
  const scaled = b.softmax(b.op('Div', [b.logitsOf(input), b.constant('temperature', [], [json.temperature as number])]));
  return b.op('Add', [b.op('Mul', [scaled, b.constant('keep', [], [1 - epsilon])]), b.constant('uniform', [], [epsilon / b.classes])]);
}

/** ts-mix; calibrated logits log q. */
export function tsMixToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const probabilities = mixedTemperature(json, b, input);
  return { probabilities, logits: b.op('Log', [probabilities]) };
}

/** softmax(w ⊙ x + b), x = log ts-mix(z). */
export function svsToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const C = b.classes;
  const x = b.op('Log', [mixedTemperature(json, b, input)]);
  const logits = b.op('Add', [b.op('Mul', [x, b.constant('weights', [C], json.weights as number[])]), b.constant('bias', [C], json.bias as number[])]);
  return { probabilities: b.softmax(logits), logits };
}

/** softmax(W x + b) = softmax(x Wᵀ + b), x = log ts-mix(z). */
export function smsToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const C = b.classes;
  const rows = json.weights as number[][];
  const transposed = new Array<number>(C * C);
  for (let k = 0; k < C; k++) for (let j = 0; j < C; j++) transposed[j * C + k] = rows[k]![j]!;
  const x = b.op('Log', [mixedTemperature(json, b, input)]);
  const logits = b.op('Add', [b.op('MatMul', [x, b.constant('weights_t', [C, C], transposed)]), b.constant('bias', [C], json.bias as number[])]);
  return { probabilities: b.softmax(logits), logits };
}
