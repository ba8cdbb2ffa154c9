import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { invalidArgument } from '../../util/errors.js';

/**
 * A reader of numeric arrays in MATLAB level-5 MAT-files (MathWorks, "MAT-File Format", R2019b, ch. 1),
 * as written by MATLAB's save -v6/-v7 and scipy.io.savemat.
 *
 * Layout: a 128-byte header (descriptive text, subsystem offset, version 0x0100, endian indicator "IM"
 * for little-endian files / "MI" for big-endian), then data elements. Each element has an 8-byte tag
 * (uint32 type, uint32 byte count) or, when the upper 16 bits of the first word are non-zero, a "small
 * element" tag (byte count in the upper, type in the lower 16 bits) with ≤ 4 data bytes packed in the tag's
 * second word. miCOMPRESSED (15) elements hold a zlib stream of one element; miMATRIX (14) elements hold
 * sub-elements, each padded to 8 bytes: array flags (class in the low byte; 0x800 = complex), dimensions
 * (int32), name (int8), the real part and, if complex, the imaginary part. The real part's storage type may
 * be narrower than the class (MATLAB stores integral doubles as miUINT8 etc.): values are converted to the
 * class's type. Arrays are column-major. Cell, struct, object, sparse and char arrays are skipped.
 */
export type MatClass = 'double' | 'single' | 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'int64' | 'uint64';

export interface MatArray {
  readonly name: string;
  readonly class: MatClass;
  /** MATLAB dimensions, e.g. [32, 32, 3, N]; the data is column-major (first index fastest). */
  readonly dims: readonly number[];
  readonly data: Float64Array | Float32Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;
  /** Imaginary part of a complex array. */
  readonly imag?: MatArray['data'];
}

const MI = { INT8: 1, UINT8: 2, INT16: 3, UINT16: 4, INT32: 5, UINT32: 6, SINGLE: 7, DOUBLE: 9, INT64: 12, UINT64: 13, MATRIX: 14, COMPRESSED: 15, UTF8: 16, UTF16: 17, UTF32: 18 } as const;
const CLASSES: Record<number, MatClass> = { 6: 'double', 7: 'single', 8: 'int8', 9: 'uint8', 10: 'int16', 11: 'uint16', 12: 'int32', 13: 'uint32', 14: 'int64', 15: 'uint64' };
const ELEMENT_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 9: 8, 12: 8, 13: 8 };

interface Element {
  type: number;
  data: Uint8Array;
  /** Offset of the next element (padded to 8 bytes). */
  next: number;
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    readonly little: boolean,
    readonly source: string,
  ) {}

  view(bytes: Uint8Array): DataView {
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  element(buf: Uint8Array, offset: number, pad: boolean): Element {
    if (offset + 8 > buf.length) this.fail(`an 8-byte element tag at byte ${offset}`, `${buf.length - offset} bytes left (truncated file?)`);
    const v = this.view(buf);
    const first = v.getUint32(offset, this.little);
    if (first >>> 16 !== 0) {
      const size = first >>> 16;
      if (size > 4) this.fail('a small data element of at most 4 bytes', `${size} bytes at byte ${offset}`);
      return { type: first & 0xffff, data: buf.subarray(offset + 4, offset + 4 + size), next: offset + 8 };
    }
    const size = v.getUint32(offset + 4, this.little);
    const start = offset + 8;
    if (start + size > buf.length) this.fail(`an element of ${size} bytes at byte ${start}`, `${buf.length - start} bytes left (truncated file?)`);
    const padded = pad && first !== MI.COMPRESSED ? Math.ceil(size / 8) * 8 : size;
    return { type: first, data: buf.subarray(start, start + size), next: Math.min(start + padded, buf.length) };
  }

  fail(expected: string, actual: string): never {
    return invalidArgument(this.source, `a MAT-file (level 5) with ${expected}`, actual);
  }

  /** Decode a numeric element as a typed array of its storage type. */
  numbers(el: Element): ArrayLike<number> {
    const size = ELEMENT_BYTES[el.type];
    if (size === undefined) this.fail('a numeric data element', `element type ${el.type}`);
    const n = Math.floor(el.data.length / size);
    if (el.type === MI.UINT8) return el.data;
    if (el.type === MI.INT8) return new Int8Array(el.data.buffer, el.data.byteOffset, n);
    const v = this.view(el.data);
    const little = this.little;
    const read: (i: number) => number = {
      [MI.INT16]: (i: number) => v.getInt16(2 * i, little),
      [MI.UINT16]: (i: number) => v.getUint16(2 * i, little),
      [MI.INT32]: (i: number) => v.getInt32(4 * i, little),
      [MI.UINT32]: (i: number) => v.getUint32(4 * i, little),
      [MI.SINGLE]: (i: number) => v.getFloat32(4 * i, little),
      [MI.DOUBLE]: (i: number) => v.getFloat64(8 * i, little),
      [MI.INT64]: (i: number) => Number(v.getBigInt64(8 * i, little)),
      [MI.UINT64]: (i: number) => Number(v.getBigUint64(8 * i, little)),
    }[el.type]!;
    const out = el.type === MI.SINGLE ? new Float32Array(n) : new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = read(i);
    return out;
  }

  /** Parse one top-level or decompressed element; returns the array or undefined for unsupported kinds. */
  variable(el: Element): MatArray | undefined {
    if (el.type === MI.COMPRESSED) {
      let inner: Uint8Array;
      try {
        inner = new Uint8Array(inflateSync(el.data));
      } catch (e) {
        return this.fail('a valid zlib stream in a compressed element', (e as Error).message);
      }
      return this.variable(this.element(inner, 0, true));
    }
    if (el.type !== MI.MATRIX || el.data.length === 0) return undefined;
    const buf = el.data;
    const flagsEl = this.element(buf, 0, true);
    const flags = this.view(flagsEl.data).getUint32(0, this.little);
    const classCode = flags & 0xff;
    const complex = (flags & 0x800) !== 0;
    const dimsEl = this.element(buf, flagsEl.next, true);
    const dims = Array.from(this.numbers(dimsEl));
    const nameEl = this.element(buf, dimsEl.next, true);
    const name = new TextDecoder().decode(nameEl.data);
    const cls = CLASSES[classCode];
    if (cls === undefined) return undefined;
    const count = dims.reduce((a, b) => a * b, 1);
    const realEl = this.element(buf, nameEl.next, true);
    const data = convert(this.numbers(realEl), cls);
    if (data.length !== count) this.fail(`${count} values for ${name} [${dims.join(', ')}]`, `${data.length}`);
    if (!complex) return { name, class: cls, dims, data };
    const imag = convert(this.numbers(this.element(buf, realEl.next, true)), cls);
    return { name, class: cls, dims, data, imag };
  }
}

function convert(values: ArrayLike<number>, cls: MatClass): MatArray['data'] {
  const ctor = {
    double: Float64Array,
    single: Float32Array,
    int8: Int8Array,
    uint8: Uint8Array,
    int16: Int16Array,
    uint16: Uint16Array,
    int32: Int32Array,
    uint32: Uint32Array,
    int64: Float64Array,
    uint64: Float64Array,
  }[cls];
  if (values instanceof ctor) return values as MatArray['data'];
  return ctor.from(values as ArrayLike<number>);
}

/**
 * Parse a level-5 MAT-file and return its numeric arrays by name. `only` restricts which variables are
 * returned (compressed ones are still inflated, since their names are inside the compressed stream).
 */
export function parseMat(bytes: Uint8Array, source = 'mat', only?: readonly string[]): Map<string, MatArray> {
  if (bytes.length < 128) invalidArgument(source, 'a MAT-file (level 5) with a 128-byte header', `${bytes.length} bytes`);
  const text = new TextDecoder().decode(bytes.subarray(0, 116));
  if (text.startsWith('MATLAB 7.3')) invalidArgument(source, 'a level-5 MAT-file (save -v7 or -v6)', 'a MATLAB 7.3 (HDF5) file; re-save it with save(..., "-v7") or scipy.io.savemat');
  const indicator = String.fromCharCode(bytes[126]!, bytes[127]!);
  if (indicator !== 'IM' && indicator !== 'MI') invalidArgument(source, 'a level-5 MAT-file (endian indicator "IM" or "MI" at byte 126)', JSON.stringify(indicator) + ' (a level-4 or non-MAT file?)');
  const reader = new Reader(bytes, indicator === 'IM', source);
  const out = new Map<string, MatArray>();
  let offset = 128;
  while (offset + 8 <= bytes.length) {
    const el = reader.element(bytes, offset, true);
    offset = el.next;
    const array = reader.variable(el);
    if (array !== undefined && (only === undefined || only.includes(array.name))) out.set(array.name, array);
  }
  return out;
}

/** Read a MAT-file from disk (see `parseMat`). */
export async function readMat(path: string, only?: readonly string[]): Promise<Map<string, MatArray>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new Error(`mat: cannot read ${path}: ${(e as Error).message}`);
  }
  return parseMat(bytes, path, only);
}
