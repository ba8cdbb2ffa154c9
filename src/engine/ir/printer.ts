import type { Graph } from './graph.js';
import { formatShape, shapeSize } from './shape.js';
import type { Tensor } from './tensor.js';

/**
 * Human-readable text of a graph, one node per line (autodidax style), e.g.
 *
 *   graph mlp(x: float32[4,3], w: float32[3,2]) {
 *     %0: float32[4,2] = matmul(x, w)
 *     %1: float32[4,2] = relu(%0)
 *     return { output: %1 }
 *   }
 *
 * Constants print as `#k` with their type (and values when at most 4 elements).
 */
export function printGraph(graph: Graph): string {
  const names = new Map<Tensor, string>();
  graph.inputs.forEach((t) => names.set(t, t.source.kind === 'input' ? t.source.name : '?'));
  graph.constants.forEach((t, k) => {
    const data = t.source.kind === 'constant' ? t.source.data : new Float64Array();
    const values = shapeSize(t.shape) <= 4 ? `(${Array.from(data).join(',')})` : '';
    names.set(t, `#${k}:${t.dtype}${formatShape(t.shape)}${values}`);
  });
  let next = 0;
  const lines: string[] = [];
  const header = graph.inputs.map((t) => `${names.get(t)}: ${t.dtype}${formatShape(t.shape)}`).join(', ');
  lines.push(`graph ${graph.name}(${header}) {`);
  for (const node of graph.nodes) {
    const outs = node.outputs.map((o) => {
      const n = `%${next++}`;
      names.set(o, n);
      return `${n}: ${o.dtype}${formatShape(o.shape)}`;
    });
    const attrs = node.op.formatAttrs ? node.op.formatAttrs(node.attrs) : JSON.stringify(node.attrs);
    const args = node.inputs.map((t) => names.get(t) ?? '?').join(', ');
    const attrText = attrs && attrs !== '{}' ? ` {${attrs}}` : '';
    lines.push(`  ${outs.join(', ')} = ${node.op.name}(${args})${attrText}`);
  }
  lines.push(`  return { ${graph.outputs.map((o) => `${o.name}: ${names.get(o.tensor) ?? '?'}`).join(', ')} }`);
  lines.push('}');
  return lines.join('\n');
}
