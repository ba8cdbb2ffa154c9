/**
 * Loop helpers shared by the float64 reference implementations of the primitives: broadcasting index maps,
 * reductions over axes, and the axis bookkeeping they need. Plain, obviously-correct loops; speed is secondary.
 */
import type { Shape } from '../ir/shape.js';
import { shapeSize, stridesOf } from '../ir/shape.js';
import type { DType } from '../ir/dtype.js';
import type { HostTensor } from '../ir/primitive.js';

/** A host tensor from its parts. */
export function host(dtype: DType, shape: Shape, data: Float64Array): HostTensor {
  return { dtype, shape, data };
}

/** For each element of `outShape` (row-major), the flat index of the element of `inShape` broadcast onto it. */
export function broadcastIndexMap(inShape: Shape, outShape: Shape): Int32Array {
  const n = shapeSize(outShape);
  const rank = outShape.length;
  const inStrides = stridesOf(inShape);
  const aligned = new Array<number>(rank).fill(0);
  for (let i = 0; i < inShape.length; i++) {
    const o = rank - inShape.length + i;
    aligned[o] = inShape[i] === 1 ? 0 : inStrides[i]!;
  }
  const map = new Int32Array(n);
  const counter = new Array<number>(rank).fill(0);
  let offset = 0;
  for (let k = 0; k < n; k++) {
    map[k] = offset;
    for (let ax = rank - 1; ax >= 0; ax--) {
      counter[ax]!++;
      offset += aligned[ax]!;
      if (counter[ax]! < outShape[ax]!) break;
      offset -= aligned[ax]! * counter[ax]!;
      counter[ax] = 0;
    }
  }
  return map;
}

/** out[k] = f(a[ia(k)], b[ib(k)]) over the broadcast shape. */
export function mapBinary(a: HostTensor, b: HostTensor, outShape: Shape, f: (x: number, y: number) => number): Float64Array {
  const ia = broadcastIndexMap(a.shape, outShape);
  const ib = broadcastIndexMap(b.shape, outShape);
  const out = new Float64Array(ia.length);
  for (let k = 0; k < out.length; k++) out[k] = f(a.data[ia[k]!]!, b.data[ib[k]!]!);
  return out;
}

/**
 * Reduce `x` over `axes` (sorted, normalized) with an accumulator: `init` per output element, `step(acc, v,
 * indexAlongReducedAxes)`, `finish(acc, count)`. Output in keepdims layout order (same order either way).
 */
export function reduceAxes(
  x: HostTensor,
  axes: readonly number[],
  init: number,
  step: (acc: number, value: number, reducedIndex: number) => number,
  finish: (acc: number, count: number) => number = (acc) => acc,
): { data: Float64Array; keptShape: number[]; count: number } {
  const keptShape = x.shape.map((d, i) => (axes.includes(i) ? 1 : d));
  const outSize = shapeSize(keptShape);
  const count = axes.reduce((acc, a) => acc * x.shape[a]!, 1);
  const acc = new Float64Array(outSize).fill(init);
  const seen = new Int32Array(outSize);
  const outStrides = stridesOf(keptShape);
  const rank = x.shape.length;
  const counter = new Array<number>(rank).fill(0);
  for (let k = 0; k < x.data.length; k++) {
    let o = 0;
    for (let ax = 0; ax < rank; ax++) if (keptShape[ax] !== 1 || !axes.includes(ax)) o += counter[ax]! * outStrides[ax]!;
    acc[o] = step(acc[o]!, x.data[k]!, seen[o]!);
    seen[o]!++;
    for (let ax = rank - 1; ax >= 0; ax--) {
      counter[ax]!++;
      if (counter[ax]! < x.shape[ax]!) break;
      counter[ax] = 0;
    }
  }
  for (let o = 0; o < outSize; o++) acc[o] = finish(acc[o]!, count);
  return { data: acc, keptShape, count };
}

/** Shape after removing `axes` (keepdims = false) or setting them to 1 (keepdims = true). */
export function reducedShape(shape: Shape, axes: readonly number[], keepdims: boolean): number[] {
  const out: number[] = [];
  shape.forEach((d, i) => {
    if (!axes.includes(i)) out.push(d);
    else if (keepdims) out.push(1);
  });
  return out;
}

/** Multi-index of flat index `k` in `shape`. */
export function unravel(k: number, shape: Shape): number[] {
  const idx = new Array<number>(shape.length);
  for (let i = shape.length - 1; i >= 0; i--) {
    idx[i] = k % shape[i]!;
    k = Math.floor(k / shape[i]!);
  }
  return idx;
}

/** Apply `f` to every 1-D fibre of `x` along `axis` (f returns a fibre of the same length). */
export function mapAlongAxis(x: HostTensor, axis: number, f: (fibre: Float64Array) => ArrayLike<number>): Float64Array {
  const d = x.shape[axis]!;
  const inner = shapeSize(x.shape.slice(axis + 1));
  const outer = shapeSize(x.shape.slice(0, axis));
  const out = new Float64Array(x.data.length);
  const fibre = new Float64Array(d);
  for (let o = 0; o < outer; o++) {
    for (let q = 0; q < inner; q++) {
      for (let i = 0; i < d; i++) fibre[i] = x.data[(o * d + i) * inner + q]!;
      const r = f(fibre);
      for (let i = 0; i < d; i++) out[(o * d + i) * inner + q] = r[i]!;
    }
  }
  return out;
}

/** Stable log-softmax of one fibre: z − max − log Σ exp(z − max) (a row of all −∞ gives NaN, as PyTorch). */
export function logSoftmaxFibre(z: ArrayLike<number>): Float64Array {
  let m = -Infinity;
  for (let i = 0; i < z.length; i++) if (z[i]! > m || Number.isNaN(z[i]!)) m = z[i]!;
  let s = 0;
  for (let i = 0; i < z.length; i++) s += Math.exp(z[i]! - m);
  const lse = m + Math.log(s);
  const out = new Float64Array(z.length);
  for (let i = 0; i < z.length; i++) out[i] = z[i]! - lse;
  return out;
}
