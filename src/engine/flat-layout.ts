import { describe, InvalidArgumentError } from '../util/errors.js';
import { checkShape, formatShape, type Shape, shapeSize } from './ir/shape.js';
import type { Tensor } from './ir/tensor.js';
import { concat } from './ops/shape/concat.js';
import { reshape } from './ops/shape/reshape.js';
import { slice } from './ops/shape/slice.js';

/** One named tensor's place inside a flat vector. */
export interface FlatEntry {
  readonly name: string;
  readonly shape: Shape;
  readonly offset: number;
  readonly size: number;
}

/**
 * Packs many named tensors (parameters, optimizer state, BN buffers) into ONE flat 1-D vector, in a fixed
 * order. Feeding and fetching a few flat vectors is much cheaper per run than hundreds of small tensors
 * (ENGINE-NOTES: 156 tensors 1.7 ms vs 3 flat vectors 0.24 ms). Inside a trace, `unpack` slices the flat input
 * into shaped tensors and `pack` concatenates updated tensors back; on the host, `packHost`/`views` do the same
 * with typed arrays (views share memory, no copy).
 */
export class FlatLayout {
  readonly entries: readonly FlatEntry[];
  /** Total number of elements. */
  readonly size: number;
  private readonly byName: ReadonlyMap<string, FlatEntry>;

  constructor(shapes: ReadonlyArray<readonly [string, Shape]> | Readonly<Record<string, Shape>>) {
    const list = Array.isArray(shapes) ? (shapes as ReadonlyArray<readonly [string, Shape]>) : Object.entries(shapes as Record<string, Shape>);
    let offset = 0;
    const entries: FlatEntry[] = [];
    for (const [name, shape] of list) {
      checkShape('FlatLayout', shape, `shape of "${name}"`);
      const size = shapeSize(shape);
      entries.push({ name, shape: [...shape], offset, size });
      offset += size;
    }
    this.entries = entries;
    this.size = offset;
    this.byName = new Map(entries.map((e) => [e.name, e]));
    if (this.byName.size !== entries.length) throw new InvalidArgumentError('shapes', 'distinct names', 'a repeated name');
  }

  /** The entry for `name`. */
  entry(name: string): FlatEntry {
    const e = this.byName.get(name);
    if (!e) throw new InvalidArgumentError('name', `one of ${this.entries.map((x) => x.name).join(', ')}`, JSON.stringify(name));
    return e;
  }

  /** Inside a trace: the named tensors of a flat [size] tensor (Slice + Reshape each). */
  unpack(flat: Tensor): Record<string, Tensor> {
    if (flat.rank !== 1 || flat.shape[0] !== this.size) throw new InvalidArgumentError('flat', `a tensor of shape [${this.size}]`, formatShape(flat.shape));
    const out: Record<string, Tensor> = {};
    for (const e of this.entries) out[e.name] = reshape(slice(flat, [e.offset], [e.offset + e.size], [0]), e.shape);
    return out;
  }

  /** Inside a trace: one flat [size] tensor from the named tensors (in layout order; Reshape + Concat). */
  pack(tensors: Readonly<Record<string, Tensor>>): Tensor {
    const parts = this.entries.map((e) => {
      const t = tensors[e.name];
      if (!t) throw new InvalidArgumentError(`tensors.${e.name}`, `a tensor of shape ${formatShape(e.shape)}`, 'nothing');
      if (shapeSize(t.shape) !== e.size) throw new InvalidArgumentError(`tensors.${e.name}`, `shape ${formatShape(e.shape)}`, formatShape(t.shape));
      return reshape(t, [e.size]);
    });
    return concat(parts, 0);
  }

  /** On the host: a new flat array holding `values` (each of its entry's size) in layout order. */
  packHost<T extends Float32Array | Float64Array>(values: Readonly<Record<string, ArrayLike<number>>>, into: T): T {
    if (into.length !== this.size) throw new InvalidArgumentError('into', `an array of length ${this.size}`, describe(into));
    for (const e of this.entries) {
      const v = values[e.name];
      if (!v || v.length !== e.size) throw new InvalidArgumentError(`values.${e.name}`, `${e.size} values`, describe(v));
      into.set(v, e.offset);
    }
    return into;
  }

  /** On the host: views (no copy) of each entry inside a flat array. */
  views<T extends Float32Array | Float64Array>(flat: T): Record<string, T> {
    if (flat.length !== this.size) throw new InvalidArgumentError('flat', `an array of length ${this.size}`, describe(flat));
    const out: Record<string, T> = {};
    for (const e of this.entries) out[e.name] = flat.subarray(e.offset, e.offset + e.size) as T;
    return out;
  }
}
