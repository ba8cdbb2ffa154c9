import { shapeError } from './shape-error.js';

/** A static tensor shape: one non-negative integer per axis; `[]` is a scalar. */
export type Shape = readonly number[];

/** `[2,3]` → "[2,3]" (for messages and the printer). */
export function formatShape(shape: Shape): string {
  return `[${shape.join(',')}]`;
}

/** Number of elements: the product of the dimensions (1 for a scalar). */
export function shapeSize(shape: Shape): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/** Row-major strides in elements. */
export function stridesOf(shape: Shape): number[] {
  const s = new Array<number>(shape.length);
  let acc = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    s[i] = acc;
    acc *= shape[i]!;
  }
  return s;
}

/** True when both shapes have the same rank and dimensions. */
export function sameShape(a: Shape, b: Shape): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

/** Check that `shape` is a list of non-negative integers; `what` names it in the error. */
export function checkShape(op: string, shape: unknown, what = 'shape'): Shape {
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
    shapeError(op, `${what} must be an array of non-negative integers, got ${JSON.stringify(shape)}`);
  }
  return shape as Shape;
}

/**
 * NumPy broadcasting of two shapes (align trailing axes; a dimension of 1 stretches).
 * Throws `op: shapes [2,3] and [4] cannot be broadcast (3 ≠ 4 at axis -1)`.
 */
export function broadcastShapes(op: string, a: Shape, b: Shape): Shape {
  const rank = Math.max(a.length, b.length);
  const out = new Array<number>(rank);
  for (let i = 1; i <= rank; i++) {
    const da = i <= a.length ? a[a.length - i]! : 1;
    const db = i <= b.length ? b[b.length - i]! : 1;
    if (da !== db && da !== 1 && db !== 1) {
      shapeError(op, `shapes ${formatShape(a)} and ${formatShape(b)} cannot be broadcast (${da} ≠ ${db} at axis -${i})`);
    }
    out[rank - i] = da === 1 ? db : da;
  }
  return out;
}

/** Resolve a possibly negative `axis` of a rank-`rank` tensor to [0, rank); throws naming the op. */
export function normalizeAxis(op: string, axis: number, rank: number): number {
  if (!Number.isInteger(axis) || axis < -rank || axis >= Math.max(rank, 1)) {
    shapeError(op, `axis ${axis} is out of range for a tensor of rank ${rank}`);
  }
  return axis < 0 ? axis + rank : axis;
}

/** Resolve a list of axes (undefined = all axes), sorted, without duplicates. */
export function normalizeAxes(op: string, axes: number | readonly number[] | undefined, rank: number): number[] {
  if (axes === undefined) return Array.from({ length: rank }, (_, i) => i);
  const list = typeof axes === 'number' ? [axes] : axes;
  const out = list.map((a) => normalizeAxis(op, a, rank));
  const sorted = [...new Set(out)].sort((x, y) => x - y);
  if (sorted.length !== out.length) shapeError(op, `axes ${JSON.stringify(list)} contain a duplicate`);
  return sorted;
}
