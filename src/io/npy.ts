import type { FileHandle } from 'node:fs/promises';
import { openAtomic, type AtomicFile } from '../util/atomic-write.js';
import { describe, invalidArgument } from '../util/errors.js';
import type { Matrix } from '../util/matrix.js';
import { openInput, quotePath, type InputContext } from './input-file.js';

/**
 * NumPy `.npy` files (format versions 1.0, 2.0 and 3.0; C order; little-endian), read whole or streamed in row
 * chunks, and written atomically.
 *
 * Layout (numpy/lib/format.py, NEP 1): the magic `\x93NUMPY`, major and minor version bytes, the header length
 * (uint16 LE in 1.0, uint32 LE in 2.0/3.0), then a Python dict literal
 * `{'descr': '<f4', 'fortran_order': False, 'shape': (N, C), }` padded with spaces and ending in `\n` so that the
 * data starts at a multiple of 64 bytes; 3.0 only changes the header encoding to UTF-8. The data follows as
 * `prod(shape)` elements of the dtype in C (row-major) order.
 *
 * Supported dtypes: float32 `<f4`, float64 `<f8`, int32 `<i4`, int64 `<i8`, uint8 `|u1`, bool `|b1`; for
 * reading also float16 `<f2` (mixed-precision logits; widened exactly to float32) and the integer label types
 * int8 `|i1`, int16 `<i2`, uint16 `<u2`, uint32 `<u4`, uint64 `<u8` (values must fit in int32).
 * Everything else is refused with an `InvalidArgumentError` naming the argument the file came from: big-endian
 * data, Fortran order (unless the layout is the same as C order), other or structured dtypes, object (pickled)
 * arrays, a bad magic string, a malformed header, a file shorter or longer than its header claims, more than
 * 2^31 − 1 elements.
 */

/** Dtypes that are read and written. */
export type NpyDtype = 'float32' | 'float64' | 'int32' | 'int64' | 'uint8' | 'bool';
/** Dtypes that are only read (converted on reading: float16 → float32, the integer types → int32). */
export type NpyReadOnlyDtype = 'float16' | 'int8' | 'int16' | 'uint16' | 'uint32' | 'uint64';
export type NpyReadDtype = NpyDtype | NpyReadOnlyDtype;

/** Element arrays as they are returned: int64 is narrowed to Int32Array (range-checked), bool to Uint8Array. */
export type NpyData = Float32Array | Float64Array | Int32Array | Uint8Array;

export interface NpyHeader {
  /** Format version [major, minor]. */
  readonly version: readonly [number, number];
  readonly dtype: NpyReadDtype;
  /** Array shape (C order). */
  readonly shape: readonly number[];
  /** Number of elements, the product of `shape`. */
  readonly count: number;
  /** Byte offset of the first element. */
  readonly dataOffset: number;
}

export interface NpyArray {
  readonly dtype: NpyReadDtype;
  readonly shape: readonly number[];
  readonly data: NpyData;
}

/** Most elements an array may have (typed arrays and the metrics index with 32-bit integers). */
export const NPY_MAX_ELEMENTS = 2 ** 31 - 1;
/** Longest header accepted (numpy's own `np.load` default limit is 10 000 bytes). */
const MAX_HEADER_BYTES = 1 << 20;
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

const DESCR: Readonly<Record<NpyDtype, string>> = {
  float32: '<f4',
  float64: '<f8',
  int32: '<i4',
  int64: '<i8',
  uint8: '|u1',
  bool: '|b1',
};
const ITEM_SIZE: Readonly<Record<NpyReadDtype, number>> = {
  float32: 4,
  float64: 8,
  int32: 4,
  int64: 8,
  uint8: 1,
  bool: 1,
  float16: 2,
  int8: 1,
  int16: 2,
  uint16: 2,
  uint32: 4,
  uint64: 8,
};
const SUPPORTED = "one of float32 '<f4', float64 '<f8', int32 '<i4', int64 '<i8', uint8 '|u1', bool '|b1'";
const SUPPORTED_READ = "one of float16 '<f2', float32 '<f4', float64 '<f8', int8 '|i1', int16 '<i2', int32 '<i4', int64 '<i8', uint8 '|u1', uint16 '<u2', uint32 '<u4', uint64 '<u8', bool '|b1'";

function fail(ctx: InputContext, expected: string, actual: string): never {
  return invalidArgument(ctx.argName, expected, `${actual} in ${quotePath(ctx.path)}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Header

type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/** Parse the Python literal subset numpy writes in headers: dicts, tuples, lists, strings, ints, True/False/None. */
function parsePyLiteral(text: string): PyValue {
  let i = 0;
  const skip = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const bad = (what: string): never => {
    throw new SyntaxError(`${what} at character ${i}`);
  };
  const value = (): PyValue => {
    skip();
    const ch = text[i];
    if (ch === undefined) return bad('unexpected end');
    if (ch === '{') {
      i++;
      const out: { [key: string]: PyValue } = {};
      for (;;) {
        skip();
        if (text[i] === '}') {
          i++;
          return out;
        }
        const key = value();
        if (typeof key !== 'string') bad('a dict key that is not a string');
        skip();
        if (text[i] !== ':') bad("expected ':'");
        i++;
        out[key as string] = value();
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') bad("expected ',' or '}'");
      }
    }
    if (ch === '(' || ch === '[') {
      const close = ch === '(' ? ')' : ']';
      i++;
      const out: PyValue[] = [];
      for (;;) {
        skip();
        if (text[i] === close) {
          i++;
          return out;
        }
        out.push(value());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== close) bad(`expected ',' or '${close}'`);
      }
    }
    if (ch === "'" || ch === '"') {
      i++;
      let s = '';
      while (i < text.length && text[i] !== ch) {
        if (text[i] === '\\') i++;
        s += text[i] ?? '';
        i++;
      }
      if (text[i] !== ch) bad('unterminated string');
      i++;
      return s;
    }
    const word = /^(?:True|False|None|-?\d+L?)/.exec(text.slice(i, i + 40));
    if (!word) return bad(`unexpected ${JSON.stringify(ch)}`);
    i += word[0].length;
    if (word[0] === 'True') return true;
    if (word[0] === 'False') return false;
    if (word[0] === 'None') return null;
    return Number(word[0].replace('L', ''));
  };
  const result = value();
  skip();
  if (i !== text.length) bad('trailing characters');
  return result;
}

function dtypeFromDescr(descr: PyValue, ctx: InputContext): NpyReadDtype {
  if (typeof descr !== 'string') fail(ctx, `a plain dtype (${SUPPORTED_READ})`, 'a structured dtype');
  const d = descr as string;
  const m = /^([<>|=])?([a-zA-Z])(\d*)$/.exec(d);
  if (m) {
    const order = m[1] ?? '|';
    const code = `${m[2]}${m[3]}`;
    if (m[2] === 'O') fail(ctx, `numeric data (${SUPPORTED_READ})`, `an object array (dtype '${d}')`);
    const byCode: Record<string, NpyReadDtype> = {
      f2: 'float16',
      f4: 'float32',
      f8: 'float64',
      i1: 'int8',
      i2: 'int16',
      i4: 'int32',
      i8: 'int64',
      u1: 'uint8',
      u2: 'uint16',
      u4: 'uint32',
      u8: 'uint64',
      b1: 'bool',
    };
    const dtype = byCode[code];
    if (dtype !== undefined) {
      if (order === '>' && ITEM_SIZE[dtype] > 1) {
        fail(ctx, `little-endian data (${SUPPORTED_READ})`, `big-endian dtype '${d}' (convert with a.astype(a.dtype.newbyteorder('<')))`);
      }
      return dtype;
    }
  }
  return fail(ctx, `a supported dtype (${SUPPORTED_READ})`, `dtype '${d}'`);
}

/**
 * Parse and check the header at the start of `head` (at least the first 10 bytes; the whole header when its length
 * is known) for a file of `fileSize` bytes. Returns `null` when `head` is too short to hold the whole header; the
 * caller then reads more.
 */
function parseHeader(head: Uint8Array, fileSize: number, ctx: InputContext): NpyHeader | { needBytes: number } {
  if (head.length < 10 || MAGIC.some((b, k) => head[k] !== b)) {
    const shown = Array.from(head.subarray(0, 6), (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('');
    fail(ctx, "a .npy file starting with the magic string '\\x93NUMPY'", `'${shown}' (${fileSize} bytes)`);
  }
  const major = head[6]!;
  const minor = head[7]!;
  if (major < 1 || major > 3 || minor !== 0) fail(ctx, '.npy format version 1.0, 2.0 or 3.0', `version ${major}.${minor}`);
  let headerLength: number;
  let start: number;
  if (major === 1) {
    headerLength = head[8]! | (head[9]! << 8);
    start = 10;
  } else {
    if (head.length < 12) return { needBytes: 12 };
    headerLength = (head[8]! | (head[9]! << 8) | (head[10]! << 16)) + head[11]! * 2 ** 24;
    start = 12;
  }
  if (headerLength > MAX_HEADER_BYTES) fail(ctx, `a header of at most ${MAX_HEADER_BYTES} bytes`, `a header length of ${headerLength}`);
  const dataOffset = start + headerLength;
  if (dataOffset > fileSize) fail(ctx, `a complete header of ${headerLength} bytes`, `a truncated file of ${fileSize} bytes`);
  if (head.length < dataOffset) return { needBytes: dataOffset };
  const headerBytes = head.subarray(start, dataOffset);
  const headerText = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(headerBytes);
  let dict: PyValue;
  try {
    dict = parsePyLiteral(headerText);
  } catch (error) {
    fail(ctx, 'a well-formed .npy header', `${describe(headerText.trim())} (${(error as Error).message})`);
  }
  if (dict === null || typeof dict !== 'object' || Array.isArray(dict)) {
    fail(ctx, 'a header dict', describe(headerText.trim()));
  }
  const { descr, fortran_order: fortran, shape } = dict as { [key: string]: PyValue };
  if (descr === undefined || fortran === undefined || shape === undefined) {
    fail(ctx, "a header with keys 'descr', 'fortran_order' and 'shape'", describe(headerText.trim()));
  }
  const dtype = dtypeFromDescr(descr!, ctx);
  if (!Array.isArray(shape) || shape.some((d) => typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0)) {
    fail(ctx, 'a shape tuple of non-negative integers', describe(headerText.trim()));
  }
  const dims = shape as number[];
  const shapeText = `(${dims.join(', ')}${dims.length === 1 ? ',' : ''})`;
  if (typeof fortran !== 'boolean') fail(ctx, "'fortran_order' True or False", describe(fortran));
  // A Fortran-ordered array with at most one dimension longer than 1 has the same bytes as in C order.
  if (fortran && dims.filter((d) => d > 1).length > 1) {
    fail(ctx, 'an array in C order (use np.ascontiguousarray before np.save)', `fortran_order True with shape ${shapeText}`);
  }
  let count = 1;
  for (const d of dims) {
    count *= d;
    if (count > NPY_MAX_ELEMENTS) fail(ctx, `at most ${NPY_MAX_ELEMENTS} elements`, `shape ${shapeText}`);
  }
  const dataBytes = count * ITEM_SIZE[dtype];
  const available = fileSize - dataOffset;
  if (available < dataBytes) {
    fail(ctx, `${dataBytes} data bytes for shape ${shapeText} of ${dtype}`, `a truncated file with ${available} data bytes`);
  }
  if (available > dataBytes) {
    fail(ctx, `${dataBytes} data bytes for shape ${shapeText} of ${dtype}`, `${available} data bytes (trailing data)`);
  }
  return { version: [major, minor], dtype, shape: dims, count, dataOffset };
}

/**
 * An uninitialised byte array with its own ArrayBuffer at offset 0 (so typed-array views of it are aligned),
 * to be filled completely by `readExactly`; skipping the zero-fill matters for arrays of hundreds of MB.
 */
function freshBytes(length: number): Uint8Array {
  const b = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function readExactly(handle: FileHandle, target: Uint8Array, position: number, ctx: InputContext): Promise<void> {
  let done = 0;
  while (done < target.length) {
    const { bytesRead } = await handle.read(target, done, target.length - done, position + done);
    if (bytesRead === 0) fail(ctx, `${target.length} bytes at offset ${position}`, `end of file after ${done} (file truncated while reading)`);
    done += bytesRead;
  }
}

async function readHeaderFrom(handle: FileHandle, ctx: InputContext): Promise<NpyHeader> {
  const size = (await handle.stat()).size;
  let head = new Uint8Array(Math.min(size, 4096));
  await readExactly(handle, head, 0, ctx);
  for (;;) {
    const parsed = parseHeader(head, size, ctx);
    if (!('needBytes' in parsed)) return parsed;
    head = new Uint8Array(parsed.needBytes);
    await readExactly(handle, head, 0, ctx);
  }
}

/** Read and validate only the header of a `.npy` file. */
export async function readNpyHeader(path: string, argName = 'path'): Promise<NpyHeader> {
  const ctx = { argName, path };
  const handle = await openInput(ctx);
  try {
    return await readHeaderFrom(handle, ctx);
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Element decoding

/**
 * Decode `count` elements starting at element index `first` from `bytes` (a fresh, 0-offset buffer). int64 values
 * must fit in int32 (they are class labels); the first one that does not is reported with its flat index.
 */
export function decode(bytes: Uint8Array, dtype: NpyReadDtype, count: number, first: number, ctx: InputContext): NpyData {
  const buffer = bytes.buffer as ArrayBuffer;
  if (dtype === 'uint8' || dtype === 'bool') return bytes;
  if (dtype === 'float16') return decodeFloat16(bytes, count);
  if (dtype === 'int8' || dtype === 'int16' || dtype === 'uint16' || dtype === 'uint32' || dtype === 'uint64') {
    return decodeSmallInts(bytes, dtype, count, first, ctx);
  }
  if (dtype === 'int64') {
    const out = new Int32Array(count);
    const view = new DataView(buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i < count; i++) {
      const lo = view.getUint32(8 * i, true);
      const hi = view.getInt32(8 * i + 4, true);
      if (hi !== (lo | 0) >> 31) {
        fail(ctx, 'int64 values within the int32 range', `${view.getBigInt64(8 * i, true)} at index ${first + i}`);
      }
      out[i] = lo | 0;
    }
    return out;
  }
  if (LITTLE_ENDIAN_HOST) {
    if (dtype === 'float32') return new Float32Array(buffer, bytes.byteOffset, count);
    if (dtype === 'float64') return new Float64Array(buffer, bytes.byteOffset, count);
    return new Int32Array(buffer, bytes.byteOffset, count);
  }
  const view = new DataView(buffer, bytes.byteOffset, bytes.byteLength);
  if (dtype === 'float32') return Float32Array.from({ length: count }, (_, i) => view.getFloat32(4 * i, true));
  if (dtype === 'float64') return Float64Array.from({ length: count }, (_, i) => view.getFloat64(8 * i, true));
  return Int32Array.from({ length: count }, (_, i) => view.getInt32(4 * i, true));
}

/** Float32 value of every float16 bit pattern (IEEE 754 binary16: exact in float32), built on first use. */
let halfTable: Float32Array | null = null;
function float16Table(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const mantissa = h & 0x3ff;
    halfTable[h] = exponent === 0 ? sign * mantissa * 2 ** -24 : exponent === 31 ? (mantissa ? Number.NaN : sign * Infinity) : sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  return halfTable;
}

/** Little-endian float16 elements widened to float32. */
function decodeFloat16(bytes: Uint8Array, count: number): Float32Array {
  const table = float16Table();
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = table[bytes[2 * i]! | (bytes[2 * i + 1]! << 8)]!;
  return out;
}

/** Little-endian int8/int16/uint16/uint32/uint64 elements as int32 (range-checked). */
function decodeSmallInts(bytes: Uint8Array, dtype: 'int8' | 'int16' | 'uint16' | 'uint32' | 'uint64', count: number, first: number, ctx: InputContext): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    let v: number;
    if (dtype === 'int8') v = view.getInt8(i);
    else if (dtype === 'int16') v = view.getInt16(2 * i, true);
    else if (dtype === 'uint16') v = view.getUint16(2 * i, true);
    else if (dtype === 'uint32') v = view.getUint32(4 * i, true);
    else {
      const hi = view.getUint32(8 * i + 4, true);
      v = hi === 0 ? view.getUint32(8 * i, true) : Infinity;
      if (hi !== 0) fail(ctx, 'uint64 values within the int32 range', `${view.getBigUint64(8 * i, true)} at index ${first + i}`);
    }
    if (v > 2 ** 31 - 1) fail(ctx, `${dtype} values within the int32 range`, `${v} at index ${first + i}`);
    out[i] = v;
  }
  return out;
}

/** Read a whole `.npy` file. `argName` names the argument in error messages (e.g. `--logits`). */
export async function readNpy(path: string, argName = 'path'): Promise<NpyArray> {
  const ctx = { argName, path };
  const handle = await openInput(ctx);
  try {
    const header = await readHeaderFrom(handle, ctx);
    const bytes = freshBytes(header.count * ITEM_SIZE[header.dtype]);
    await readExactly(handle, bytes, header.dataOffset, ctx);
    return { dtype: header.dtype, shape: header.shape, data: decode(bytes, header.dtype, header.count, 0, ctx) };
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Interpreting arrays as prediction matrices and label vectors

function shapeText(shape: readonly number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

/** Check that `shape` is 2-D (N × C) and return [N, C]. */
export function matrixShape(shape: readonly number[], ctx: InputContext): [number, number] {
  if (shape.length !== 2) fail(ctx, 'a 2-D array of shape (N, C)', `shape ${shapeText(shape)}`);
  return [shape[0]!, shape[1]!];
}

/** Check that `shape` is (N,) or (N, 1) and return N. */
export function labelsLength(shape: readonly number[], ctx: InputContext): number {
  if (shape.length === 1) return shape[0]!;
  if (shape.length === 2 && shape[1] === 1) return shape[0]!;
  return fail(ctx, 'a 1-D array of class labels, shape (N,) or (N, 1)', `shape ${shapeText(shape)}`);
}

/** Matrix data: float32 and float64 are kept, integer and bool data become float64. */
export function toMatrixData(data: NpyData): Float32Array | Float64Array {
  if (data instanceof Float32Array || data instanceof Float64Array) return data;
  return Float64Array.from(data);
}

/**
 * Labels as Int32Array. Float data must hold integral values in the int32 range (labels saved as floats are
 * common); the first one that does not is reported with its index (`first` offsets the index for chunks).
 */
export function toLabelData(data: NpyData, ctx: InputContext, first = 0): Int32Array {
  if (data instanceof Int32Array) return data;
  if (data instanceof Uint8Array) return Int32Array.from(data);
  const out = new Int32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
      fail(ctx, 'integer class labels', `${describe(v)} at index ${first + i}`);
    }
    out[i] = v;
  }
  return out;
}

export interface NpyRowsOptions {
  /** Rows per yielded chunk (default 65 536). The last chunk may be shorter. */
  rowsPerChunk?: number;
  /** Argument name used in error messages (default `'path'`). */
  argName?: string;
}

/**
 * Stream a `.npy` file in chunks of whole rows through a file handle, so arrays larger than memory can be
 * processed. With `as: 'matrix'` (the default) the file must be 2-D (N, C) and each chunk is a Matrix of up to
 * `rowsPerChunk` rows (float32 stays float32; other dtypes become float64). With `as: 'labels'` the file must be
 * (N,) or (N, 1) and each chunk is an Int32Array of labels. Concatenating the chunks gives exactly `readNpy`'s data.
 */
export function readNpyRows(path: string, options: NpyRowsOptions & { as: 'labels' }): AsyncGenerator<Int32Array>;
export function readNpyRows(path: string, options?: NpyRowsOptions & { as?: 'matrix' }): AsyncGenerator<Matrix>;
export async function* readNpyRows(path: string, options: NpyRowsOptions & { as?: 'matrix' | 'labels' } = {}): AsyncGenerator<Matrix | Int32Array> {
  const ctx = { argName: options.argName ?? 'path', path };
  const rowsPerChunk = options.rowsPerChunk ?? 65536;
  if (!Number.isInteger(rowsPerChunk) || rowsPerChunk < 1) invalidArgument('rowsPerChunk', 'an integer ≥ 1', describe(rowsPerChunk));
  const handle = await openInput(ctx);
  try {
    const header = await readHeaderFrom(handle, ctx);
    const asLabels = options.as === 'labels';
    const rows = asLabels ? labelsLength(header.shape, ctx) : matrixShape(header.shape, ctx)[0];
    const cols = asLabels ? 1 : header.shape[1]!;
    const rowBytes = cols * ITEM_SIZE[header.dtype];
    for (let start = 0; start < rows; start += rowsPerChunk) {
      const n = Math.min(rowsPerChunk, rows - start);
      const bytes = freshBytes(n * rowBytes);
      await readExactly(handle, bytes, header.dataOffset + start * rowBytes, ctx);
      const data = decode(bytes, header.dtype, n * cols, start * cols, ctx);
      yield asLabels ? toLabelData(data, ctx, start) : { rows: n, cols, data: toMatrixData(data) };
    }
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/** Arrays `writeNpy` accepts. */
export type NpyWritable = Float32Array | Float64Array | Int32Array | Uint8Array | BigInt64Array;

export interface NpyWriteOptions {
  /** Stored dtype; default from the array type (Float32Array → float32, Float64Array → float64, ...). */
  dtype?: NpyDtype;
  /** Format version; default 1.0 (2.0 when the header does not fit in 1.0's 65 535 bytes). */
  version?: 1 | 2 | 3;
}

function defaultDtype(array: NpyWritable): NpyDtype {
  if (array instanceof Float32Array) return 'float32';
  if (array instanceof Float64Array) return 'float64';
  if (array instanceof Int32Array) return 'int32';
  if (array instanceof BigInt64Array) return 'int64';
  return 'uint8';
}

/** The header block (magic, version, length, padded dict) for an array of `dtype` and `shape`. */
export function npyHeaderBytes(dtype: NpyDtype, shape: readonly number[], version?: 1 | 2 | 3): Uint8Array {
  const dict = `{'descr': '${DESCR[dtype]}', 'fortran_order': False, 'shape': ${shapeText(shape).replace('(,)', '()')}, }`;
  const build = (v: 1 | 2 | 3): Uint8Array => {
    const prefix = v === 1 ? 10 : 12;
    const unpadded = prefix + dict.length + 1;
    const total = Math.ceil(unpadded / 64) * 64;
    const text = dict + ' '.repeat(total - unpadded) + '\n';
    const out = new Uint8Array(total);
    out.set(MAGIC, 0);
    out[6] = v;
    out[7] = 0;
    const len = text.length;
    if (v === 1) {
      out[8] = len & 0xff;
      out[9] = len >> 8;
    } else {
      new DataView(out.buffer).setUint32(8, len, true);
    }
    out.set(new TextEncoder().encode(text), prefix);
    return out;
  };
  if (version === undefined) return dict.length + 11 <= 65535 ? build(1) : build(2);
  if (version === 1 && dict.length + 11 > 65535) invalidArgument('version', 'a version whose header fits (2 or 3)', '1');
  return build(version);
}

/** Little-endian bytes of `array` stored as `dtype` (values must be representable: integral for integer dtypes). */
function encode(array: NpyWritable, dtype: NpyDtype, argName: string): Uint8Array {
  const n = array.length;
  const number = (i: number): number => Number(array[i]!);
  const checkInt = (v: number, i: number, lo: number, hi: number): void => {
    if (!Number.isInteger(v) || v < lo || v > hi) invalidArgument(argName, `values storable as ${dtype}`, `${describe(v)} at index ${i}`);
  };
  let out: Uint8Array;
  if (dtype === 'float32' || dtype === 'float64') {
    const same = (dtype === 'float32' && array instanceof Float32Array) || (dtype === 'float64' && array instanceof Float64Array);
    const typed = same ? (array as Float32Array | Float64Array) : dtype === 'float32' ? Float32Array.from({ length: n }, (_, i) => number(i)) : Float64Array.from({ length: n }, (_, i) => number(i));
    out = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    if (!LITTLE_ENDIAN_HOST) {
      const size = dtype === 'float32' ? 4 : 8;
      const copy = new Uint8Array(n * size);
      const view = new DataView(copy.buffer);
      for (let i = 0; i < n; i++) size === 4 ? view.setFloat32(4 * i, typed[i]!, true) : view.setFloat64(8 * i, typed[i]!, true);
      out = copy;
    }
    return out;
  }
  if (dtype === 'uint8' || dtype === 'bool') {
    if (array instanceof Uint8Array && dtype === 'uint8') return array;
    const max = dtype === 'bool' ? 1 : 255;
    const copy = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = number(i);
      checkInt(v, i, 0, max);
      copy[i] = v;
    }
    return copy;
  }
  const size = ITEM_SIZE[dtype];
  const copy = new Uint8Array(n * size);
  const view = new DataView(copy.buffer);
  for (let i = 0; i < n; i++) {
    if (dtype === 'int64' && array instanceof BigInt64Array) {
      view.setBigInt64(8 * i, array[i]!, true);
      continue;
    }
    const v = number(i);
    if (dtype === 'int32') {
      checkInt(v, i, -(2 ** 31), 2 ** 31 - 1);
      view.setInt32(4 * i, v, true);
    } else {
      checkInt(v, i, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      view.setBigInt64(8 * i, BigInt(v), true);
    }
  }
  return copy;
}

function checkShape(shape: readonly number[]): number {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    invalidArgument('shape', 'an array of non-negative integers', describe(shape));
  }
  return shape.reduce((a, b) => a * b, 1);
}

/**
 * Write `array` with `shape` (C order) to `path` as a `.npy` file, atomically (temp file in the same directory,
 * fsync, rename). `shape`'s product must equal `array.length`.
 */
export async function writeNpy(path: string, array: NpyWritable, shape: readonly number[], options: NpyWriteOptions = {}): Promise<void> {
  const count = checkShape(shape);
  if (count !== array.length) invalidArgument('array', `${count} elements for shape ${shapeText(shape)}`, describe(array));
  const dtype = options.dtype ?? defaultDtype(array);
  if (!(dtype in DESCR)) invalidArgument('dtype', SUPPORTED, describe(dtype));
  const header = npyHeaderBytes(dtype, shape, options.version);
  const data = encode(array, dtype, 'array');
  const file = await openAtomic(path);
  try {
    await file.write(header);
    await file.write(data);
  } catch (error) {
    await file.abort();
    throw error;
  }
  await file.commit();
}

/** An open `.npy` file being written row chunk by row chunk (see `createNpyWriter`). */
export interface NpyWriter {
  /** Append elements (whole rows, C order). */
  write(chunk: NpyWritable): Promise<void>;
  /** Check that exactly prod(shape) elements were written, then atomically publish the file. */
  close(): Promise<void>;
  /** Discard the partial file (the target is left untouched). */
  abort(): Promise<void>;
}

/**
 * Start writing a `.npy` file of known `shape` and `dtype` whose data arrives in pieces (e.g. calibrated
 * probabilities of a streamed input). Nothing is visible at `path` until `close()`.
 */
export async function createNpyWriter(path: string, shape: readonly number[], dtype: NpyDtype): Promise<NpyWriter> {
  const count = checkShape(shape);
  if (!(dtype in DESCR)) invalidArgument('dtype', SUPPORTED, describe(dtype));
  const file: AtomicFile = await openAtomic(path);
  let written = 0;
  try {
    await file.write(npyHeaderBytes(dtype, shape));
  } catch (error) {
    await file.abort();
    throw error;
  }
  return {
    async write(chunk) {
      if (written + chunk.length > count) {
        await file.abort();
        invalidArgument('chunk', `at most ${count - written} more elements for shape ${shapeText(shape)}`, describe(chunk));
      }
      try {
        await file.write(encode(chunk, dtype, 'chunk'));
      } catch (error) {
        await file.abort();
        throw error;
      }
      written += chunk.length;
    },
    async close() {
      if (written !== count) {
        await file.abort();
        invalidArgument('shape', `${count} elements written for shape ${shapeText(shape)}`, `${written}`);
      }
      await file.commit();
    },
    abort: () => file.abort(),
  };
}

/** Parse a whole `.npy` file held in memory (e.g. an `.npz` member or standard input). */
export function parseNpyBytes(bytes: Uint8Array, ctx: InputContext): NpyArray {
  const parsed = parseHeader(bytes, bytes.length, ctx);
  if ('needBytes' in parsed) return fail(ctx, `a header of ${parsed.needBytes} bytes`, `${bytes.length} bytes`);
  const size = parsed.count * ITEM_SIZE[parsed.dtype];
  const copy = freshBytes(size);
  copy.set(bytes.subarray(parsed.dataOffset, parsed.dataOffset + size));
  return { dtype: parsed.dtype, shape: parsed.shape, data: decode(copy, parsed.dtype, parsed.count, 0, ctx) };
}
