/**
 * Export a trained model's inference graph as a standalone ONNX file: weights (parameters and batch-norm
 * running statistics) are initializers named by their parameter paths, the input is `input`
 * [batch, ...model.input.shape] and the output `logits` [batch, C]; an optional temperature T is baked in as a
 * final Div (p = softmax(z / T), Guo et al. 2017 — METHODS.md "Temperature scaling"). With `batch: 'dynamic'`
 * (default) the batch axis is the symbolic dimension "batch", so any batch size runs.
 *
 * How: the inference forward is traced with parameters as named placeholders; the lowered ONNX model then has
 * those inputs turned into initializers holding the values. For a dynamic batch the graph is traced at a
 * sentinel batch size and every Reshape target holding it gets −1 instead; any other use of the batch size
 * as a constant is refused (so an exported file never silently bakes in the sentinel).
 */
import { lowerToOnnx, placeholder, type Tensor, buildGraph } from '../../engine/index.js';
import { encodeModel, type OnnxInitializer, type OnnxModel } from '../../engine/onnx/onnx-model.js';
import { describe, InvalidArgumentError, requireNumber } from '../../util/errors.js';
import { atomicWriteFile } from '../../util/atomic-write.js';
import type { Model, ModelState } from '../../nn/model.js';
import { ModelLayout } from '../steps/model-layout.js';

/** Options of `exportOnnx`. */
export interface ExportOptions {
  /** A fixed batch size, or 'dynamic' (default). */
  readonly batch?: number | 'dynamic';
  /** Divide the logits by this temperature (T > 0) inside the graph. */
  readonly temperature?: number;
}

/** Traced batch size standing for the dynamic batch (a prime unlikely to occur as any other constant). */
const SENTINEL = 7919;

/** ONNX ModelProto bytes of the model's inference graph with `state`'s weights. */
export function exportOnnx(model: Model, state: ModelState | { params: Float32Array; buffers: Float32Array }, options: ExportOptions = {}): Uint8Array {
  const layout = new ModelLayout(model);
  const trees = state.params instanceof Float32Array ? layout.unpack(state as { params: Float32Array; buffers: Float32Array }) : (state as ModelState);
  const dynamic = (options.batch ?? 'dynamic') === 'dynamic';
  const batch = dynamic ? SENTINEL : requireNumber('options.batch', options.batch, { min: 1, integer: true });
  const temperature = options.temperature === undefined ? null : requireNumber('options.temperature', options.temperature, { min: 0, exclusiveMin: true });

  const values = new Map<string, Float32Array>();
  const leaves = (group: 'params' | 'buffers', entries: readonly { name: string; shape: readonly number[]; size: number }[]): Record<string, Tensor> => {
    const out: Record<string, Tensor> = {};
    for (const e of entries) {
      const v = trees[group][e.name];
      if (!(v instanceof Float32Array) || v.length !== e.size) throw new InvalidArgumentError(`state.${group}["${e.name}"]`, `a Float32Array of ${e.size} values`, describe(v));
      values.set(e.name, v);
      out[e.name] = placeholder(e.name, { dtype: 'float32', shape: e.shape });
    }
    return out;
  };
  const params = leaves('params', layout.params.entries);
  const buffers = leaves('buffers', layout.buffers.entries);
  if (values.has('input')) throw new InvalidArgumentError('model', 'no parameter named "input"', 'one');
  const x = placeholder('input', { dtype: model.input.dtype, shape: [batch, ...model.input.shape] });
  let { logits } = model.forward(params, buffers, x, { training: false });
  if (temperature !== null) logits = logits.div(temperature);
  const graph = buildGraph(`${model.kind}_inference`, [x, ...Object.values(params), ...Object.values(buffers)], [{ name: 'logits', tensor: logits }]);
  const lowered = lowerToOnnx(graph);

  const initializers: OnnxInitializer[] = [...lowered.initializers];
  for (const input of lowered.inputs) {
    const v = values.get(input.name);
    if (v) initializers.push({ name: input.name, dtype: 'float32', shape: [...(input.shape as number[])], values: v });
  }
  let onnx: OnnxModel = { ...lowered, initializers, inputs: lowered.inputs.filter((i) => !values.has(i.name)) };
  if (dynamic) onnx = makeBatchDynamic(onnx);
  return encodeModel(onnx);
}

/** Replace the sentinel batch size by a symbolic dimension (inputs/outputs) and −1 (Reshape targets). */
function makeBatchDynamic(model: OnnxModel): OnnxModel {
  const reshapeTargets = new Set(model.nodes.filter((n) => n.opType === 'Reshape').map((n) => n.inputs[1]!));
  const initializers = model.initializers.map((init) => {
    if (init.shape.includes(SENTINEL))
      throw new InvalidArgumentError('model', 'a graph without batch-sized constants for dynamic export', `constant ${init.name} of shape [${init.shape.join(', ')}] (export with a fixed batch)`);
    if (init.dtype !== 'int64' || init.shape.length !== 1) return init;
    const vals = Array.from(init.values);
    const hits = vals.filter((v) => v === SENTINEL).length;
    if (hits === 0) return init;
    const users = model.nodes.filter((n) => n.inputs.includes(init.name));
    if (hits !== 1 || vals.includes(-1) || !users.every((n) => n.opType === 'Reshape' && n.inputs[1] === init.name && reshapeTargets.has(init.name))) {
      throw new InvalidArgumentError(
        'model',
        'batch size used only as a Reshape dimension for dynamic export',
        `constant ${init.name} = [${vals.join(', ')}] used by ${users.map((u) => u.opType).join(', ')} (export with a fixed batch)`,
      );
    }
    return { ...init, values: vals.map((v) => (v === SENTINEL ? -1 : v)) };
  });
  const symbolic = <T extends { shape: readonly (number | string)[] }>(v: T): T => ({ ...v, shape: v.shape.map((d) => (d === SENTINEL ? 'batch' : d)) });
  return { ...model, initializers, inputs: model.inputs.map(symbolic), outputs: model.outputs.map(symbolic) };
}

/** Write `exportOnnx(...)` atomically to `path` (a .onnx file). */
export async function saveOnnx(path: string, model: Model, state: ModelState | { params: Float32Array; buffers: Float32Array }, options: ExportOptions = {}): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new InvalidArgumentError('path', 'a file path', describe(path));
  await atomicWriteFile(path, exportOnnx(model, state, options));
}
