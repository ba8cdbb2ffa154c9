/** Input and output signatures (name, dtype, static shape) of a graph, as a Session reports them. */
import type { Graph } from '../ir/graph.js';
import type { ValueSignature } from './session.js';

export function loweredGraphSignature(graph: Graph): { inputs: ValueSignature[]; outputs: ValueSignature[] } {
  return {
    inputs: graph.inputs.map((t) => ({ name: t.source.kind === 'input' ? t.source.name : '?', dtype: t.dtype, shape: t.shape })),
    outputs: graph.outputs.map((o) => ({ name: o.name, dtype: o.tensor.dtype, shape: o.tensor.shape })),
  };
}
