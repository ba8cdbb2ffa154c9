/**
 * `calib export`: append a fitted calibrator to any ONNX classifier, so that the model itself outputs calibrated
 * probabilities ("calibrated_probabilities", float32 [N, C]) and, for calibrators that are a map into logit
 * space, calibrated logits ("calibrated_logits"). The classifier's output is cast to float64, the calibrator's
 * snippet (posthoc/onnx) computes in float64 with the same arithmetic as `calibrator.apply`, and the results are
 * cast back to float32. Everything else in the model (weights, metadata, opsets, other outputs with
 * `keepOutputs`) is kept as decoded.
 */
import type { Calibrator } from '../posthoc/calibrator.js';
import { calibratorToOnnx, CAST_TO, type SnippetConstant, type SnippetNode } from '../posthoc/onnx/index.js';
import { invalidArgument } from '../util/errors.js';
import { defaultOpset, ONNX_DOUBLE, toNumber, type OnnxModelProto, type OnnxNodeProto, type OnnxTensorProto, type OnnxValueInfoProto } from './onnx-file.js';
import { describeTensor, modelSignature, outputKind, selectClassifierOutput, type OutputKind } from './model-signature.js';

export interface AppendOptions {
  /** The classifier output to calibrate (default: the only float [N, C] output). */
  readonly outputName?: string;
  /** Keep the model's original outputs beside the calibrated ones. */
  readonly keepOutputs?: boolean;
  /** Argument names for errors. */
  readonly modelArg?: string;
  readonly calibratorArg?: string;
  readonly outputNameArg?: string;
}

export interface AppendResult {
  readonly model: OnnxModelProto;
  /** The classifier output the calibrator reads, and what it holds. */
  readonly source: string;
  readonly sourceKind: OutputKind;
  /** Names of the graph outputs of the exported model, in order. */
  readonly outputs: readonly string[];
}

/** Lowest ai.onnx opset whose Where/Less/Greater the snippets need. */
export const MIN_OPSET = 9;

export function tensorProto(c: SnippetConstant): OnnxTensorProto {
  const bytes = c.dtype === 'double' ? new Uint8Array(Float64Array.from(c.values).buffer) : new Uint8Array(BigInt64Array.from(c.values.map((v) => BigInt(v))).buffer);
  return { name: c.name, dims: [...c.dims], dataType: c.dtype === 'double' ? ONNX_DOUBLE : 7, rawData: bytes };
}

export function nodeProto(n: SnippetNode): OnnxNodeProto {
  return {
    input: [...n.inputs],
    output: [n.output],
    name: n.output,
    opType: n.opType,
    attribute: Object.entries(n.attributes).map(([name, i]) => ({ name, type: 2, i })),
  };
}

/** A prefix no existing node, value or initializer name starts with. */
export function freshPrefix(model: OnnxModelProto): string {
  const names: string[] = [];
  const g = model.graph!;
  for (const n of g.node ?? []) names.push(...(n.input ?? []), ...(n.output ?? []), n.name ?? '');
  for (const t of g.initializer ?? []) names.push(t.name ?? '');
  for (const v of [...(g.input ?? []), ...(g.output ?? [])]) names.push(v.name ?? '');
  let prefix = 'calibkit_';
  for (let k = 1; names.some((n) => n.startsWith(prefix)); k++) prefix = `calibkit${k}_`;
  return prefix;
}

/** Append `calibrator` to `model` (a decoded ModelProto, edited in place and returned). */
export function appendCalibrator(model: OnnxModelProto, calibrator: Calibrator, options: AppendOptions = {}): AppendResult {
  const modelArg = options.modelArg ?? '--model';
  const calibratorArg = options.calibratorArg ?? '--calibrator';
  const opset = defaultOpset(model);
  if (opset < MIN_OPSET) invalidArgument(modelArg, `an ONNX model of opset ≥ ${MIN_OPSET}`, `opset ${opset}`);
  const signature = modelSignature(model);
  const { output, classes } = selectClassifierOutput(signature, options.outputName, options.outputNameArg ?? '--output-name', modelArg);
  if (classes !== null && classes !== calibrator.classes) {
    invalidArgument(calibratorArg, `a calibrator for the model's ${classes} classes (output ${describeTensor(output)})`, `a ${calibrator.kind} calibrator fitted for ${calibrator.classes} classes`);
  }
  const graph = model.graph!;
  const taken = new Set((graph.output ?? []).map((o) => o.name));
  for (const name of ['calibrated_probabilities', 'calibrated_logits']) {
    if (taken.has(name)) invalidArgument(modelArg, 'a model without calibrated outputs (export the uncalibrated model)', `it already has an output ${JSON.stringify(name)}`);
  }
  const kind = outputKind(model, output.name);
  const prefix = freshPrefix(model);
  const nodes: SnippetNode[] = [];
  let source = output.name;
  if (output.elemType !== ONNX_DOUBLE) {
    source = `${prefix}source_f64`;
    nodes.push({ opType: 'Cast', inputs: [output.name], output: source, attributes: { to: CAST_TO.double } });
  }
  // Log-softmax outputs are logits of the same probabilities (softmax(log p) = p).
  const { snippet, output: calibrated } = calibratorToOnnx(calibrator, { name: source, kind: kind === 'probabilities' ? 'probabilities' : 'logits' }, prefix, calibratorArg);
  nodes.push(...snippet.nodes);
  const outputs: { name: string; from: string }[] = [{ name: 'calibrated_probabilities', from: calibrated.probabilities }];
  if (calibrated.logits) outputs.push({ name: 'calibrated_logits', from: calibrated.logits });
  for (const o of outputs) nodes.push({ opType: 'Cast', inputs: [o.from], output: o.name, attributes: { to: CAST_TO.float } });

  graph.node = [...(graph.node ?? []), ...nodes.map(nodeProto)];
  const initializers = snippet.constants.map(tensorProto);
  graph.initializer = [...(graph.initializer ?? []), ...initializers];
  if (toNumber(model.irVersion) < 4) {
    // Before IR 4 every initializer must also be declared as a graph input.
    graph.input = [...(graph.input ?? []), ...snippet.constants.map((c) => valueInfo(c.name, c.dtype === 'double' ? ONNX_DOUBLE : 7, c.dims))];
  }
  const dims = output.dims ?? ['batch', calibrator.classes];
  const fresh = outputs.map((o) => valueInfo(o.name, 1, dims));
  graph.output = options.keepOutputs ? [...(graph.output ?? []), ...fresh] : fresh;
  return { model, source: output.name, sourceKind: kind, outputs: graph.output.map((o) => o.name ?? '') };
}

export function valueInfo(name: string, elemType: number, dims: readonly (number | string | null)[]): OnnxValueInfoProto {
  return {
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : typeof d === 'string' ? { dimParam: d } : {})) } } },
  };
}
