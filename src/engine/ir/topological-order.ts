import type { Node, Tensor } from './tensor.js';

/**
 * The nodes reachable from `roots`, producers before consumers, in a deterministic order: iterative depth-first
 * post-order from the roots in order, inputs in order. `onLeaf` is called on each root or node input that is not
 * produced by a node (placeholder or constant), every time it is met, in visiting order.
 */
export function topologicalNodes(roots: readonly Tensor[], onLeaf?: (t: Tensor) => void): Node[] {
  const visited = new Set<Node>();
  const order: Node[] = [];
  for (const root of roots) {
    if (root.source.kind !== 'node') {
      onLeaf?.(root);
      continue;
    }
    if (visited.has(root.source.node)) continue;
    visited.add(root.source.node);
    // Stack of (node, next input position).
    const stack: [Node, number][] = [[root.source.node, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [node, pos] = top;
      if (pos < node.inputs.length) {
        top[1] = pos + 1;
        const t = node.inputs[pos]!;
        if (t.source.kind !== 'node') onLeaf?.(t);
        else if (!visited.has(t.source.node)) {
          visited.add(t.source.node);
          stack.push([t.source.node, 0]);
        }
      } else {
        stack.pop();
        order.push(node);
      }
    }
  }
  return order;
}
