/**
 * Test helper shared by the op table: for one case, run the forward graph on ORT (float32) and on the float64
 * reference, check gradients by finite differences in float64 (random direction), and run the traced
 * gradient graph on ORT against the reference too (this exercises the ONNX emission of every VJP).
 */
import assert from 'node:assert/strict';
import { type DType, type Graph, Tensor, type TraceResult, add, checkGradients, compile, constant, evaluate, grad, mul, sum, trace } from '../../src/engine/index.js';
import { Random } from '../../src/util/random.js';

/** A sampler draws one input element (respecting the op's domain). */
export type Sampler = (rng: Random) => number;

export const samplers = {
  normal: (rng: Random) => rng.normal(),
  positive: (rng: Random) => 0.2 + 2 * rng.uniform(),
  awayFromZero: (rng: Random) => (rng.uniform() < 0.5 ? -1 : 1) * (0.2 + rng.uniform()),
  unit: (rng: Random) => 0.05 + 0.9 * rng.uniform(),
  bool: (rng: Random) => (rng.uniform() < 0.5 ? 0 : 1),
  int: (n: number) => (rng: Random) => rng.int(n),
};

/** One input of a case. */
export interface CaseInput {
  readonly shape: readonly number[];
  readonly dtype?: DType;
  readonly sample?: Sampler;
  /** Fixed values instead of samples. */
  readonly values?: readonly number[];
}

/** One row of the op table. */
export interface OpCase {
  readonly name: string;
  readonly inputs: Readonly<Record<string, CaseInput>>;
  readonly fn: (x: Readonly<Record<string, Tensor>>) => TraceResult;
  /** Check gradients (default: true). */
  readonly grad?: boolean;
  /** Inputs to differentiate (default: all float inputs). */
  readonly wrt?: readonly string[];
  /** Tolerance of ORT float32 vs float64 reference (abs + rel, default 2e-5). */
  readonly tol?: number;
  /** Gradient-check relative tolerance (default 1e-6). */
  readonly gradRtol?: number;
}

/** Deterministic sampled inputs of a case (float64 values; float32 inputs are rounded to float32 first). */
export function sampleInputs(c: OpCase, seed: number): Record<string, Float64Array> {
  const rng = new Random(seed);
  const out: Record<string, Float64Array> = {};
  for (const [name, input] of Object.entries(c.inputs)) {
    const n = input.shape.reduce((a, b) => a * b, 1);
    const sample = input.sample ?? samplers.normal;
    const values = input.values ? Float64Array.from(input.values) : Float64Array.from({ length: n }, () => sample(rng));
    if ((input.dtype ?? 'float32') === 'float32') values.forEach((v, i) => (values[i] = Math.fround(v)));
    out[name] = values;
  }
  return out;
}

function hostFeed(dtype: DType, values: Float64Array): Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array {
  switch (dtype) {
    case 'float32':
      return Float32Array.from(values);
    case 'float64':
      return values;
    case 'int32':
      return Int32Array.from(values);
    case 'int64':
      return BigInt64Array.from(values, (v) => BigInt(v));
    default:
      return Uint8Array.from(values);
  }
}

/** Max over elements of |ort − ref| / (1 + |ref|), treating equal infinities/NaNs as equal. */
export function maxRelError(ort: ArrayLike<number | bigint>, ref: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    const a = Number(ort[i]!),
      b = ref[i]!;
    if (a === b || (Number.isNaN(a) && Number.isNaN(b))) continue;
    worst = Math.max(worst, Math.abs(a - b) / (1 + Math.abs(b)));
  }
  return worst;
}

/** Run ORT vs reference on one graph; returns the primitive names the graph uses. */
export function compareGraph(graph: Graph, feeds: Record<string, Float64Array>, dtypes: Record<string, DType>, tol: number, label: string): Set<string> {
  const session = compile(graph);
  try {
    const ortFeeds = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, hostFeed(dtypes[k]!, v)]));
    const got = session.run(ortFeeds);
    const ref = evaluate(graph, feeds);
    for (const o of graph.outputs) {
      const err = maxRelError(got[o.name] as ArrayLike<number>, ref[o.name]!.data);
      assert.ok(err <= tol, `${label}: output "${o.name}" ORT vs reference error ${err.toExponential(2)} > ${tol}`);
    }
  } finally {
    session.dispose();
  }
  return new Set(graph.nodes.map((n) => n.op.name));
}

/** Run every check of a case; returns the primitives exercised. */
export function runCase(c: OpCase, seed = 1): Set<string> {
  const values = sampleInputs(c, seed);
  const dtypes = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, v.dtype ?? 'float32'])) as Record<string, DType>;
  const specs = Object.fromEntries(Object.entries(c.inputs).map(([k, v]) => [k, { dtype: v.dtype ?? 'float32', shape: v.shape }]));
  const used = compareGraph(trace(c.fn, specs), values, dtypes, c.tol ?? 2e-5, `${c.name} forward`);
  if (c.grad === false) return used;

  // Gradient by finite differences, float64 throughout.
  const inputs = Object.fromEntries(
    Object.entries(c.inputs).map(([k, v]) => [k, { shape: v.shape, data: values[k]!, dtype: v.dtype === 'float32' || v.dtype === undefined ? ('float64' as const) : v.dtype }]),
  );
  const report = checkGradients(c.fn, inputs, { seed, ...(c.wrt ? { wrt: c.wrt } : {}), rtol: c.gradRtol ?? 1e-6 });
  assert.ok(report.ok, `${c.name} gradient: ${JSON.stringify(report.directions)}`);

  // The gradient graph itself on ORT (float32) vs reference.
  const wrt = c.wrt ?? Object.keys(c.inputs).filter((k) => dtypes[k] === 'float32' || dtypes[k] === 'float64');
  const rng = new Random(seed + 1000);
  const backward = trace((x) => {
    const outs = c.fn(x);
    const list = (outs instanceof Tensor ? [outs] : Array.isArray(outs) ? outs : Object.values(outs)) as Tensor[];
    let L: Tensor | null = null;
    for (const o of list) {
      if (o.dtype !== 'float32' && o.dtype !== 'float64') continue;
      const u = constant(
        Float64Array.from({ length: o.size }, () => rng.normal()),
        { shape: o.shape, dtype: o.dtype },
      );
      const term = sum(mul(o, u));
      L = L ? add(L, term) : term;
    }
    const gs = grad(
      L!,
      wrt.map((k) => x[k]!),
    );
    return Object.fromEntries(wrt.map((k, i) => [`d_${k}`, gs[i]!]));
  }, specs);
  for (const n of compareGraph(backward, values, dtypes, (c.tol ?? 2e-5) * 5, `${c.name} backward`)) used.add(n);
  return used;
}
