import { decode, parseNpyBytes, type NpyArray, type NpyReadDtype } from './npy.js';
import { quotePath, type InputContext } from './input-file.js';
import { readZipMembers } from './zip-archive.js';
import { describe, invalidArgument } from '../util/errors.js';

/**
 * Files holding several named arrays: NumPy `.npz` (a ZIP of `.npy` members, `np.savez` /
 * `np.savez_compressed`) and `safetensors` (Hugging Face: an 8-byte little-endian header length, a JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}`, then the raw little-endian
 * tensors). Both are read whole into memory. safetensors dtypes F16, BF16, F32, F64, I8, I16, I32, I64, U8, U16,
 * U32, U64, BOOL are accepted (BF16 and F16 widen exactly to float32; integers become int32, range-checked).
 * `pickArray` chooses the member a flag means: `name` when given (`file.npz:name`), else the first of the
 * preferred names present, else the only array.
 */

/** The arrays of an `.npz` archive by name (without the `.npy` suffix). */
export function readNpzArrays(bytes: Uint8Array, ctx: InputContext): Map<string, NpyArray> {
  const out = new Map<string, NpyArray>();
  for (const [member, data] of readZipMembers(bytes, ctx)) {
    const name = member.endsWith('.npy') ? member.slice(0, -4) : member;
    out.set(name, parseNpyBytes(data, { argName: ctx.argName, path: `${ctx.path}:${name}` }));
  }
  return out;
}

const SAFETENSORS_DTYPES: Readonly<Record<string, NpyReadDtype | 'bfloat16'>> = {
  F16: 'float16',
  BF16: 'bfloat16',
  F32: 'float32',
  F64: 'float64',
  I8: 'int8',
  I16: 'int16',
  I32: 'int32',
  I64: 'int64',
  U8: 'uint8',
  U16: 'uint16',
  U32: 'uint32',
  U64: 'uint64',
  BOOL: 'bool',
};
const ITEM: Readonly<Record<string, number>> = { F16: 2, BF16: 2, F32: 4, F64: 8, I8: 1, I16: 2, I32: 4, I64: 8, U8: 1, U16: 2, U32: 4, U64: 8, BOOL: 1 };

/** The tensors of a safetensors file by name. */
export function readSafetensorsArrays(bytes: Uint8Array, ctx: InputContext): Map<string, NpyArray> {
  const fail = (what: string): never => invalidArgument(ctx.argName, 'a safetensors file', `${what} in ${quotePath(ctx.path)}`);
  if (bytes.length < 8) fail(`${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  if (headerLength > bytes.length - 8) fail(`a header length ${headerLength} beyond the file's ${bytes.length} bytes`);
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Record<string, unknown>;
  } catch (error) {
    return fail(`a header that is not JSON (${(error as Error).message})`);
  }
  const base = 8 + headerLength;
  const out = new Map<string, NpyArray>();
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const { dtype: code, shape, data_offsets: offsets } = (info ?? {}) as { dtype?: string; shape?: number[]; data_offsets?: [number, number] };
    const dtype = code === undefined ? undefined : SAFETENSORS_DTYPES[code];
    if (dtype === undefined) fail(`tensor ${JSON.stringify(name)} of unsupported dtype ${describe(code)}`);
    if (!Array.isArray(shape) || !Array.isArray(offsets)) fail(`tensor ${JSON.stringify(name)} without shape or data_offsets`);
    const count = shape!.reduce((a, b) => a * b, 1);
    const [begin, end] = offsets!;
    if (end - begin !== count * ITEM[code!]! || base + end > bytes.length) fail(`tensor ${JSON.stringify(name)} whose offsets do not match its shape`);
    const raw = new Uint8Array(end - begin);
    raw.set(bytes.subarray(base + begin, base + end));
    const tctx = { argName: ctx.argName, path: `${ctx.path}:${name}` };
    if (dtype === 'bfloat16') {
      const data = new Float32Array(count);
      const bits = new Uint32Array(data.buffer);
      for (let i = 0; i < count; i++) bits[i] = (raw[2 * i]! | (raw[2 * i + 1]! << 8)) << 16;
      out.set(name, { dtype: 'float32', shape: shape!, data });
    } else {
      out.set(name, { dtype: dtype!, shape: shape!, data: decode(raw, dtype!, count, 0, tctx) });
    }
  }
  return out;
}

/** The array a flag refers to (see the module comment). */
export function pickArray(arrays: Map<string, NpyArray>, ctx: InputContext, name: string | undefined, preferred: readonly string[]): NpyArray {
  const names = [...arrays.keys()];
  const list = names.map((n) => describe(n)).join(', ') || 'none';
  if (name !== undefined) {
    const a = arrays.get(name);
    if (!a) return invalidArgument(ctx.argName, `an array named ${describe(name)}`, `arrays ${list} in ${quotePath(ctx.path)}`);
    return a;
  }
  for (const p of preferred) {
    const a = arrays.get(p);
    if (a) return a;
  }
  if (arrays.size === 1) return arrays.values().next().value!;
  return invalidArgument(ctx.argName, `one array, or one named ${preferred.map((p) => describe(p)).join(' or ')}, or FILE:NAME`, `arrays ${list} in ${quotePath(ctx.path)}`);
}
