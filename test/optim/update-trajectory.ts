/** Test helpers: an optimizer's traced update as a graph, and a trajectory of updates against torch.optim fixtures. */
import assert from 'node:assert/strict';
import { compile, constant, evaluate, type Graph, trace } from '../../src/engine/index.js';
import type { Optimizer } from '../../src/optim/index.js';

/** A fixture of test/fixtures/scripts (make-nn-fixtures.py, make-optimizer-fixtures.py): start, gradients, lrs, cases. */
export interface TrajectoryFixture {
  p0: number[];
  grads: number[][];
  lrs: number[];
  cases: Record<string, { options: Record<string, unknown>; trajectory: number[][] }>;
}

/** The traced update of one [P] vector: inputs p, g, each slot, each scalar; outputs p and slots. */
export function updateGraph(opt: Optimizer, dtype: 'float32' | 'float64', P: number, decayMask?: number[]): Graph {
  const specs: Record<string, { dtype: 'float32' | 'float64'; shape: number[] }> = { p: { dtype, shape: [P] }, g: { dtype, shape: [P] } };
  for (const s of opt.slots) specs[`s.${s}`] = { dtype, shape: [P] };
  for (const n of opt.scalarNames) specs[`h.${n}`] = { dtype, shape: [] };
  return trace((inp) => {
    const r = opt.update({
      param: inp['p']!,
      grad: inp['g']!,
      state: Object.fromEntries(opt.slots.map((s) => [s, inp[`s.${s}`]!])),
      scalars: Object.fromEntries(opt.scalarNames.map((n) => [n, inp[`h.${n}`]!])),
      decayMask: decayMask ? constant(Float64Array.from(decayMask), { shape: [P], dtype }) : 1,
    });
    return { p: r.param, ...Object.fromEntries(opt.slots.map((s) => [`s.${s}`, r.state[s]!])) };
  }, specs);
}

/** The parameters after each update from `fx.p0` with `fx.grads` and `fx.lrs`, one update run by `run`. */
export function runTrajectory(
  opt: Optimizer,
  run: (feeds: Record<string, Float64Array | number>) => Record<string, ArrayLike<number>>,
  fx: Pick<TrajectoryFixture, 'p0' | 'grads' | 'lrs'>,
): number[][] {
  const P = fx.p0.length;
  let p = Float64Array.from(fx.p0);
  const slots: Record<string, Float64Array> = Object.fromEntries(opt.slots.map((s) => [s, new Float64Array(P)]));
  const out: number[][] = [];
  fx.grads.forEach((g, t) => {
    const feeds: Record<string, Float64Array | number> = { p, g: Float64Array.from(g) };
    for (const s of opt.slots) feeds[`s.${s}`] = slots[s]!;
    const sc = opt.scalars(t + 1, fx.lrs[t]!);
    for (const n of opt.scalarNames) feeds[`h.${n}`] = sc[n]!;
    const r = run(feeds);
    p = Float64Array.from(r['p']!);
    for (const s of opt.slots) slots[s] = Float64Array.from(r[`s.${s}`]!);
    out.push(Array.from(p));
  });
  return out;
}

/** An optimizer's options from PyTorch's keyword arguments, renamed by `names` (PyTorch's name → ours). */
export function optionsFromTorch<O>(torch: Record<string, unknown>, names: Readonly<Record<string, string>>): O {
  return Object.fromEntries(Object.entries(torch).map(([k, v]) => [names[k]!, v])) as O;
}

/** Assert trajectory `a` equals `b` within `tol` relative to 1 + |b| per element. */
export function assertTrajectory(a: number[][], b: number[][], tol: number, what: string): void {
  a.forEach((row, t) => row.forEach((v, i) => assert.ok(Math.abs(v - b[t]![i]!) <= tol * (1 + Math.abs(b[t]![i]!)), `${what} step ${t + 1} [${i}]: ${v} vs ${b[t]![i]}`)));
}

/** Assert `opt`'s trajectory on `fx` equals `expected` in the reference evaluator (float64, 1e-12). */
export function assertEvaluatedTrajectory(opt: Optimizer, fx: TrajectoryFixture, expected: number[][], what: string): void {
  const g = updateGraph(opt, 'float64', fx.p0.length);
  assertTrajectory(
    runTrajectory(opt, (feeds) => Object.fromEntries(Object.entries(evaluate(g, feeds)).map(([k, v]) => [k, v.data])), fx),
    expected,
    1e-12,
    what,
  );
}

/** Assert `opt`'s trajectory on `fx` run by ONNX Runtime equals `expected`: float64 to 1e-12, float32 within 1e-5. */
export function assertOnnxTrajectories(opt: Optimizer, fx: TrajectoryFixture, expected: number[][]): void {
  const P = fx.p0.length;
  const s64 = compile(updateGraph(opt, 'float64', P));
  assertTrajectory(
    runTrajectory(opt, (feeds) => s64.run(feeds) as Record<string, Float64Array>, fx),
    expected,
    1e-12,
    'onnx float64',
  );
  const s32 = compile(updateGraph(opt, 'float32', P));
  const f32 = (feeds: Record<string, Float64Array | number>) => Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, typeof v === 'number' ? v : Float32Array.from(v)]));
  assertTrajectory(
    runTrajectory(opt, (feeds) => s32.run(f32(feeds)) as Record<string, Float32Array>, fx),
    expected,
    1e-5,
    'onnx float32',
  );
  s64.dispose();
  s32.dispose();
}
