import type { Graph } from './graph.js';
import { formatShape, sameShape } from './shape.js';
import type { Tensor } from './tensor.js';

/**
 * Type/shape checker: re-runs every node's shape rule on its inputs and compares with the recorded outputs,
 * and checks that nodes appear after their inputs' producers and that only declared inputs and constants are
 * used. Returns the list of problems (empty = well-typed). Graph builders maintain these invariants; the
 * checker guards transformations and hand-built graphs.
 */
export function checkGraph(graph: Graph): string[] {
  const problems: string[] = [];
  const available = new Set<Tensor>([...graph.inputs, ...graph.constants]);
  graph.nodes.forEach((node, k) => {
    node.inputs.forEach((t, i) => {
      if (!available.has(t)) problems.push(`node ${k} (${node.op.name}): input ${i} is not defined before use`);
    });
    let inferred;
    try {
      inferred = node.op.infer(node.inputs, node.attrs);
    } catch (e) {
      problems.push(`node ${k} (${node.op.name}): ${(e as Error).message}`);
      return;
    }
    if (inferred.length !== node.outputs.length) {
      problems.push(`node ${k} (${node.op.name}): ${node.outputs.length} outputs recorded, rule gives ${inferred.length}`);
    }
    node.outputs.forEach((o, i) => {
      const t = inferred[i];
      if (t && (t.dtype !== o.dtype || !sameShape(t.shape, o.shape))) {
        problems.push(`node ${k} (${node.op.name}): output ${i} recorded as ${o.dtype}${formatShape(o.shape)}, rule gives ${t.dtype}${formatShape(t.shape)}`);
      }
      available.add(o);
    });
  });
  graph.outputs.forEach((o) => {
    if (!available.has(o.tensor)) problems.push(`output "${o.name}" is not computed by the graph`);
  });
  return problems;
}
