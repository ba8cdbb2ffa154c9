/**
 * Parameter trees. A model's parameters (and its buffers: batch-norm running statistics) form a tree of arrays
 * (Equinox-style); we keep it flattened to an ordered record from dotted path ("stage1.0.conv1.weight", PyTorch
 * state_dict naming) to leaf. The same paths name graph inputs, checkpoint entries and ONNX initializers, and
 * the declaration order fixes the layout of the packed flat vectors.
 */
import type { Shape, Tensor } from '../engine/index.js';

/** An ordered map from dotted path to leaf. */
export type Tree<T> = Readonly<Record<string, T>>;

/** Host values of a tree: float32 arrays, row-major, one per path. */
export type HostTree = Tree<Float32Array>;

/** Symbolic values of a tree inside a trace. */
export type TensorTree = Tree<Tensor>;

/** The ordered shapes of a tree. */
export type ShapeTree = Tree<Shape>;

/** Number of elements of all leaves together. */
export function treeSize(shapes: ShapeTree): number {
  let n = 0;
  for (const s of Object.values(shapes)) n += s.reduce((a, b) => a * b, 1);
  return n;
}

/** A deep copy of a host tree (new arrays, same order). */
export function cloneHostTree(tree: HostTree): Record<string, Float32Array> {
  const out: Record<string, Float32Array> = {};
  for (const [k, v] of Object.entries(tree)) out[k] = v.slice();
  return out;
}

/** Join path segments with dots, skipping empty ones (`joinPath('layer1', '0', 'conv1')`). */
export function joinPath(...parts: readonly (string | number)[]): string {
  return parts.filter((p) => p !== '').join('.');
}
