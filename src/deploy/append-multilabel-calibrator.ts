/**
 * `calib export` of a multi-label calibrator (`calib fit --multilabel`): appended to an ONNX model whose [N, L]
 * output is L independent sigmoid scores, so that the model outputs "calibrated_probabilities" (float32 [N, L]),
 * label l's probability from label l's calibrator (posthoc/onnx/multilabel.ts), in float64 inside the graph as
 * `calib apply` computes it.
 *
 * What the output holds is judged by the node that produces it (through Identity nodes): a Sigmoid gives
 * probabilities, anything else logits; a Softmax / LogSoftmax head is refused (its columns are not independent).
 * A calibrator fitted on logits reads a sigmoid model's pre-sigmoid tensor (the Sigmoid's input); a calibrator
 * fitted on probabilities on a model without a final Sigmoid is refused (fit it on the logits instead).
 */
import type { MultilabelCalibrator } from '../posthoc/composite/multilabel-calibrator.js';
import { multilabelToOnnx } from '../posthoc/onnx/multilabel.js';
import { CAST_TO, type SnippetNode } from '../posthoc/onnx/index.js';
import { invalidArgument } from '../util/errors.js';
import { freshPrefix, MIN_OPSET, nodeProto, tensorProto, valueInfo, type AppendOptions } from './append-calibrator.js';
import { defaultOpset, ONNX_DOUBLE, toNumber, type OnnxModelProto } from './onnx-file.js';
import { describeTensor, modelSignature, selectClassifierOutput } from './model-signature.js';

export interface MultilabelAppendResult {
  readonly model: OnnxModelProto;
  /** The model output chosen, what it holds, and the tensor the calibrator reads (the Sigmoid's input for logits). */
  readonly source: string;
  readonly sourceKind: 'logits' | 'probabilities';
  readonly reads: string;
  readonly outputs: readonly string[];
}

/** What produces `outputName` (through Identity nodes): the op type and its first input, or null for a graph input. */
function producerOf(model: OnnxModelProto, outputName: string): { opType: string; input: string } | null {
  const producers = new Map<string, { opType: string; input: string }>();
  for (const node of model.graph!.node ?? []) for (const o of node.output ?? []) producers.set(o, { opType: node.opType ?? '', input: node.input?.[0] ?? '' });
  let name = outputName;
  for (let hops = 0; hops < 100; hops++) {
    const p = producers.get(name);
    if (!p || p.opType !== 'Identity') return p ?? null;
    name = p.input;
  }
  return null;
}

/** Append the multi-label `calibrator` to `model` (a decoded ModelProto, edited in place and returned). */
export function appendMultilabelCalibrator(model: OnnxModelProto, calibrator: MultilabelCalibrator, options: AppendOptions = {}): MultilabelAppendResult {
  const modelArg = options.modelArg ?? '--model';
  const calibratorArg = options.calibratorArg ?? '--calibrator';
  const opset = defaultOpset(model);
  if (opset < MIN_OPSET) invalidArgument(modelArg, `an ONNX model of opset ≥ ${MIN_OPSET}`, `opset ${opset}`);
  const { output, classes } = selectClassifierOutput(modelSignature(model), options.outputName, options.outputNameArg ?? '--output-name', modelArg);
  if (classes !== null && classes !== calibrator.labels) {
    invalidArgument(calibratorArg, `a multi-label calibrator for the model's ${classes} labels (output ${describeTensor(output)})`, `one fitted for ${calibrator.labels} labels`);
  }
  const graph = model.graph!;
  if ((graph.output ?? []).some((o) => o.name === 'calibrated_probabilities')) {
    invalidArgument(modelArg, 'a model without calibrated outputs (export the uncalibrated model)', 'it already has an output "calibrated_probabilities"');
  }
  const producer = producerOf(model, output.name);
  if (producer && (producer.opType === 'Softmax' || producer.opType === 'LogSoftmax')) {
    invalidArgument(
      modelArg,
      'a multi-label model whose [N, L] output is independent sigmoid scores (logits, or a final Sigmoid)',
      `output ${JSON.stringify(output.name)} is produced by a ${producer.opType} (one distribution over classes: use a calibrator fitted without --multilabel)`,
    );
  }
  const sourceKind = producer?.opType === 'Sigmoid' ? 'probabilities' : 'logits';
  let reads = output.name;
  if (calibrator.input === 'logits' && sourceKind === 'probabilities') reads = producer!.input;
  if (calibrator.input === 'probabilities' && sourceKind === 'logits') {
    invalidArgument(
      calibratorArg,
      `a multi-label calibrator fitted on logits (calib fit --multilabel --logits) for the model's output ${JSON.stringify(output.name)}, which has no final Sigmoid`,
      'one fitted on probabilities (--probs)',
    );
  }
  const prefix = freshPrefix(model);
  const nodes: SnippetNode[] = [];
  let source = reads;
  if (output.elemType !== ONNX_DOUBLE) {
    source = `${prefix}source_f64`;
    nodes.push({ opType: 'Cast', inputs: [reads], output: source, attributes: { to: CAST_TO.double } });
  }
  const snippet = multilabelToOnnx(calibrator, source, prefix, calibratorArg);
  nodes.push(...snippet.nodes, { opType: 'Cast', inputs: [snippet.probabilities], output: 'calibrated_probabilities', attributes: { to: CAST_TO.float } });
  graph.node = [...(graph.node ?? []), ...nodes.map(nodeProto)];
  graph.initializer = [...(graph.initializer ?? []), ...snippet.constants.map(tensorProto)];
  if (toNumber(model.irVersion) < 4) {
    // Before IR 4 every initializer must also be declared as a graph input.
    graph.input = [...(graph.input ?? []), ...snippet.constants.map((c) => valueInfo(c.name, c.dtype === 'double' ? ONNX_DOUBLE : 7, c.dims))];
  }
  const fresh = valueInfo('calibrated_probabilities', 1, output.dims ?? ['batch', calibrator.labels]);
  graph.output = options.keepOutputs ? [...(graph.output ?? []), fresh] : [fresh];
  return { model, source: output.name, sourceKind, reads, outputs: graph.output.map((o) => o.name ?? '') };
}
