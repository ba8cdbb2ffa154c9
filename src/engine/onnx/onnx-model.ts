/**
 * ONNX protobuf messages written with `ProtoWriter` (field numbers from onnx/onnx.proto, IR version 8).
 * Tensor payloads go in `raw_data`, little-endian (the host byte order on every platform Node supports).
 */
import type { DType } from '../ir/dtype.js';
import { ONNX_DTYPE, toHostArray } from '../ir/dtype.js';
import type { OnnxAttribute } from '../ir/primitive.js';
import type { Shape } from '../ir/shape.js';
import { ProtoWriter } from './protobuf.js';

/** An ONNX node as the emitter collects it. */
export interface OnnxNode {
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attrs: Readonly<Record<string, OnnxAttribute>>;
  readonly domain: string;
}

/** An initializer. */
export interface OnnxInitializer {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: Shape;
  readonly values: ArrayLike<number>;
}

/** A typed graph input or output. */
export interface OnnxValueInfo {
  readonly name: string;
  readonly dtype: DType;
  /** Dimensions; a string is a symbolic dimension (dim_param, e.g. "batch" for a dynamic batch axis). */
  readonly shape: Shape | readonly (number | string)[];
}

/** Everything a ModelProto holds here. */
export interface OnnxModel {
  readonly graphName: string;
  readonly nodes: readonly OnnxNode[];
  readonly initializers: readonly OnnxInitializer[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  /** Opset per domain ('' = ai.onnx). */
  readonly opsets: Readonly<Record<string, number>>;
  readonly producer: string;
}

/** Serialise a model to ModelProto bytes. */
export function encodeModel(model: OnnxModel): Uint8Array {
  const w = new ProtoWriter();
  w.int(1, 8); // ir_version
  w.string(2, model.producer); // producer_name
  w.message(7, (g) => writeGraph(g, model)); // graph
  for (const [domain, version] of Object.entries(model.opsets)) {
    w.message(8, (o) => {
      if (domain) o.string(1, domain);
      o.int(2, version);
    });
  }
  return w.finish();
}

function writeGraph(g: ProtoWriter, model: OnnxModel): void {
  model.nodes.forEach((n, k) => g.message(1, (w) => writeNode(w, n, k)));
  g.string(2, model.graphName);
  for (const init of model.initializers) g.message(5, (w) => writeTensor(w, init.name, init.dtype, init.shape, init.values));
  for (const v of model.inputs) g.message(11, (w) => writeValueInfo(w, v));
  for (const v of model.outputs) g.message(12, (w) => writeValueInfo(w, v));
}

function writeNode(w: ProtoWriter, n: OnnxNode, k: number): void {
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, `n${k}_${n.opType}`);
  w.string(4, n.opType);
  for (const [name, a] of Object.entries(n.attrs)) w.message(5, (aw) => writeAttribute(aw, name, a));
  if (n.domain) w.string(7, n.domain);
}

function writeAttribute(w: ProtoWriter, name: string, a: OnnxAttribute): void {
  w.string(1, name);
  switch (a.type) {
    case 'float':
      w.float(2, a.value);
      w.int(20, 1);
      break;
    case 'int':
      w.int(3, a.value);
      w.int(20, 2);
      break;
    case 'string':
      w.string(4, a.value);
      w.int(20, 3);
      break;
    case 'tensor':
      w.message(5, (t) => writeTensor(t, '', a.dtype, a.shape, a.value));
      w.int(20, 4);
      break;
    case 'floats':
      w.packedFloats(7, a.value);
      w.int(20, 6);
      break;
    case 'ints':
      w.packedInts(8, a.value);
      w.int(20, 7);
      break;
  }
}

function writeTensor(w: ProtoWriter, name: string, dtype: DType, shape: Shape, values: ArrayLike<number>): void {
  if (shape.length > 0) w.packedInts(1, shape);
  w.int(2, ONNX_DTYPE[dtype]);
  if (name) w.string(8, name);
  const host = values instanceof Float32Array && dtype === 'float32' ? values : toHostArray(dtype, values);
  w.bytes(9, new Uint8Array(host.buffer, host.byteOffset, host.byteLength));
}

function writeValueInfo(w: ProtoWriter, v: OnnxValueInfo): void {
  w.string(1, v.name);
  w.message(2, (t) =>
    t.message(1, (tt) => {
      tt.int(1, ONNX_DTYPE[v.dtype]);
      tt.message(2, (s) => {
        for (const d of v.shape) s.message(1, (dim) => (typeof d === 'string' ? dim.string(2, d) : dim.int(1, d)));
      });
    }),
  );
}
