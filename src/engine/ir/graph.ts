import type { DType } from './dtype.js';
import { isDType } from './dtype.js';
import type { Shape } from './shape.js';
import { checkShape, formatShape } from './shape.js';
import { InvalidArgumentError } from '../../util/errors.js';
import type { Node, Tensor } from './tensor.js';
import { topologicalNodes } from './topological-order.js';

/** Declared type of a graph input. */
export interface TensorSpec {
  readonly dtype: DType;
  readonly shape: Shape;
}

/** A named graph output. */
export interface GraphOutput {
  readonly name: string;
  readonly tensor: Tensor;
}

/**
 * A traced computation: named inputs (placeholders), the nodes reachable from the outputs in topological
 * order, the constants they use, and named outputs. Immutable; produced by `trace` or `buildGraph`.
 */
export interface Graph {
  readonly name: string;
  readonly inputs: readonly Tensor[];
  readonly nodes: readonly Node[];
  readonly constants: readonly Tensor[];
  readonly outputs: readonly GraphOutput[];
}

/** Validate a spec ({dtype, shape}); `what` names it in errors. */
export function checkSpec(what: string, spec: unknown): TensorSpec {
  const s = spec as Partial<TensorSpec> | null;
  if (typeof s !== 'object' || s === null) throw new InvalidArgumentError(what, '{ dtype, shape }', typeof spec);
  if (!isDType(s.dtype)) throw new InvalidArgumentError(`${what}.dtype`, 'float32, float64, int32, int64 or bool', JSON.stringify(s.dtype));
  if (!Array.isArray(s.shape) || !s.shape.every((d) => Number.isInteger(d) && d >= 0)) {
    throw new InvalidArgumentError(`${what}.shape`, 'an array of non-negative integers', JSON.stringify(s.shape));
  }
  checkShape(what, s.shape);
  return { dtype: s.dtype, shape: [...s.shape] };
}

/**
 * Collect the graph that computes `outputs` from `inputs`: nodes in a deterministic topological order
 * (iterative depth-first post-order from the outputs, in output order), reachable constants, and a check
 * that every placeholder reached is one of `inputs` (a tensor from another trace is an error).
 */
export function buildGraph(name: string, inputs: readonly Tensor[], outputs: readonly GraphOutput[]): Graph {
  const inputSet = new Set(inputs);
  const names = new Set<string>();
  for (const t of inputs) {
    if (t.source.kind !== 'input') throw new InvalidArgumentError('inputs', 'placeholder tensors', t.toString());
    if (names.has(t.source.name)) throw new InvalidArgumentError('inputs', 'distinct names', `"${t.source.name}" twice`);
    names.add(t.source.name);
  }
  const outNames = new Set<string>();
  for (const o of outputs) {
    if (outNames.has(o.name)) throw new InvalidArgumentError('outputs', 'distinct names', `"${o.name}" twice`);
    outNames.add(o.name);
  }
  const constants = new Set<Tensor>(); // in first-use order
  const nodes = topologicalNodes(
    outputs.map((o) => o.tensor),
    (t) => {
      if (t.source.kind === 'constant') constants.add(t);
      else if (t.source.kind === 'input' && !inputSet.has(t)) {
        throw new InvalidArgumentError(`graph "${name}"`, 'tensors created inside this trace', `placeholder "${t.source.name}" ${t.dtype}${formatShape(t.shape)} from another trace`);
      }
    },
  );
  return { name, inputs: [...inputs], nodes, constants: [...constants], outputs: [...outputs] };
}
