import { InvalidArgumentError } from '../util/errors.js';
import { buildGraph, checkSpec, type Graph, type GraphOutput, type TensorSpec } from './ir/graph.js';
import { Tensor } from './ir/tensor.js';

/** Input specs by name. */
export type InputSpecs = Readonly<Record<string, TensorSpec>>;

/** Placeholders handed to a traced function, one per spec, under the same names. */
export type Placeholders<S extends InputSpecs> = { readonly [K in keyof S]: Tensor };

/** What a traced function may return: one tensor (named "output"), an array ("output0", …) or a record. */
export type TraceResult = Tensor | readonly Tensor[] | Readonly<Record<string, Tensor>>;

/** A placeholder (graph input) tensor; `trace` makes these for you. */
export function placeholder(name: string, spec: TensorSpec): Tensor {
  const s = checkSpec(`input "${name}"`, spec);
  return new Tensor(s.dtype, s.shape, { kind: 'input', name });
}

/**
 * Trace `fn` on placeholders with the given STATIC shapes and record the graph it builds (ops with only
 * constant inputs are folded; unused work is dropped). `fn` runs once, now.
 *
 *   const g = trace(({ x, w }) => x.matmul(w).relu(), { x: { dtype: 'float32', shape: [8, 4] }, w: … });
 */
export function trace<S extends InputSpecs>(fn: (inputs: Placeholders<S>) => TraceResult, specs: S, options: { name?: string } = {}): Graph {
  if (typeof fn !== 'function') throw new InvalidArgumentError('fn', 'a function', typeof fn);
  if (typeof specs !== 'object' || specs === null) throw new InvalidArgumentError('specs', 'a record of { dtype, shape }', String(specs));
  const inputs: Record<string, Tensor> = {};
  for (const [name, spec] of Object.entries(specs)) inputs[name] = placeholder(name, spec);
  const result = fn(inputs as Placeholders<S>);
  return buildGraph(options.name ?? (fn.name || 'main'), Object.values(inputs), namedOutputs(result));
}

/** Normalise a traced function's result to named outputs. */
export function namedOutputs(result: TraceResult): GraphOutput[] {
  if (result instanceof Tensor) return [{ name: 'output', tensor: result }];
  if (Array.isArray(result)) {
    return result.map((tensor, i) => {
      if (!(tensor instanceof Tensor)) throw new InvalidArgumentError(`output ${i}`, 'a Tensor', typeof tensor);
      return { name: `output${i}`, tensor };
    });
  }
  if (typeof result !== 'object' || result === null) throw new InvalidArgumentError('traced function result', 'a Tensor, an array or a record of Tensors', String(result));
  return Object.entries(result as Record<string, unknown>).map(([name, tensor]) => {
    if (!(tensor instanceof Tensor)) throw new InvalidArgumentError(`output "${name}"`, 'a Tensor', typeof tensor);
    return { name, tensor };
  });
}
