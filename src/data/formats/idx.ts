import { readFile } from 'node:fs/promises';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { describe, invalidArgument } from '../../util/errors.js';
import { imageDataset, type ImageDataset } from '../dataset.js';

/**
 * The IDX file format of MNIST and Fashion-MNIST (LeCun et al., http://yann.lecun.com/exdb/mnist/):
 * bytes 0–1 zero, byte 2 the element type (0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32,
 * 0x0E float64), byte 3 the number of dimensions d, then d big-endian uint32 sizes, then the elements in
 * row-major (C) order, big-endian. Files may be gzipped (detected by the 1f 8b magic).
 */
export type IdxType = 'uint8' | 'int8' | 'int16' | 'int32' | 'float32' | 'float64';

export interface IdxArray {
  readonly type: IdxType;
  readonly dims: readonly number[];
  readonly data: Uint8Array | Int8Array | Int16Array | Int32Array | Float32Array | Float64Array;
}

const TYPES: Record<number, { type: IdxType; bytes: number }> = {
  0x08: { type: 'uint8', bytes: 1 },
  0x09: { type: 'int8', bytes: 1 },
  0x0b: { type: 'int16', bytes: 2 },
  0x0c: { type: 'int32', bytes: 4 },
  0x0d: { type: 'float32', bytes: 4 },
  0x0e: { type: 'float64', bytes: 8 },
};

/** True when the bytes start with the gzip magic 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Output chunk size for gunzipping `gz` in one piece: its trailer's ISIZE (RFC 1952 § 2.3.1: the uncompressed size
 * mod 2³², little-endian last four bytes) + 1, so zlib fills a single buffer instead of 16 KB chunks that are then
 * concatenated into a second, fresh copy (Fashion-MNIST's 47 MB training images: 0.56 → 0.33 s CPU in a fresh
 * process). A trailer that lies (several members, > 4 GB) only costs chunks again: the size is a hint, capped at
 * deflate's maximum ratio (1032:1) so a corrupt trailer cannot ask for a huge buffer.
 */
function gunzipChunkSize(gz: Uint8Array): number {
  if (gz.length < 18) return zlibConstants.Z_DEFAULT_CHUNK;
  const isize = (gz[gz.length - 4]! | (gz[gz.length - 3]! << 8) | (gz[gz.length - 2]! << 16) | (gz[gz.length - 1]! << 24)) >>> 0;
  return Math.max(zlibConstants.Z_DEFAULT_CHUNK, Math.min(isize + 1, gz.length * 1032, 2 ** 31 - 1));
}

/** Parse an IDX file (gzipped or not). `source` names the file in error messages. */
export function parseIdx(input: Uint8Array, source = 'idx'): IdxArray {
  // A decompressed buffer is ours: its uint8 payload is used in place (a view, no 47 MB copy); the caller's bytes are copied.
  const inflated = isGzip(input);
  const buffer = inflated ? gunzipSync(input, { chunkSize: gunzipChunkSize(input) }) : null;
  const bytes = buffer ? new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) : input; // a plain view: .slice copies
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0)
    invalidArgument(source, 'an IDX file (starting with two zero bytes, type, rank)', `${bytes.length} bytes starting ${hex(bytes.subarray(0, 4))}`);
  const info = TYPES[bytes[2]!];
  if (info === undefined) invalidArgument(source, 'an IDX element type 0x08, 0x09, 0x0B, 0x0C, 0x0D or 0x0E', `0x${bytes[2]!.toString(16)}`);
  const rank = bytes[3]!;
  const headerSize = 4 + 4 * rank;
  if (bytes.length < headerSize) invalidArgument(source, `a header of ${headerSize} bytes`, `${bytes.length} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims: number[] = [];
  for (let i = 0; i < rank; i++) dims.push(view.getUint32(4 + 4 * i, false));
  const count = dims.reduce((a, b) => a * b, 1);
  const expected = headerSize + count * info.bytes;
  if (bytes.length !== expected) invalidArgument(source, `${expected} bytes for dimensions [${dims.join(', ')}] of ${info.type}`, `${bytes.length} bytes (truncated or corrupt file?)`);
  let data: IdxArray['data'];
  switch (info.type) {
    case 'uint8':
      data = inflated ? new Uint8Array(bytes.buffer, bytes.byteOffset + headerSize, count) : bytes.slice(headerSize, expected);
      break;
    case 'int8':
      data = new Int8Array(bytes.slice(headerSize, expected).buffer);
      break;
    case 'int16':
      data = Int16Array.from({ length: count }, (_, i) => view.getInt16(headerSize + 2 * i, false));
      break;
    case 'int32':
      data = Int32Array.from({ length: count }, (_, i) => view.getInt32(headerSize + 4 * i, false));
      break;
    case 'float32':
      data = Float32Array.from({ length: count }, (_, i) => view.getFloat32(headerSize + 4 * i, false));
      break;
    case 'float64':
      data = Float64Array.from({ length: count }, (_, i) => view.getFloat64(headerSize + 8 * i, false));
      break;
  }
  return { type: info.type, dims, data };
}

/** Encode an array as (uncompressed) IDX bytes; the inverse of `parseIdx`. */
export function encodeIdx(array: IdxArray): Uint8Array {
  const code = Number(Object.keys(TYPES).find((k) => TYPES[Number(k)]!.type === array.type));
  if (!Number.isFinite(code)) invalidArgument('array.type', 'an IDX element type', describe(array.type));
  const size = TYPES[code]!.bytes;
  const count = array.dims.reduce((a, b) => a * b, 1);
  if (array.data.length !== count) invalidArgument('array.data', `${count} elements for [${array.dims.join(', ')}]`, `${array.data.length}`);
  const headerSize = 4 + 4 * array.dims.length;
  const out = new Uint8Array(headerSize + count * size);
  const view = new DataView(out.buffer);
  out[2] = code;
  out[3] = array.dims.length;
  array.dims.forEach((d, i) => view.setUint32(4 + 4 * i, d, false));
  for (let i = 0; i < count; i++) {
    const v = array.data[i]!;
    const at = headerSize + i * size;
    switch (array.type) {
      case 'uint8':
        view.setUint8(at, v);
        break;
      case 'int8':
        view.setInt8(at, v);
        break;
      case 'int16':
        view.setInt16(at, v, false);
        break;
      case 'int32':
        view.setInt32(at, v, false);
        break;
      case 'float32':
        view.setFloat32(at, v, false);
        break;
      case 'float64':
        view.setFloat64(at, v, false);
        break;
    }
  }
  return out;
}

/** Read and parse an IDX file from disk. */
export async function readIdx(path: string): Promise<IdxArray> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw new Error(`idx: cannot read ${path}: ${(e as Error).message}`);
  }
  return parseIdx(bytes, path);
}

/**
 * An image dataset from an IDX image array [N, H, W] (one channel) and an IDX label array [N].
 * uint8 images are divided by 255; other element types are taken as they are.
 */
export function idxImageDataset(images: IdxArray, labels: IdxArray, fields: { name: string; classes?: number; classNames?: readonly string[] }): ImageDataset {
  if (images.dims.length !== 3) invalidArgument(`${fields.name} images`, 'an IDX array of rank 3 [N, H, W]', `rank ${images.dims.length}`);
  if (labels.dims.length !== 1) invalidArgument(`${fields.name} labels`, 'an IDX array of rank 1 [N]', `rank ${labels.dims.length}`);
  const [n, h, w] = images.dims as [number, number, number];
  if (labels.dims[0] !== n) invalidArgument(`${fields.name} labels`, `${n} labels (one per image)`, `${labels.dims[0]}`);
  if (labels.type === 'float32' || labels.type === 'float64') invalidArgument(`${fields.name} labels`, 'an integer IDX type', labels.type);
  const pixels = images.data instanceof Uint8Array ? bytesToUnitFloats(images.data, n * h * w) : Float32Array.from(images.data.subarray(0, n * h * w));
  const labelArray = Int32Array.from(labels.data as ArrayLike<number>);
  let classes = fields.classes ?? fields.classNames?.length;
  if (classes === undefined) classes = labelArray.reduce((a, b) => Math.max(a, b + 1), 1);
  return imageDataset({
    name: fields.name,
    images: pixels,
    labels: labelArray,
    shape: [1, h, w],
    classes,
    ...(fields.classNames ? { classNames: fields.classNames } : {}),
  });
}

/**
 * Bytes b → b / 255 as float32, in one monomorphic loop (a loop over the IdxArray data union is several times
 * slower: 60,000 Fashion-MNIST images took 0.8 s that way).
 */
function bytesToUnitFloats(bytes: Uint8Array, count: number): Float32Array {
  const out = new Float32Array(count);
  const scale = 1 / 255;
  for (let i = 0; i < count; i++) out[i] = bytes[i]! * scale;
  return out;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
}
