import { describe, invalidArgument, requireNumber } from '../../util/errors.js';

/**
 * Typed arrays backed by a `SharedArrayBuffer`, which worker threads read without a copy (`postMessage` /
 * `workerData` share the memory instead of cloning it). Allocate inputs with these helpers (e.g. read a .npy
 * file straight into `sharedFloat32Array(N * C)`) to avoid `toShared`'s copy in `evaluateParallel`.
 */

/** A zero-filled Float32Array of `length` elements in shared memory (4·length bytes). */
export function sharedFloat32Array(length: number): Float32Array {
  requireNumber('length', length, { integer: true, min: 0 });
  return new Float32Array(new SharedArrayBuffer(4 * length));
}

/** A zero-filled Float64Array of `length` elements in shared memory (8·length bytes). */
export function sharedFloat64Array(length: number): Float64Array {
  requireNumber('length', length, { integer: true, min: 0 });
  return new Float64Array(new SharedArrayBuffer(8 * length));
}

/** Whether a typed array's memory is a `SharedArrayBuffer`. */
export function isShared(array: ArrayBufferView): boolean {
  if (!ArrayBuffer.isView(array)) invalidArgument('array', 'a typed array', describe(array));
  return array.buffer instanceof SharedArrayBuffer;
}

/**
 * `array` itself when it is already in shared memory, else a copy of its elements in a new SharedArrayBuffer
 * (cost: one allocation of array.byteLength bytes and a memcpy — for 10⁸ float32 values, 400 MB and ~0.1–0.3 s).
 */
export function toShared<T extends Float32Array | Float64Array | Int32Array>(array: T): T {
  if (isShared(array)) return array;
  const Ctor = array.constructor as { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };
  const out = new Ctor(new SharedArrayBuffer(array.length * Ctor.BYTES_PER_ELEMENT));
  out.set(array as ArrayLike<number>);
  return out;
}
