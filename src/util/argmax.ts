/**
 * Index (0-based, relative to `offset`) of the largest of values[offset .. offset + length): the first one on ties
 * (a strict `>` scan, as NumPy's argmax and ONNX ArgMax with select_last_index = 0). `length` ≥ 1. A NaN entry is
 * never chosen, except at position 0, where it stays chosen.
 */
export function argmaxRow(values: ArrayLike<number>, offset: number, length: number): number {
  let arg = 0;
  let best = values[offset]!;
  for (let k = 1; k < length; k++) {
    const v = values[offset + k]!;
    if (v > best) {
      best = v;
      arg = k;
    }
  }
  return arg;
}
