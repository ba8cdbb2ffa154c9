import { InvalidArgumentError } from '../../util/errors.js';
import { isFloat } from '../ir/dtype.js';
import { formatShape, sameShape } from '../ir/shape.js';
import { type Node, Tensor } from '../ir/tensor.js';
import { topologicalNodes } from '../ir/topological-order.js';
import { add } from '../ops/math/add.js';
import { cast } from '../ops/logic/cast.js';
import { full, zerosLike } from '../ops/shape/fill.js';
import { sumTo } from './sum-to.js';

/**
 * Reverse-mode vector–Jacobian product: given `outputs` and a cotangent for each (same shape and dtype),
 * return Σ_o cotangent_o · ∂output_o/∂w for every tensor w in `wrt` (zeros where w does not influence the
 * outputs). The result is traced ops, so it composes with the forward pass into one graph (a whole train
 * step). The driver walks the nodes in reverse topological order, calls each primitive's VJP rule, sums each
 * cotangent back to its input's shape (un-broadcasting) and accumulates contributions with `add`. Only nodes
 * on a path from `wrt` to `outputs` are differentiated; work whose result is unused never reaches the graph.
 */
export function vjp(outputs: readonly Tensor[], cotangents: readonly Tensor[], wrt: readonly Tensor[]): Tensor[] {
  if (outputs.length !== cotangents.length) throw new InvalidArgumentError('cotangents', `${outputs.length} tensors (one per output)`, String(cotangents.length));
  wrt.forEach((w, i) => {
    if (!(w instanceof Tensor)) throw new InvalidArgumentError(`wrt[${i}]`, 'a Tensor', typeof w);
    if (!isFloat(w.dtype)) throw new InvalidArgumentError(`wrt[${i}]`, 'a float32/float64 tensor', `${w.dtype}${formatShape(w.shape)}`);
  });
  outputs.forEach((o, i) => {
    const c = cotangents[i]!;
    if (!(o instanceof Tensor) || !(c instanceof Tensor)) throw new InvalidArgumentError(`outputs[${i}]`, 'Tensors', typeof o);
    if (c.dtype !== o.dtype || !sameShape(c.shape, o.shape)) {
      throw new InvalidArgumentError(`cotangents[${i}]`, `${o.dtype}${formatShape(o.shape)} like its output`, `${c.dtype}${formatShape(c.shape)}`);
    }
  });

  const nodes = topologicalNodes(outputs);
  // Forward pass over the nodes: which tensors depend on some w in wrt.
  const active = new Set<Tensor>(wrt);
  const activeNodes = new Set<Node>();
  for (const node of nodes) {
    if (node.op.vjp && node.inputs.some((t) => active.has(t))) {
      activeNodes.add(node);
      for (const o of node.outputs) if (isFloat(o.dtype)) active.add(o);
    }
  }

  const cts = new Map<Tensor, Tensor>();
  const accumulate = (t: Tensor, c: Tensor): void => {
    const prev = cts.get(t);
    cts.set(t, prev ? add(prev, c) : c);
  };
  outputs.forEach((o, i) => {
    if (active.has(o)) accumulate(o, cotangents[i]!);
  });

  for (let k = nodes.length - 1; k >= 0; k--) {
    const node = nodes[k]!;
    if (!activeNodes.has(node)) continue;
    const outCts = node.outputs.map((o) => cts.get(o) ?? null);
    if (outCts.every((c) => c === null)) continue;
    const inCts = node.op.vjp!({ inputs: node.inputs, outputs: node.outputs, cotangents: outCts, attrs: node.attrs });
    node.inputs.forEach((t, i) => {
      const c = inCts[i];
      if (!c || !active.has(t)) return;
      let g = sumTo(c, t.shape);
      if (g.dtype !== t.dtype) g = cast(g, t.dtype);
      accumulate(t, g);
    });
  }
  return wrt.map((w) => cts.get(w) ?? zerosLike(w));
}

/**
 * Gradients of a scalar float `loss` with respect to each tensor in `wrt` (reverse mode; see `vjp`). Usable
 * inside a trace, so forward, loss, backward and the optimizer update form one graph.
 */
export function grad(loss: Tensor, wrt: readonly Tensor[]): Tensor[] {
  if (!(loss instanceof Tensor)) throw new InvalidArgumentError('loss', 'a Tensor', typeof loss);
  if (loss.rank !== 0 || !isFloat(loss.dtype)) throw new InvalidArgumentError('loss', 'a float scalar (shape [])', `${loss.dtype}${formatShape(loss.shape)}`);
  return vjp([loss], [full([], 1, loss.dtype)], wrt);
}
