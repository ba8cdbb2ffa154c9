import assert from 'node:assert/strict';
import { compile, evaluate, grad, trace, type Tensor } from '../../src/engine/index.js';
import type { LossResult, LossTargets } from '../../src/losses/index.js';
import { Random } from '../../src/util/random.js';

/** Host inputs of one loss evaluation. */
export interface LossCase {
  /** Logits, row-major, shape `shape` ([N, C] or [N, C, H, W]). */
  readonly logits: ArrayLike<number>;
  readonly shape: readonly number[];
  /** Integer labels, shape [N] or [N, H, W]. */
  readonly labels?: ArrayLike<number>;
  /** Soft targets, same shape as the logits. */
  readonly soft?: ArrayLike<number>;
  /** CRL history counts [N]. */
  readonly counts?: ArrayLike<number>;
}

/** How a loss is built from traced inputs. */
export type BuildLoss = (logits: Tensor, targets: LossTargets & { counts?: Tensor }) => LossResult;

/** Loss, terms and d loss / d logits (row-major like the logits), as float64 numbers. */
export interface Evaluated {
  readonly loss: number;
  readonly terms: Record<string, number>;
  readonly grad: Float64Array;
  readonly perExample?: Float64Array;
}

/**
 * Trace `build` with its gradient and run it: on the float64 reference evaluator (default) or compiled on ONNX
 * Runtime ('ort') in float32 or float64.
 */
export function evalLoss(build: BuildLoss, c: LossCase, options: { engine?: 'reference' | 'ort'; dtype?: 'float32' | 'float64' } = {}): Evaluated {
  const dtype = options.dtype ?? 'float64';
  const labelShape = [c.shape[0]!, ...c.shape.slice(2)];
  const specs: Record<string, { dtype: 'float32' | 'float64' | 'int32'; shape: number[] }> = { z: { dtype, shape: [...c.shape] } };
  if (c.labels) specs['y'] = { dtype: 'int32', shape: labelShape };
  if (c.soft) specs['q'] = { dtype, shape: [...c.shape] };
  if (c.counts) specs['h'] = { dtype, shape: [c.shape[0]!] };
  const graph = trace((x: Record<string, Tensor>) => {
    const targets: LossTargets & { counts?: Tensor } = {
      ...(x['y'] ? { labels: x['y'] } : {}),
      ...(x['q'] ? { soft: x['q'] } : {}),
      ...(x['h'] ? { counts: x['h'] } : {}),
    };
    const r = build(x['z']!, targets);
    const [dz] = grad(r.loss, [x['z']!]);
    const out: Record<string, Tensor> = { loss: r.loss, grad: dz! };
    for (const [k, v] of Object.entries(r.terms)) out[`term:${k}`] = v;
    if (r.perExample) out['perExample'] = r.perExample;
    return out;
  }, specs);
  const Float = dtype === 'float32' ? Float32Array : Float64Array;
  const feeds: Record<string, Float32Array | Float64Array | Int32Array> = { z: Float.from(c.logits) };
  if (c.labels) feeds['y'] = Int32Array.from(c.labels);
  if (c.soft) feeds['q'] = Float.from(c.soft);
  if (c.counts) feeds['h'] = Float.from(c.counts);
  let outputs: Record<string, ArrayLike<number>>;
  if (options.engine === 'ort') {
    const session = compile(graph);
    outputs = session.run(feeds) as Record<string, ArrayLike<number>>;
    session.dispose();
  } else {
    outputs = Object.fromEntries(Object.entries(evaluate(graph, feeds)).map(([k, v]) => [k, v.data]));
  }
  const terms: Record<string, number> = {};
  for (const [k, v] of Object.entries(outputs)) if (k.startsWith('term:')) terms[k.slice(5)] = v[0]!;
  return {
    loss: outputs['loss']![0]!,
    terms,
    grad: Float64Array.from(outputs['grad']!),
    ...(outputs['perExample'] ? { perExample: Float64Array.from(outputs['perExample']) } : {}),
  };
}

/** Random logits N(0, scale²) and labels, from a seed. */
export function randomCase(seed: number, shape: readonly number[], scale = 2): { logits: Float64Array; labels: Int32Array; shape: readonly number[] } {
  const rng = new Random(seed);
  const size = shape.reduce((a, b) => a * b, 1);
  const logits = Float64Array.from({ length: size }, () => rng.normal() * scale);
  const classes = shape[1]!;
  const labelCount = size / classes;
  const labels = Int32Array.from({ length: labelCount }, () => rng.int(classes));
  return { logits, labels, shape };
}

/** Random soft targets (rows sum to 1) for `rows` × `classes`, row-major [rows, classes]. */
export function randomSoft(seed: number, rows: number, classes: number): Float64Array {
  const rng = new Random(seed);
  const q = new Float64Array(rows * classes);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let k = 0; k < classes; k++) s += q[i * classes + k] = rng.uniform() ** 3;
    for (let k = 0; k < classes; k++) q[i * classes + k]! /= s;
  }
  return q;
}

/** |a − b| ≤ atol + rtol·|b|, with a message. */
export function assertClose(actual: number, expected: number, rtol: number, message: string, atol = 0): void {
  assert.ok(Number.isFinite(actual), `${message}: got ${actual}`);
  assert.ok(Math.abs(actual - expected) <= atol + rtol * Math.abs(expected), `${message}: ${actual} vs ${expected} (diff ${Math.abs(actual - expected).toExponential(2)})`);
}

/** Element-wise `assertClose`; returns the largest relative difference (w.r.t. max(|expected|∞, tiny)). */
export function assertAllClose(actual: ArrayLike<number>, expected: ArrayLike<number>, rtol: number, message: string, atol = 0): number {
  assert.equal(actual.length, expected.length, `${message}: lengths`);
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < expected.length; i++) scale = Math.max(scale, Math.abs(expected[i]!));
  for (let i = 0; i < expected.length; i++) {
    const a = actual[i]!;
    const e = expected[i]!;
    assert.ok(Number.isFinite(a), `${message}[${i}]: got ${a}`);
    assert.ok(Math.abs(a - e) <= atol + rtol * Math.max(Math.abs(e), scale * 1e-3), `${message}[${i}]: ${a} vs ${e}`);
    worst = Math.max(worst, Math.abs(a - e) / Math.max(scale, 1e-300));
  }
  return worst;
}

/** Transpose dense [N, C, S] row-major data to rows [N·S, C]. */
export function denseToRows(logits: ArrayLike<number>, shape: readonly number[]): number[][] {
  const [n, c] = shape as [number, number];
  const s = shape.slice(2).reduce((a, b) => a * b, 1);
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < s; p++) rows.push(Array.from({ length: c }, (_, k) => logits[(i * c + k) * s + p]!));
  }
  return rows;
}

/** Logits [N, C] row-major as rows. */
export function toRows(logits: ArrayLike<number>, classes: number): number[][] {
  const rows: number[][] = [];
  for (let i = 0; i < logits.length / classes; i++) rows.push(Array.from({ length: classes }, (_, k) => logits[i * classes + k]!));
  return rows;
}
