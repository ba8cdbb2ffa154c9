import { InvalidArgumentError, describe } from '../../util/errors.js';
import { dtypeOfHost, hostToFloat64, type HostArray } from '../ir/dtype.js';
import type { Graph } from '../ir/graph.js';
import type { HostTensor } from '../ir/primitive.js';
import { formatShape, shapeSize } from '../ir/shape.js';
import type { Tensor } from '../ir/tensor.js';

/** A reference-evaluator feed: any typed array or number array (held as float64), or a number for scalars. */
export type ReferenceFeed = HostArray | readonly number[] | number;

/**
 * Evaluate a graph with every primitive's plain-TypeScript float64 reference implementation, whatever the
 * graph's declared dtypes (a float32 graph is computed in float64). This is the ground truth for gradient
 * checks (ORT has no float64 Conv) and pins ORT's float32 results. Slow: meant for small shapes.
 */
export function evaluate(graph: Graph, feeds: Readonly<Record<string, ReferenceFeed>>): Record<string, HostTensor> {
  const values = new Map<Tensor, HostTensor>();
  for (const t of graph.inputs) {
    const name = t.source.kind === 'input' ? t.source.name : '?';
    const feed = feeds[name];
    const n = shapeSize(t.shape);
    let data: Float64Array;
    if (typeof feed === 'number') data = Float64Array.of(feed);
    else if (Array.isArray(feed)) data = Float64Array.from(feed);
    else if (feed !== undefined && dtypeOfHost(feed) !== null) data = hostToFloat64(feed as HostArray);
    else throw new InvalidArgumentError(`feeds.${name}`, `values for ${t.dtype}${formatShape(t.shape)}`, describe(feed));
    if (data.length !== n) throw new InvalidArgumentError(`feeds.${name}`, `${n} values for ${t.dtype}${formatShape(t.shape)}`, String(data.length));
    values.set(t, { dtype: t.dtype, shape: t.shape, data });
  }
  for (const t of graph.constants) {
    if (t.source.kind === 'constant') values.set(t, { dtype: t.dtype, shape: t.shape, data: t.source.data });
  }
  for (const node of graph.nodes) {
    const ins = node.inputs.map((t) => {
      const v = values.get(t);
      if (!v) throw new Error(`internal: reference evaluation of ${node.op.name} reached an undefined value`);
      return v;
    });
    const outs = node.op.reference(ins, node.attrs);
    node.outputs.forEach((o, i) => values.set(o, { dtype: o.dtype, shape: o.shape, data: outs[i]!.data }));
  }
  const result: Record<string, HostTensor> = {};
  for (const o of graph.outputs) result[o.name] = values.get(o.tensor)!;
  return result;
}
