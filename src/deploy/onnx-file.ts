/**
 * Reading and writing ONNX ModelProto files of any producer with protobufjs and the ONNX schema
 * (onnx-schema.ts). Decoded messages keep every field, so a model edited here (calibrator appended) and
 * re-encoded keeps its weights, metadata, functions and opsets. int64 fields decode as numbers or `Long`s
 * (`toNumber` converts them).
 *
 * Why a schema-driven decoder rather than extending the engine's hand-written writer (engine/onnx/protobuf.ts)
 * into a parser: third-party models use every corner of the format (external data flags, sparse initializers,
 * functions, nested graphs in If/Loop attributes, unpacked repeated fields); protobufjs is the standard, well-kept
 * protobuf implementation for JavaScript (already a dependency of onnxruntime-web) and decodes all of them.
 */
import protobuf from 'protobufjs';
import { readFile } from 'node:fs/promises';
import { invalidArgument } from '../util/errors.js';
import { ONNX_SCHEMA } from './onnx-schema.js';

const root = protobuf.Root.fromJSON(ONNX_SCHEMA);
const ModelProto = root.lookupType('onnx.ModelProto');

/** An int64 as protobufjs gives it: a number, or a Long-like object. */
export type Int64 = number | { toNumber(): number };

/** The decoded objects we read (a subset of the fields; the others are carried along untouched). */
export interface OnnxDim {
  dimValue?: Int64;
  dimParam?: string;
}
export interface OnnxTensorType {
  elemType?: number;
  shape?: { dim?: OnnxDim[] };
}
export interface OnnxValueInfoProto {
  name?: string;
  type?: { tensorType?: OnnxTensorType };
}
export interface OnnxAttributeProto {
  name?: string;
  type?: number;
  f?: number;
  i?: Int64;
  s?: Uint8Array;
  t?: OnnxTensorProto;
  floats?: number[];
  ints?: Int64[];
}
export interface OnnxNodeProto {
  input?: string[];
  output?: string[];
  name?: string;
  opType?: string;
  domain?: string;
  attribute?: OnnxAttributeProto[];
}
export interface OnnxTensorProto {
  name?: string;
  dims?: Int64[];
  dataType?: number;
  rawData?: Uint8Array;
  floatData?: number[];
  doubleData?: number[];
  int64Data?: Int64[];
  dataLocation?: number;
}
export interface OnnxGraphProto {
  name?: string;
  node?: OnnxNodeProto[];
  initializer?: OnnxTensorProto[];
  input?: OnnxValueInfoProto[];
  output?: OnnxValueInfoProto[];
  valueInfo?: OnnxValueInfoProto[];
}
export interface OnnxModelProto {
  irVersion?: Int64;
  producerName?: string;
  producerVersion?: string;
  opsetImport?: { domain?: string; version?: Int64 }[];
  graph?: OnnxGraphProto;
  metadataProps?: { key?: string; value?: string }[];
}

/** ONNX TensorProto.DataType codes used here. */
export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;
export const ONNX_BOOL = 9;
export const ONNX_DOUBLE = 11;
export const ONNX_FLOAT16 = 10;

/** Number of an int64 field (exact below 2^53). */
export function toNumber(value: Int64 | undefined | null): number {
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

/**
 * Decode ModelProto bytes; `argName` names the argument in errors (not protobuf, truncated, no graph, external
 * data). Throws `InvalidArgumentError`.
 */
export function decodeOnnx(bytes: Uint8Array, argName: string, path = '<bytes>'): OnnxModelProto {
  const expected = 'an ONNX model file (ModelProto)';
  if (bytes.length === 0) invalidArgument(argName, expected, `${JSON.stringify(path)} (empty file)`);
  let model: OnnxModelProto;
  try {
    model = ModelProto.decode(bytes) as unknown as OnnxModelProto;
  } catch (error) {
    const message = (error as Error).message;
    const truncated = /index out of range|premature end|EOF/i.test(message);
    invalidArgument(argName, expected, `${JSON.stringify(path)} (${truncated ? 'truncated or not protobuf' : 'not protobuf'}: ${message})`);
  }
  if (toNumber(model.irVersion) < 1 || !model.graph) {
    invalidArgument(argName, expected, `${JSON.stringify(path)} (no ir_version or graph: not an ONNX model)`);
  }
  if (!model.opsetImport || model.opsetImport.length === 0) {
    invalidArgument(argName, expected, `${JSON.stringify(path)} (no opset_import)`);
  }
  if ((model.graph.output ?? []).length === 0) invalidArgument(argName, expected, `${JSON.stringify(path)} (the graph has no outputs)`);
  for (const t of model.graph.initializer ?? []) {
    if (t.dataLocation === 1) {
      invalidArgument(argName, 'an ONNX model with its weights inside the file', `${JSON.stringify(path)} (initializer ${JSON.stringify(t.name)} is stored in an external data file)`);
    }
  }
  return model;
}

/** Encode a (possibly edited) model back to ModelProto bytes. */
export function encodeOnnx(model: OnnxModelProto): Uint8Array {
  const message = ModelProto.fromObject(model as Record<string, unknown>);
  return ModelProto.encode(message).finish();
}

/** Read and decode an ONNX file given as `argName` (e.g. `--model`). */
export async function readOnnxFile(path: string, argName: string): Promise<{ bytes: Uint8Array; model: OnnxModelProto }> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message;
    invalidArgument(argName, 'a readable ONNX file', `${JSON.stringify(path)} (${reason})`);
  }
  return { bytes, model: decodeOnnx(bytes, argName, path) };
}

/** The ai.onnx opset version the model imports (0 when it imports none). */
export function defaultOpset(model: OnnxModelProto): number {
  const entry = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === 'ai.onnx');
  return entry ? toNumber(entry.version) : 0;
}
