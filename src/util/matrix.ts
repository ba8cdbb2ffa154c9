/**
 * The toolkit's host-side data types. Predictions are dense row-major matrices (N rows = samples,
 * C columns = classes); labels are Int32Array class indices in [0, C).
 */
export type FloatArray = Float32Array | Float64Array;

/** A dense row-major matrix: element (i, k) is `data[i * cols + k]`. */
export interface Matrix<T extends FloatArray = FloatArray> {
  readonly rows: number;
  readonly cols: number;
  readonly data: T;
}

/** Wrap a typed array as a matrix, checking that its length is rows × cols. */
export function matrix<T extends FloatArray>(rows: number, cols: number, data: T): Matrix<T> {
  if (data.length !== rows * cols) {
    throw new RangeError(`matrix: data of length ${data.length} does not hold ${rows} × ${cols} values`);
  }
  return { rows, cols, data };
}
