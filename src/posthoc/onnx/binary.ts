/**
 * ONNX emission of the binary (C = 2) calibrators, as in posthoc/scaling/platt.ts, beta.ts and binary-score.ts:
 * Platt q₁ = σ(a f + b) with f = z₁ − z₀ (from probabilities ln max(p₁, ε) − ln max(p₀, ε), ε = 2.2e−308);
 * beta q₁ = σ(a ln p − b ln(1 − p) + c) with ln p, ln(1 − p) clipped to [ln ε, ln(1 − ε)], ε = 2^−52 (from logits
 * the log-sigmoids −softplus(∓f); from probabilities p = min(max(p₁, ε), 1 − ε)). Calibrated logits [0, s],
 * probabilities softmax([0, s]) = [1 − σ(s), σ(s)]. Quadratic scaling q₁ = σ(a + b x + c x²) with x = f clipped to
 * ±(−ln ε) (quadratic-scaling.ts).
 */
import { LOG_CLIP } from '../predictions.js';
import type { CalibratorJSON } from '../calibrator.js';
import type { OnnxSnippet, SnippetInput, SnippetOutput } from './snippet.js';

const EPS = 2.220446049250313e-16;

/** Column k of [N, 2] as [N, 1]. */
function column(b: OnnxSnippet, x: string, k: number): string {
  return b.op('Gather', [x, b.constant(`col${k}`, [1], [k], 'int64')], { axis: 1 });
}

/** [0, s] and its softmax, from scores s [N, 1]. */
function binaryOutput(b: OnnxSnippet, s: string): SnippetOutput {
  const logits = b.op('Concat', [b.op('Mul', [s, b.constant('zero', [], [0])]), s], { axis: 1 });
  return { probabilities: b.softmax(logits), logits };
}

/** f = log-odds of class 1 as the toolkit defines it (`binaryLogit`). */
function classOneLogit(b: OnnxSnippet, input: SnippetInput): string {
  if (input.kind === 'logits') return b.op('Sub', [column(b, input.name, 1), column(b, input.name, 0)]);
  const clip = b.constant('log_clip', [], [LOG_CLIP]);
  const logOf = (k: number) => b.op('Log', [b.op('Max', [column(b, input.name, k), clip])]);
  return b.op('Sub', [logOf(1), logOf(0)]);
}

/**
 * softplus(x) = max(x, 0) + ln(1 + e^−|x|), stable for any x (ONNX Runtime's Softplus kernel is float32 only).
 * ln(1 + u) is computed as Log(1 + u): for the clamped log-sigmoids of beta calibration this differs from log1p
 * by less than 1e−16 absolute.
 */
function softplus(b: OnnxSnippet, x: string): string {
  const zero = b.constant('zero', [], [0]);
  const tail = b.op('Log', [b.op('Add', [b.constant('one', [], [1]), b.op('Exp', [b.op('Neg', [b.op('Abs', [x])])])])]);
  return b.op('Add', [b.op('Max', [x, zero]), tail]);
}

/** σ(a f + b). */
export function plattToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const f = classOneLogit(b, input);
  const s = b.op('Add', [b.op('Mul', [f, b.constant('a', [], [json.a as number])]), b.constant('b', [], [json.b as number])]);
  return binaryOutput(b, s);
}

/** σ(a ln p − b ln(1 − p) + c). */
export function betaToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const lo = b.constant('log_eps', [], [Math.log(EPS)]);
  const hi = b.constant('log_one_minus_eps', [], [Math.log(1 - EPS)]);
  const clamp = (x: string) => b.op('Min', [b.op('Max', [x, lo]), hi]);
  let logP: string;
  let log1mP: string;
  if (input.kind === 'logits') {
    const f = b.op('Sub', [column(b, input.name, 1), column(b, input.name, 0)]);
    logP = clamp(b.op('Neg', [softplus(b, b.op('Neg', [f]))]));
    log1mP = clamp(b.op('Neg', [softplus(b, f)]));
  } else {
    const p = b.op('Min', [b.op('Max', [column(b, input.name, 1), b.constant('eps', [], [EPS])]), b.constant('one_minus_eps', [], [1 - EPS])]);
    logP = b.op('Log', [p]);
    log1mP = b.op('Log', [b.op('Sub', [b.constant('one', [], [1]), p])]);
  }
  const s = b.op('Add', [
    b.op('Sub', [b.op('Mul', [logP, b.constant('a', [], [json.a as number])]), b.op('Mul', [log1mP, b.constant('b', [], [json.b as number])])]),
    b.constant('c', [], [json.c as number]),
  ]);
  return binaryOutput(b, s);
}

/** σ(a + b x + c x²), x = Platt's f clipped to ±QUADRATIC_LOGIT_LIMIT, evaluated as a + (b + c x) x as in `apply`. */
export function quadraticScalingToOnnx(json: CalibratorJSON, b: OnnxSnippet, input: SnippetInput): SnippetOutput {
  const limit = -Math.log(LOG_CLIP);
  const x = b.op('Min', [b.op('Max', [classOneLogit(b, input), b.constant('neg_limit', [], [-limit])]), b.constant('limit', [], [limit])]);
  const slope = b.op('Add', [b.constant('b', [], [json.b as number]), b.op('Mul', [x, b.constant('c', [], [json.c as number])])]);
  const s = b.op('Add', [b.constant('a', [], [json.a as number]), b.op('Mul', [slope, x])]);
  return binaryOutput(b, s);
}
