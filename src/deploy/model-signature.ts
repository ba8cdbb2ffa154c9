/**
 * What a decoded ONNX classifier takes and gives: its graph inputs (initializers excluded) and outputs with
 * element types and dimensions (a number, a symbolic name, or null when unknown), the choice of the input and
 * of the classifier output ([N, C] float), the image layout of a rank-4 input, and what produces the output
 * (a final Softmax means the model gives probabilities, not logits).
 */
import { invalidArgument } from '../util/errors.js';
import { ONNX_DOUBLE, ONNX_FLOAT, ONNX_FLOAT16, toNumber, type OnnxModelProto, type OnnxValueInfoProto } from './onnx-file.js';

export type Dim = number | string | null;

export interface TensorSignature {
  readonly name: string;
  /** ONNX TensorProto.DataType code (1 = float, 11 = double, 7 = int64, ...). */
  readonly elemType: number;
  /** Dimensions, or null when the model does not declare a shape. */
  readonly dims: readonly Dim[] | null;
}

export interface ModelSignature {
  readonly inputs: readonly TensorSignature[];
  readonly outputs: readonly TensorSignature[];
}

const TYPE_NAMES: Readonly<Record<number, string>> = { 1: 'float', 2: 'uint8', 3: 'int8', 6: 'int32', 7: 'int64', 9: 'bool', 10: 'float16', 11: 'double' };

/** "float [batch, 10]" for messages. */
export function describeTensor(t: TensorSignature): string {
  const dims = t.dims === null ? '(shape not declared)' : `[${t.dims.map((d) => (d === null ? '?' : String(d))).join(', ')}]`;
  return `${JSON.stringify(t.name)} ${TYPE_NAMES[t.elemType] ?? `type ${t.elemType}`} ${dims}`;
}

function signatureOf(v: OnnxValueInfoProto): TensorSignature {
  const tensor = v.type?.tensorType;
  const dims = tensor?.shape?.dim ? tensor.shape.dim.map((d): Dim => (d.dimParam ? d.dimParam : d.dimValue !== undefined && d.dimValue !== null ? toNumber(d.dimValue) : null)) : null;
  return { name: v.name ?? '', elemType: tensor?.elemType ?? 0, dims };
}

/** The graph's real inputs (not initializers) and its outputs. */
export function modelSignature(model: OnnxModelProto): ModelSignature {
  const graph = model.graph!;
  const initialized = new Set((graph.initializer ?? []).map((t) => t.name));
  return {
    inputs: (graph.input ?? []).filter((v) => !initialized.has(v.name)).map(signatureOf),
    outputs: (graph.output ?? []).map(signatureOf),
  };
}

/** The input to feed: the one named `name` (given as `argName`), or the only one. */
export function selectInput(signature: ModelSignature, name: string | undefined, argName = '--input-name', modelArg = '--model'): TensorSignature {
  const list = signature.inputs.map(describeTensor).join(', ');
  if (name !== undefined) {
    const found = signature.inputs.find((i) => i.name === name);
    if (!found) invalidArgument(argName, `one of the model's inputs (${list})`, JSON.stringify(name));
    return found;
  }
  if (signature.inputs.length !== 1) {
    invalidArgument(modelArg, `a model with one input, or ${argName} to choose`, signature.inputs.length === 0 ? 'no inputs' : `${signature.inputs.length} inputs: ${list}`);
  }
  return signature.inputs[0]!;
}

const isFloat = (t: TensorSignature) => t.elemType === ONNX_FLOAT || t.elemType === ONNX_DOUBLE || t.elemType === ONNX_FLOAT16;
const isClassifierOutput = (t: TensorSignature) => isFloat(t) && (t.dims === null || t.dims.length === 2);

/**
 * The classifier output: a float tensor of shape [N, C] — the one named `name`, or the only such output.
 * Returns it with C (null when the model leaves it symbolic or undeclared).
 */
export function selectClassifierOutput(signature: ModelSignature, name: string | undefined, argName = '--output-name', modelArg = '--model'): { output: TensorSignature; classes: number | null } {
  const list = signature.outputs.map(describeTensor).join(', ');
  let output: TensorSignature;
  if (name !== undefined) {
    const found = signature.outputs.find((o) => o.name === name);
    if (!found) invalidArgument(argName, `one of the model's outputs (${list})`, JSON.stringify(name));
    if (!isClassifierOutput(found)) invalidArgument(argName, 'a float output of shape [N, C]', describeTensor(found));
    output = found;
  } else {
    const candidates = signature.outputs.filter(isClassifierOutput);
    if (candidates.length === 0) invalidArgument(modelArg, 'a classifier with a float output of shape [N, C]', `outputs ${list}`);
    if (candidates.length > 1) invalidArgument(modelArg, `one float [N, C] output, or ${argName} to choose`, `outputs ${list}`);
    output = candidates[0]!;
  }
  const c = output.dims?.[1];
  return { output, classes: typeof c === 'number' ? c : null };
}

/** What an output holds, judged by the node that produces it (through Identity nodes). */
export type OutputKind = 'logits' | 'probabilities' | 'log-probabilities';

/** 'probabilities' when a Softmax produces `outputName`, 'log-probabilities' for LogSoftmax, else 'logits'. */
export function outputKind(model: OnnxModelProto, outputName: string): OutputKind {
  const producers = new Map<string, { opType: string; input: string }>();
  for (const node of model.graph!.node ?? []) {
    for (const o of node.output ?? []) producers.set(o, { opType: node.opType ?? '', input: node.input?.[0] ?? '' });
  }
  let name = outputName;
  for (let hops = 0; hops < 100; hops++) {
    const p = producers.get(name);
    if (!p) return 'logits';
    if (p.opType === 'Identity') {
      name = p.input;
      continue;
    }
    if (p.opType === 'Softmax') return 'probabilities';
    if (p.opType === 'LogSoftmax') return 'log-probabilities';
    return 'logits';
  }
  return 'logits';
}

/** One line explaining what a final Softmax means for calibration. */
export function softmaxNote(outputName: string): string {
  return (
    `note: the model's output ${JSON.stringify(outputName)} is produced by a Softmax, so it gives probabilities, not logits; ` +
    'a calibrator must then be fitted and applied on probabilities (calib fit --probs; temperature-type methods use log p, ' +
    'which equals the logits up to a per-row constant, except where float32 probabilities underflow to 0) — or export the model without its final Softmax\n'
  );
}

/** Image layout of a rank-4 input: 'nhwc' when the last dimension is 1 or 3 and the second is not, else 'nchw'. */
export function inferLayout(input: TensorSignature): 'nchw' | 'nhwc' | null {
  if (!input.dims || input.dims.length !== 4) return null;
  const [, d1, , d3] = input.dims;
  const channelLike = (d: Dim) => d === 1 || d === 3;
  if (channelLike(d3!) && !channelLike(d1!)) return 'nhwc';
  return 'nchw';
}
