/**
 * ONNX emission of the temperature family (temperature, ts-sb-ece, ts-hb-ece, ts-grid-ece: p = softmax(z / T)) and of
 * ensemble temperature scaling (p = w₀ softmax(z / T) + w₁ softmax(z) + w₂ / C) and class-wise temperature
 * (p = softmax(z_k / T_k)), as in posthoc/temperature/temperature-calibrator.ts, ensemble-temperature.ts and class-temperature.ts.
 */
import type { CalibratorJSON } from '../calibrator.js';
import type { OnnxSnippet, SnippetInput, SnippetOutput } from './snippet.js';

/** softmax(z / T); calibrated logits z / T. */
export function temperatureToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const logits = b.op('Div', [b.logitsOf(input), b.constant('temperature', [], [json.temperature as number])]);
  return { probabilities: b.softmax(logits), logits };
}

/** softmax(z_k / T_k); calibrated logits z_k / T_k (one Div by the [C] temperatures). */
export function classTemperatureToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const logits = b.op('Div', [b.logitsOf(input), b.constant('temperatures', [b.classes], json.temperatures as number[])]);
  return { probabilities: b.softmax(logits), logits };
}

/** w₀ softmax(z / T) + w₁ softmax(z) + w₂ / C (no calibrated logits: a mixture of probabilities). */
export function ensembleTemperatureToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const [w0, w1, w2] = json.weights as [number, number, number];
  const z = b.logitsOf(input);
  const scaled = b.softmax(b.op('Div', [z, b.constant('temperature', [], [json.temperature as number])]));
  const plain = b.softmax(z);
  const mixed = b.op('Add', [b.op('Mul', [scaled, b.constant('w0', [], [w0])]), b.op('Mul', [plain, b.constant('w1', [], [w1])])]);
  return { probabilities: b.op('Add', [mixed, b.constant('uniform', [], [w2 / b.classes])]) };
}
