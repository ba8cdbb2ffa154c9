import { apply1 } from '../../ir/apply.js';
import type { Primitive, TensorType } from '../../ir/primitive.js';
import { formatShape, normalizeAxis, shapeSize, stridesOf } from '../../ir/shape.js';
import { shapeError } from '../../ir/shape-error.js';
import type { Tensor } from '../../ir/tensor.js';
import { unravel } from '../../reference/kernels.js';
import { ct0 } from '../math/elementwise.js';
import { pad } from './pad.js';
import { reshape } from './reshape.js';

/**
 * Normalised slice: for each listed axis, the first selected index `start`, the step, and the count `n` of
 * selected elements (index start + i·step for i < n).
 */
export interface SliceAttrs {
  readonly axes: readonly number[];
  readonly starts: readonly number[];
  readonly steps: readonly number[];
  readonly counts: readonly number[];
}

/**
 * Strided slice with NumPy semantics (negative indices count from the end, out-of-range bounds clamp,
 * negative steps walk backwards; ONNX Slice). VJP: the cotangent placed back at the selected positions
 * (flip for negative steps, interleave zeros for |step| > 1, then Pad).
 */
export const sliceOp: Primitive<SliceAttrs> = {
  name: 'slice',
  infer: ([x], attrs) => [sliceType(x!, attrs)],
  emit(node, ctx) {
    const { axes, starts, steps, counts } = node.attrs;
    const shape = node.inputTypes[0]!.shape;
    // ONNX end is exclusive; for a negative step an end "before index 0" is written as −(d+1).
    const ends = axes.map((a, i) => {
      const end = starts[i]! + counts[i]! * steps[i]!;
      return end < 0 ? -(shape[a]! + 1) : end;
    });
    const startsOnnx = axes.map((a, i) => (counts[i] === 0 && starts[i]! < 0 ? -(shape[a]! + 1) : starts[i]!));
    ctx.node('Slice', [node.inputs[0]!, ctx.int64s(startsOnnx), ctx.int64s(ends), ctx.int64s(axes), ctx.int64s(steps)], node.outputs);
  },
  vjp(args) {
    const x = args.inputs[0]!;
    let g = ct0(args);
    const { axes, starts, steps, counts } = args.attrs;
    const pads = new Array<number>(2 * x.rank).fill(0);
    axes.forEach((axis, i) => {
      const step = steps[i]!,
        n = counts[i]!,
        d = x.shape[axis]!;
      if (n === 0) return;
      if (step < 0) g = flip(g, [axis]);
      const s = Math.abs(step);
      const first = step > 0 ? starts[i]! : starts[i]! + (n - 1) * step;
      if (s > 1) {
        // Interleave s−1 zeros after each element: [.., n, ..] → [.., n, s, ..] → [.., n·s, ..] → first (n−1)s+1.
        const shape = [...g.shape];
        const withUnit = [...shape.slice(0, axis + 1), 1, ...shape.slice(axis + 1)];
        const p = new Array<number>(2 * withUnit.length).fill(0);
        p[withUnit.length + axis + 1] = s - 1;
        const spread = reshape(pad(reshape(g, withUnit), p), [...shape.slice(0, axis), n * s, ...shape.slice(axis + 1)]);
        g = slice(spread, [0], [(n - 1) * s + 1], [axis]);
      }
      pads[axis] = first;
      pads[x.rank + axis] = d - (first + (n - 1) * s + 1);
    });
    return [pad(g, pads)];
  },
  reference([x], attrs) {
    const type = sliceType(x!, attrs);
    const r = x!.shape.length;
    const start = new Array<number>(r).fill(0);
    const step = new Array<number>(r).fill(1);
    attrs.axes.forEach((a, i) => {
      start[a] = attrs.starts[i]!;
      step[a] = attrs.steps[i]!;
    });
    const inStrides = stridesOf(x!.shape);
    const out = new Float64Array(shapeSize(type.shape));
    for (let k = 0; k < out.length; k++) {
      const idx = unravel(k, type.shape);
      let src = 0;
      for (let i = 0; i < r; i++) src += (start[i]! + idx[i]! * step[i]!) * inStrides[i]!;
      out[k] = x!.data[src]!;
    }
    return [{ dtype: x!.dtype, shape: type.shape, data: out }];
  },
  formatAttrs: (a) => a.axes.map((ax, i) => `${ax}:${a.starts[i]}+${a.steps[i]}×${a.counts[i]}`).join(' '),
};

function sliceType(x: TensorType, { axes, counts }: SliceAttrs): TensorType {
  const shape = [...x.shape];
  axes.forEach((a, i) => (shape[a] = counts[i]!));
  return { dtype: x.dtype, shape };
}

/**
 * x[starts:ends:steps] along `axes` (default: the first starts.length axes; steps default 1). Bounds follow
 * NumPy: negative counts from the end, out-of-range clamps (±Infinity allowed).
 */
export function slice(x: Tensor, starts: readonly number[], ends: readonly number[], axes?: readonly number[], steps?: readonly number[]): Tensor {
  const ax = (axes ?? starts.map((_, i) => i)).map((a) => normalizeAxis('slice', a, x.rank));
  const st = steps ?? starts.map(() => 1);
  if (starts.length !== ax.length || ends.length !== ax.length || st.length !== ax.length) {
    shapeError('slice', `starts, ends, axes and steps must have the same length, got ${starts.length}, ${ends.length}, ${ax.length}, ${st.length}`);
  }
  if (new Set(ax).size !== ax.length) shapeError('slice', `axes ${JSON.stringify(ax)} contain a duplicate`);
  const nStarts: number[] = [],
    nCounts: number[] = [];
  ax.forEach((a, i) => {
    const d = x.shape[a]!;
    const step = st[i]!;
    if (!Number.isInteger(step) || step === 0) shapeError('slice', `steps must be non-zero integers, got ${step} for axis ${a} of ${formatShape(x.shape)}`);
    const norm = (v: number, lo: number, hi: number) => Math.min(Math.max(v < 0 ? v + d : v, lo), hi);
    if (Number.isNaN(starts[i]!) || Number.isNaN(ends[i]!)) shapeError('slice', 'starts and ends must be numbers');
    let s: number, n: number;
    if (step > 0) {
      s = norm(starts[i]!, 0, d);
      const e = norm(ends[i]!, 0, d);
      n = Math.max(0, Math.ceil((e - s) / step));
    } else {
      s = norm(starts[i]!, -1, d - 1);
      const e = norm(ends[i]!, -1, d - 1);
      n = Math.max(0, Math.ceil((s - e) / -step));
    }
    nStarts.push(s);
    nCounts.push(n);
  });
  const identity = ax.every((a, i) => st[i] === 1 && nStarts[i] === 0 && nCounts[i] === x.shape[a]);
  if (identity) return x;
  return apply1(sliceOp, [x], { axes: ax, starts: nStarts, steps: [...st], counts: nCounts });
}

/** Reverse the order of elements along `axes` (a slice with step −1). */
export function flip(x: Tensor, axes: readonly number[]): Tensor {
  return slice(
    x,
    axes.map(() => -1),
    axes.map(() => -Infinity),
    axes,
    axes.map(() => -1),
  );
}
