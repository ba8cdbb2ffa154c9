/**
 * Element types of engine tensors and their host (JavaScript) and ONNX counterparts.
 *
 * Host arrays: float32 → Float32Array, float64 → Float64Array, int32 → Int32Array, int64 → BigInt64Array,
 * bool → Uint8Array (0/1). ONNX codes from `onnx.proto` TensorProto.DataType.
 */
export type DType = 'float32' | 'float64' | 'int32' | 'int64' | 'bool';

/** All element types, in a fixed order. */
export const DTYPES: readonly DType[] = ['float32', 'float64', 'int32', 'int64', 'bool'];

/** TensorProto.DataType code of each element type. */
export const ONNX_DTYPE: Readonly<Record<DType, number>> = { float32: 1, float64: 11, int32: 6, int64: 7, bool: 9 };

/** Bytes per element. */
export const DTYPE_BYTES: Readonly<Record<DType, number>> = { float32: 4, float64: 8, int32: 4, int64: 8, bool: 1 };

/** Host typed array for each element type. */
export interface HostArrayOf {
  float32: Float32Array;
  float64: Float64Array;
  int32: Int32Array;
  int64: BigInt64Array;
  bool: Uint8Array;
}
/** Any host typed array the engine accepts or returns. */
export type HostArray = HostArrayOf[DType];

/** True for float32 and float64. */
export function isFloat(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'float64';
}

/** True for int32 and int64. */
export function isInteger(dtype: DType): boolean {
  return dtype === 'int32' || dtype === 'int64';
}

/** True when `value` names an element type. */
export function isDType(value: unknown): value is DType {
  return typeof value === 'string' && (DTYPES as readonly string[]).includes(value);
}

/** A new zero-filled host array of `dtype` with `length` elements. */
export function allocHost<D extends DType>(dtype: D, length: number): HostArrayOf[D] {
  switch (dtype) {
    case 'float32':
      return new Float32Array(length) as HostArrayOf[D];
    case 'float64':
      return new Float64Array(length) as HostArrayOf[D];
    case 'int32':
      return new Int32Array(length) as HostArrayOf[D];
    case 'int64':
      return new BigInt64Array(length) as HostArrayOf[D];
    default:
      return new Uint8Array(length) as HostArrayOf[D];
  }
}

/**
 * Convert numbers to a host array of `dtype`: floats rounded to the type (float32 by Math.fround), integers
 * truncated toward zero (ONNX Cast semantics), booleans as value ≠ 0.
 */
export function toHostArray<D extends DType>(dtype: D, values: ArrayLike<number>): HostArrayOf[D] {
  const out = allocHost(dtype, values.length);
  if (dtype === 'int64') {
    const o = out as BigInt64Array;
    for (let i = 0; i < values.length; i++) o[i] = BigInt(Math.trunc(values[i]!));
  } else if (dtype === 'bool') {
    const o = out as Uint8Array;
    for (let i = 0; i < values.length; i++) o[i] = values[i] !== 0 ? 1 : 0;
  } else if (dtype === 'int32') {
    const o = out as Int32Array;
    for (let i = 0; i < values.length; i++) o[i] = Math.trunc(values[i]!);
  } else {
    (out as Float32Array | Float64Array).set(values);
  }
  return out;
}

/** Read any host array as float64 numbers (int64 converted with Number). */
export function hostToFloat64(values: HostArray): Float64Array {
  if (values instanceof Float64Array) return values;
  const out = new Float64Array(values.length);
  if (values instanceof BigInt64Array) {
    for (let i = 0; i < values.length; i++) out[i] = Number(values[i]!);
  } else {
    out.set(values);
  }
  return out;
}

/** The element type a host array holds, or null when it is not one the engine knows. */
export function dtypeOfHost(values: unknown): DType | null {
  if (values instanceof Float32Array) return 'float32';
  if (values instanceof Float64Array) return 'float64';
  if (values instanceof Int32Array) return 'int32';
  if (values instanceof BigInt64Array) return 'int64';
  if (values instanceof Uint8Array) return 'bool';
  return null;
}
