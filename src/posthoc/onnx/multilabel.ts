/**
 * ONNX emission of a multi-label calibrator (posthoc/composite/multilabel-calibrator.ts) on N × L independent sigmoid
 * outputs: label l's column is made the two-class input the calibrator was fitted on — logits z as [0, z],
 * probabilities p as [1 − p, p], exactly as `MultilabelCalibrator.apply` does — then label l's own calibrator is
 * emitted by its registry emitter (calibratorToOnnx, so every kind ONNX can express, isotonic included), and its
 * class-1 probability is label l's calibrated probability; the L columns are concatenated into [N, L].
 */
import type { MultilabelCalibrator } from '../composite/multilabel-calibrator.js';
import { calibratorToOnnx } from './index.js';
import { OnnxSnippet, type SnippetConstant, type SnippetNode } from './snippet.js';

export interface MultilabelOnnx {
  /** Nodes in topological order and their float64/int64 constants; every name starts with the prefix. */
  readonly nodes: readonly SnippetNode[];
  readonly constants: readonly SnippetConstant[];
  /** The float64 [N, L] calibrated probabilities. */
  readonly probabilities: string;
}

/**
 * The ONNX nodes of `calibrator` applied to the float64 [N, L] tensor `input` holding what the calibrator was fitted
 * on (`calibrator.input`). A label whose calibrator ONNX cannot express is refused naming `argName.calibrators[l]`.
 */
export function multilabelToOnnx(calibrator: MultilabelCalibrator, input: string, prefix = 'calib_', argName = 'calibrator'): MultilabelOnnx {
  const nodes: SnippetNode[] = [];
  const constants: SnippetConstant[] = [];
  const take = (s: OnnxSnippet) => {
    nodes.push(...s.nodes);
    constants.push(...s.constants);
  };
  const columns: string[] = [];
  calibrator.calibrators.forEach((labelCalibrator, l) => {
    const head = new OnnxSnippet(`${prefix}l${l}_in_`, 2);
    const v = head.op('Gather', [input, head.constant('label', [1], [l], 'int64')], { axis: 1 }); // [N, 1]
    const first = calibrator.input === 'logits' ? head.op('Mul', [v, head.constant('zero', [], [0])]) : head.op('Sub', [head.constant('one', [], [1]), v]);
    const twoClass = head.op('Concat', [first, v], { axis: 1 }); // [N, 2]
    take(head);
    const { snippet, output } = calibratorToOnnx(labelCalibrator, { name: twoClass, kind: calibrator.input }, `${prefix}l${l}_c_`, `${argName}.calibrators[${l}]`);
    take(snippet);
    const tail = new OnnxSnippet(`${prefix}l${l}_out_`, 2);
    columns.push(tail.op('Gather', [output.probabilities, tail.constant('class_one', [1], [1], 'int64')], { axis: 1 })); // [N, 1]
    take(tail);
  });
  const join = new OnnxSnippet(`${prefix}ml_`, calibrator.labels);
  const probabilities = columns.length === 1 ? join.op('Identity', [columns[0]!]) : join.op('Concat', columns, { axis: 1 });
  take(join);
  return { nodes, constants, probabilities };
}
