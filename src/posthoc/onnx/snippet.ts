/**
 * A calibrator as ONNX: the nodes and float64 initializers that map a model's output tensor ([N, C] logits or
 * probabilities) to calibrated probabilities (and, where the calibrator has them, calibrated logits), in the
 * same arithmetic as the calibrator's `apply` (float64 throughout; the caller casts the model's float32 output to
 * double first and the results back to float32).
 *
 * Plain data, no ONNX Runtime and no engine: `deploy/append-calibrator.ts` turns a snippet into ModelProto nodes.
 * Only operators whose signature is the same from opset 9 to opset 23 are used (no ReduceSum/Unsqueeze/Clip,
 * whose axes/min/max moved from attributes to inputs): row sums are MatMuls with a ones vector, clipping is
 * Max/Min, so the snippet fits a model of any opset ≥ 13 (Softmax/LogSoftmax on [N, C] with axis 1 mean the same
 * before and after opset 13).
 */
import { invalidArgument } from '../../util/errors.js';
import type { CalibratorJSON } from '../calibrator.js';
import { LOG_CLIP } from '../predictions.js';

/** Element types of snippet constants. */
export type SnippetDtype = 'double' | 'int64';

export interface SnippetConstant {
  readonly name: string;
  readonly dtype: SnippetDtype;
  readonly dims: readonly number[];
  readonly values: readonly number[];
}

export interface SnippetNode {
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly output: string;
  /** Integer attributes (e.g. `axis`, `to`). */
  readonly attributes: Readonly<Record<string, number>>;
}

/** What a calibrator's ONNX emission starts from: a float64 [N, C] tensor and what it holds. */
export interface SnippetInput {
  readonly name: string;
  readonly kind: 'logits' | 'probabilities';
}

/** What it produces: float64 [N, C] tensor names. */
export interface SnippetOutput {
  readonly probabilities: string;
  /** Calibrated logits (softmax of them = `probabilities`), for calibrators that are a map into logit space. */
  readonly logits?: string;
}

/** ONNX TensorProto.DataType of a Cast target. */
export const CAST_TO = { double: 11, int64: 7, float: 1 } as const;

/** Collects the nodes and constants of one calibrator; every name it creates starts with `prefix`. */
export class OnnxSnippet {
  readonly nodes: SnippetNode[] = [];
  readonly constants: SnippetConstant[] = [];
  readonly classes: number;
  readonly #prefix: string;
  #counter = 0;

  constructor(prefix: string, classes: number) {
    this.#prefix = prefix;
    this.classes = classes;
  }

  #name(hint: string): string {
    return `${this.#prefix}${hint}_${this.#counter++}`;
  }

  /** A constant tensor (float64 by default); returns its name. */
  constant(hint: string, dims: readonly number[], values: ArrayLike<number>, dtype: SnippetDtype = 'double'): string {
    const size = dims.reduce((a, b) => a * b, 1);
    if (values.length !== size) invalidArgument(`constant ${hint}`, `${size} values for dims [${dims.join(', ')}]`, String(values.length));
    const name = this.#name(hint);
    this.constants.push({ name, dtype, dims: [...dims], values: Array.from(values) });
    return name;
  }

  /** One node with one output; returns the output's name. */
  op(opType: string, inputs: readonly string[], attributes: Record<string, number> = {}): string {
    const output = this.#name(opType.toLowerCase());
    this.nodes.push({ opType, inputs: [...inputs], output, attributes });
    return output;
  }

  /** Σ_k x_k per row as [N, 1] (MatMul with a ones column). */
  rowSum(x: string): string {
    return this.op('MatMul', [x, this.constant('ones', [this.classes, 1], new Array(this.classes).fill(1))]);
  }

  /** Softmax over classes (axis 1 of [N, C]). */
  softmax(x: string): string {
    return this.op('Softmax', [x], { axis: 1 });
  }

  /** log max(p, LOG_CLIP): the toolkit's logits of probabilities (posthoc/predictions.ts). */
  clippedLog(p: string): string {
    return this.op('Log', [this.op('Max', [p, this.constant('log_clip', [], [LOG_CLIP])])]);
  }

  /** The calibrator's logits of an input: logits as given, log max(p, LOG_CLIP) of probabilities (`logitsOf`). */
  logitsOf(input: SnippetInput): string {
    return input.kind === 'logits' ? input.name : this.clippedLog(input.name);
  }

  /** Probabilities of an input: softmax of logits, probabilities as given (`probabilitiesOf`). */
  probabilitiesOf(input: SnippetInput): string {
    return input.kind === 'logits' ? this.softmax(input.name) : input.name;
  }

  /** Log-probabilities: log-softmax of logits, log max(p, LOG_CLIP) of probabilities (`logProbabilitiesOf`). */
  logProbabilitiesOf(input: SnippetInput): string {
    return input.kind === 'logits' ? this.op('LogSoftmax', [input.name], { axis: 1 }) : this.clippedLog(input.name);
  }

  /** Rows divided by their sums; a row summing to 0 becomes 1/C (`normalizeRowsInPlace`). */
  normalizeRows(v: string): string {
    const sum = this.rowSum(v);
    const positive = this.op('Greater', [sum, this.constant('zero', [], [0])]);
    const safe = this.op('Where', [positive, sum, this.constant('one', [], [1])]);
    return this.op('Where', [positive, this.op('Div', [v, safe]), this.constant('uniform', [], [1 / this.classes])]);
  }
}

/** Emits a calibrator's ONNX from its JSON (the public, validated form of its parameters). */
export type CalibratorToOnnx = (json: CalibratorJSON, snippet: OnnxSnippet, input: SnippetInput) => SnippetOutput;
