/**
 * A fitted calibrator appended to a dense ONNX model (a segmentation network with logits [N, C, H, W], or any
 * [N, C, d1, …, dk] output), applied per position: the logits are moved to rows [N·d1·…·dk, C] (Transpose to
 * [N, d1, …, dk, C], Reshape), calibrated by appendCalibrator's snippet as a classifier's rows would be, and moved
 * back to [N, C, d1, …, dk] (Reshape to the transposed shape, inverse Transpose). So "calibrated_probabilities" at
 * pixel (n, h, w) is `calibrator.apply` of that pixel's C logits — what `calib train --calibrate` fits on the
 * labelled validation pixels of a segmentation run.
 */
import type { Calibrator } from '../posthoc/calibrator.js';
import { invalidArgument } from '../util/errors.js';
import { appendCalibrator, type AppendResult } from './append-calibrator.js';
import { describeTensor, modelSignature, outputKind } from './model-signature.js';
import type { OnnxModelProto, OnnxNodeProto } from './onnx-file.js';

/** Append `calibrator` to the one dense float output of `model` (edited in place and returned), per position. */
export function appendDenseCalibrator(model: OnnxModelProto, calibrator: Calibrator, options: { readonly keepOutputs?: boolean; readonly modelArg?: string } = {}): AppendResult {
  const modelArg = options.modelArg ?? '--model';
  const signature = modelSignature(model);
  const dense = signature.outputs.filter((o) => (o.elemType === 1 || o.elemType === 11) && o.dims !== null && o.dims.length >= 3);
  if (dense.length !== 1) invalidArgument(modelArg, 'a model with one dense float output [N, C, H, W]', `outputs ${signature.outputs.map(describeTensor).join(', ')}`);
  const output = dense[0]!;
  const dims = output.dims!;
  const rank = dims.length;
  const classes = dims[1];
  if (typeof classes !== 'number' || classes !== calibrator.classes) {
    invalidArgument(modelArg, `a dense output with the calibrator's ${calibrator.classes} classes on axis 1`, describeTensor(output));
  }
  if (outputKind(model, output.name) !== 'logits') invalidArgument(modelArg, 'a dense output of logits', `${describeTensor(output)} (${outputKind(model, output.name)})`);
  const graph = model.graph!;
  const p = `${output.name}_calibkit_dense_`;
  const toLast = [0, ...Array.from({ length: rank - 2 }, (_, i) => i + 2), 1];
  const fromLast = [0, rank - 1, ...Array.from({ length: rank - 2 }, (_, i) => i + 1)];
  const perm = (values: number[]) => [{ name: 'perm', type: 7, ints: values }];
  const nodes: OnnxNodeProto[] = [
    { input: [output.name], output: [`${p}last`], name: `${p}last`, opType: 'Transpose', attribute: perm(toLast) },
    { input: [`${p}last`], output: [`${p}shape`], name: `${p}shape`, opType: 'Shape', attribute: [] },
    { input: [`${p}last`, `${p}rows_shape`], output: [`${p}rows`], name: `${p}rows`, opType: 'Reshape', attribute: [] },
  ];
  graph.node = [...(graph.node ?? []), ...nodes];
  graph.initializer = [...(graph.initializer ?? []), { name: `${p}rows_shape`, dims: [2], dataType: 7, rawData: new Uint8Array(BigInt64Array.from([-1n, BigInt(classes)]).buffer) }];
  const originals = graph.output ?? [];
  graph.output = [...originals, { name: `${p}rows`, type: { tensorType: { elemType: output.elemType, shape: { dim: [{ dimParam: 'rows' }, { dimValue: classes }] } } } }];
  const rows = appendCalibrator(model, calibrator, { outputName: `${p}rows`, keepOutputs: true, modelArg, outputNameArg: modelArg });
  // Move each calibrated [rows, C] output back to the dense layout under its public name.
  const added = rows.outputs.filter((name) => name.startsWith('calibrated_'));
  for (const name of added) {
    const producer = graph.node!.find((n) => n.output?.[0] === name)!;
    producer.output = [`${p}${name}_rows`];
    producer.name = `${p}${name}_rows`;
    graph.node!.push(
      { input: [`${p}${name}_rows`, `${p}shape`], output: [`${p}${name}_last`], name: `${p}${name}_last`, opType: 'Reshape', attribute: [] },
      { input: [`${p}${name}_last`], output: [name], name, opType: 'Transpose', attribute: perm(fromLast) },
    );
  }
  const denseDims = { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : typeof d === 'string' ? { dimParam: d } : {})) };
  const fresh = added.map((name) => ({ name, type: { tensorType: { elemType: 1, shape: denseDims } } }));
  graph.output = options.keepOutputs ? [...originals, ...fresh] : fresh;
  return { ...rows, model, source: output.name, outputs: graph.output.map((o) => o.name ?? '') };
}
