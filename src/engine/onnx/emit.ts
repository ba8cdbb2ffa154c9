import type { DType } from '../ir/dtype.js';
import type { Graph } from '../ir/graph.js';
import type { EmitContext, OnnxAttribute } from '../ir/primitive.js';
import type { Shape } from '../ir/shape.js';
import { shapeSize } from '../ir/shape.js';
import type { Tensor } from '../ir/tensor.js';
import { describe, InvalidArgumentError } from '../../util/errors.js';
import { encodeModel, type OnnxInitializer, type OnnxModel, type OnnxNode } from './onnx-model.js';

/** ai.onnx opset the emitter targets. */
export const ONNX_OPSET = 18;

/** Constants up to this many elements are shared between uses with identical contents. */
const SHARE_LIMIT = 64;

/** Options of `lowerToOnnx`. */
export interface LowerOptions {
  /**
   * Let convolutions use ORT's NCHWc kernels (com.microsoft.nchwc, an ONNX Runtime CPU extension) with this
   * channel block (16 with AVX-512, 8 with AVX2; see runtime/nchwc.ts). Default 0: portable ONNX only.
   */
  readonly nchwcBlock?: number;
}

/**
 * Lower a graph to an ONNX model description (opset 18, plus com.microsoft v1 when a primitive uses it, and
 * com.microsoft.nchwc v1 when `options.nchwcBlock` lets convolutions use it).
 * Graph inputs and outputs keep their names; every primitive emits its own ONNX nodes through `EmitContext`.
 * An output that is an input, a constant or a repeat of another output is routed through Identity; an output
 * whose name is also an input's is renamed `<name>:out` in the ONNX model (see `outputNames`).
 */
export function lowerToOnnx(graph: Graph, options: LowerOptions = {}): OnnxModel & { readonly outputNames: Readonly<Record<string, string>> } {
  const nchwcBlock = options.nchwcBlock ?? 0;
  if (!(Number.isInteger(nchwcBlock) && nchwcBlock >= 0 && nchwcBlock % 4 === 0)) {
    throw new InvalidArgumentError('options.nchwcBlock', "0 (portable ONNX) or ORT's NCHWc channel block, a positive multiple of 4 (8 or 16)", describe(nchwcBlock));
  }
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  const used = new Set<string>();
  const names = new Map<Tensor, string>();
  const shared = new Map<string, string>();
  const domains = new Set<string>();
  let counter = 0;
  let serial = 0;
  const fresh = (hint: string): string => {
    let n: string;
    do n = `${hint}_${counter++}`;
    while (used.has(n));
    used.add(n);
    return n;
  };
  graph.inputs.forEach((t) => {
    if (t.source.kind === 'input') {
      names.set(t, t.source.name);
      used.add(t.source.name);
    }
  });
  // ONNX forbids an output named like an input (a train step maps input "w" to output "w"): such outputs get
  // a suffixed ONNX name; `outputNames` maps graph output names to ONNX names.
  const onnxOutput = new Map<string, string>();
  graph.outputs.forEach((o) => {
    const name = used.has(o.name) ? `${o.name}:out` : o.name;
    onnxOutput.set(o.name, name);
  });
  onnxOutput.forEach((n) => used.add(n));

  const addInitializer = (dtype: DType, shape: Shape, values: ArrayLike<number>, unique: boolean): string => {
    const small = shapeSize(shape) <= SHARE_LIMIT && !unique;
    const key = small ? `${dtype}|${shape.join(',')}|${Array.from(values).join(',')}` : '';
    if (small && shared.has(key)) return shared.get(key)!;
    const name = fresh('c');
    initializers.push({ name, dtype, shape: [...shape], values });
    if (small) shared.set(key, name);
    return name;
  };
  graph.constants.forEach((t) => {
    if (t.source.kind === 'constant') names.set(t, addInitializer(t.dtype, t.shape, t.source.data, false));
  });

  // Name node outputs: a graph output produced by a node takes the output's name (first occurrence).
  const outputOf = new Map<Tensor, string>();
  for (const o of graph.outputs) {
    if (o.tensor.source.kind === 'node' && !outputOf.has(o.tensor)) outputOf.set(o.tensor, onnxOutput.get(o.name)!);
  }

  const ctx: EmitContext = {
    node(opType, inputs, outputs, attrs: Record<string, OnnxAttribute> = {}, domain = '') {
      if (domain) domains.add(domain);
      nodes.push({ opType, inputs: [...inputs], outputs: [...outputs], attrs, domain });
    },
    temp: (hint = 't') => fresh(hint),
    constant: (dtype, shape, values, options) => addInitializer(dtype, shape, values, options?.unique === true),
    int64s: (values) => addInitializer('int64', [values.length], values, false),
    serial: () => serial++,
    nchwcBlock,
  };

  for (const node of graph.nodes) {
    const outs = node.outputs.map((t) => {
      const n = outputOf.get(t) ?? fresh(node.op.name);
      names.set(t, n);
      return n;
    });
    const ins = node.inputs.map((t) => {
      const n = names.get(t);
      if (n === undefined) throw new Error(`internal: ${node.op.name} uses a value with no name (${t.toString()})`);
      return n;
    });
    node.op.emit({ inputs: ins, outputs: outs, inputTypes: node.inputs, outputTypes: node.outputs, attrs: node.attrs }, ctx);
  }

  const claimed = new Set<Tensor>();
  for (const o of graph.outputs) {
    const onnxName = onnxOutput.get(o.name)!;
    const direct = o.tensor.source.kind === 'node' && outputOf.get(o.tensor) === onnxName && !claimed.has(o.tensor);
    if (direct) claimed.add(o.tensor);
    else ctx.node('Identity', [names.get(o.tensor)!], [onnxName]);
  }

  const opsets: Record<string, number> = { '': ONNX_OPSET };
  for (const d of domains) opsets[d] = 1;
  return {
    graphName: graph.name,
    nodes,
    initializers,
    inputs: graph.inputs.map((t) => ({ name: names.get(t)!, dtype: t.dtype, shape: t.shape })),
    outputs: graph.outputs.map((o) => ({ name: onnxOutput.get(o.name)!, dtype: o.tensor.dtype, shape: o.tensor.shape })),
    outputNames: Object.fromEntries(onnxOutput),
    opsets,
    producer: 'calibkit',
  };
}

/** ONNX ModelProto bytes of a graph (load with any ONNX Runtime, e.g. onnxruntime-web, or save as .onnx). */
export function toOnnx(graph: Graph): Uint8Array {
  return encodeModel(lowerToOnnx(graph));
}
